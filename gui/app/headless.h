#pragma once
#include <QSize>
#include <QString>

namespace kwb::gui {

// `kwb-gui --open R.json --report out.pdf` and `--screenshot out.png [--tab NAME]`.
struct HeadlessOptions {
  QString open;
  QString baseline;
  QString report;
  QString screenshot;
  QString tab;
  QString caseDialog;  // "kernel@shape": the screenshot is of that case's dialog
  QString engine;
  QSize size{1500, 950};
};

// Exit code: 0 written, 2 a bad input or output file (message on stderr naming it).
int runHeadless(const HeadlessOptions& o);

}  // namespace kwb::gui
