// SPDX-License-Identifier: Apache-2.0
#include "engine/editor_launch.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QProcess>
#include <QUrl>

namespace kwb::gui {

QStringList editorCommand(const QString& editor, const QString& file, int line) {
  QStringList cmd = QProcess::splitCommand(editor);
  if (cmd.isEmpty()) return {};
  const QString name = QFileInfo(cmd.first()).fileName();
  static const QStringList plusLine{"vi",    "vim",         "nvim",  "gvim",  "nano",
                                    "emacs", "emacsclient", "micro", "gedit", "kak",
                                    "joe",   "mousepad",    "pluma", "xed"};
  // The editor's way to open at a line, where there is a line and a known way; else the file.
  if (line > 0 && plusLine.contains(name))
    cmd << QString("+%1").arg(line) << file;
  else if (line > 0 && name == "kate")
    cmd << "-l" << QString::number(line) << file;
  else if (line > 0 && (name == "code" || name == "codium" || name == "code-insiders"))
    cmd << "--goto" << QString("%1:%2").arg(file).arg(line);
  else
    cmd << file;
  return cmd;
}

QString openInEditor(const QString& file, int line) {
  for (const char* var : {"VISUAL", "EDITOR"}) {
    const QStringList cmd = editorCommand(qEnvironmentVariable(var), file, line);
    if (cmd.isEmpty()) continue;
    if (QProcess::startDetached(cmd.first(), cmd.mid(1))) return {};
    return QString("Could not start the editor '%1' (from $%2).").arg(cmd.first(), var);
  }
  if (QDesktopServices::openUrl(QUrl::fromLocalFile(file))) return {};
  return QString("No program opens '%1': set $VISUAL or $EDITOR.").arg(file);
}

}  // namespace kwb::gui
