// SPDX-License-Identifier: Apache-2.0
#pragma once
// The engine's compile errors for a user kernel (docs/BRING_YOUR_OWN.md, "Compile errors"):
// `kwb run --source F.cu` exits 2 before its first event and prints each diagnostic on stderr
// as `file:line:column: error: message` (a bad `// kwb:` header: `kwb: error: file:line: ...`).
#include <QList>
#include <QString>
#include <QStringList>

namespace kwb::gui {

struct CompileDiagnostic {
  QString file;
  int line = 0;
  int column = 0;    // 0: not given
  QString severity;  // "error", "warning"
  QString message;
  QString text() const;  // "line 4:11: error: identifier ..." for the list
};

// The diagnostics among the engine's stderr lines, in order; the NVRTC log that follows them
// (`file(4): error: ...`, repeated) is not read twice.
QList<CompileDiagnostic> parseCompileDiagnostics(const QStringList& stderrLines);

}  // namespace kwb::gui
