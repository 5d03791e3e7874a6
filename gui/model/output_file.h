// SPDX-License-Identifier: Apache-2.0
#pragma once
// kwb-gui's files (PDF report, screenshots, plot images) written by core's writer, as kwb's are:
// atomically, onto a regular file only (through links), keeping its mode (kwb/text_file.h).
#include <QByteArray>
#include <QString>

namespace kwb::gui {

// Writes `bytes` to `path`. Returns an empty string, or a sentence naming the file, the option
// when given ("--report") and the problem; on failure any previous file there is unchanged.
QString writeOutputFile(const QString& path, const QByteArray& bytes, const QString& option = {});

}  // namespace kwb::gui
