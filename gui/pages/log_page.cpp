// SPDX-License-Identifier: Apache-2.0
#include "pages/log_page.h"

#include <QTime>

namespace kwb::gui {

LogPage::LogPage(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setMaximumBlockCount(20000);
  setFont(QFont("DejaVu Sans Mono", 9));
}

void LogPage::append(const QString& level, const QString& message) {
  appendPlainText(
      QString("%1 %2 %3")
          .arg(QTime::currentTime().toString("HH:mm:ss"), level.leftJustified(6), message));
}

}  // namespace kwb::gui
