// SPDX-License-Identifier: Apache-2.0
#pragma once
// "Open in editor" for a user kernel's source (docs/BRING_YOUR_OWN.md, "In the GUI").
#include <QString>
#include <QStringList>

namespace kwb::gui {

// The command that opens `file` at `line` with `editor` (the text of $VISUAL or $EDITOR, which
// may hold arguments, "code --wait"): +LINE for the editors that take it (vi, vim, nvim, nano,
// emacs, micro, gedit, kate -l, ...), --goto file:line for VS Code, the file alone otherwise.
// Empty when `editor` is empty.
QStringList editorCommand(const QString& editor, const QString& file, int line);

// Opens `file` (at `line` when > 0) in $VISUAL, else $EDITOR, else the desktop's program for
// it (QDesktopServices). Returns an empty string, or a sentence saying what failed.
QString openInEditor(const QString& file, int line);

}  // namespace kwb::gui
