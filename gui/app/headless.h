// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QPixmap>
#include <QSize>
#include <QString>
#include <QStringList>

namespace kwb::gui {

// `kwb-gui --open R.json --report out.pdf` and `--screenshot out.png [--tab NAME]`.
struct HeadlessOptions {
  QString open;
  QString baseline;
  QStringList compare;  // more runs drawn over this one and the baseline (Progression, Scaling)
  QString report;
  QString screenshot;
  QString tab;
  QString caseDialog;  // "kernel@shape": the screenshot is of that case's dialog
  QString engine;
  QSize size{1500, 950};
  QString theme;  // "system", "light", "dark" (app/theme.h); empty: system
  // `--source F.cu --kernels K,... --shapes S,...`: run the user kernel through the engine,
  // save the file again unchanged (as an editor's save), let the watcher run it a second
  // time, and shoot the window after that run (app/headless_source.cpp).
  QString source;
  QString kernels;
  QString shapes;
};

// Exit code: 0 written, 2 a bad input or output file (message on stderr naming it).
int runHeadless(const HeadlessOptions& o);
int runHeadlessSource(const HeadlessOptions& o);  // runHeadless with o.source set

// Saves through a temporary file renamed over `path`; the format comes from the extension.
// Returns an empty string, or a sentence naming the file and the problem.
QString saveScreenshot(const QPixmap& shot, const QString& path);

}  // namespace kwb::gui
