// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QPlainTextEdit>

namespace kwb::gui {

// The engine's human log, GUI messages and run-level checks, one line each, timestamped.
class LogPage : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit LogPage(QWidget* parent = nullptr);
  void append(const QString& level, const QString& message);
};

}  // namespace kwb::gui
