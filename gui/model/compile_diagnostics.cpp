// SPDX-License-Identifier: Apache-2.0
#include "model/compile_diagnostics.h"

#include <QRegularExpression>

namespace kwb::gui {

QString CompileDiagnostic::text() const {
  QString where = QString("line %1").arg(line);
  if (column > 0) where += QString(":%1").arg(column);
  return QString("%1: %2: %3").arg(where, severity, message);
}

QList<CompileDiagnostic> parseCompileDiagnostics(const QStringList& stderrLines) {
  // file:line[:column]: [error|warning: ]message, with kwb's "kwb: error: " before a header's.
  static const QRegularExpression re(
      R"(^(?:kwb: (error|warning): )?(.+?):(\d+)(?::(\d+))?: (?:(error|warning): )?(.*)$)");
  QList<CompileDiagnostic> out;
  for (const QString& raw : stderrLines) {
    const QString line = raw.trimmed();
    if (line.startsWith("--- NVRTC log")) break;  // the raw log repeats what came before
    const auto m = re.match(line);
    if (!m.hasMatch()) continue;
    CompileDiagnostic d;
    d.file = m.captured(2);
    d.line = m.captured(3).toInt();
    d.column = m.captured(4).toInt();
    d.severity = !m.captured(5).isEmpty()   ? m.captured(5)
                 : !m.captured(1).isEmpty() ? m.captured(1)
                                            : QString("error");
    d.message = m.captured(6);
    if (d.line > 0) out << d;
  }
  return out;
}

}  // namespace kwb::gui
