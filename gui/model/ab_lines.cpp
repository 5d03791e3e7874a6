// SPDX-License-Identifier: Apache-2.0
#include "model/ab_lines.h"

#include "kwb/cupti_ratio.h"

namespace kwb::gui {

QString abLine(const AbResult& r) {
  const QString verdict = QString::fromUtf8(toString(r.verdict).data());
  const QString size = QString::fromStdString(r.size);
  if (!(r.ratio > 0))
    return QString("%1: not compared (%2): %3")
        .arg(size, QString::fromStdString(r.reason), verdict);
  QString line = QString("%1: B/A %2, 95% CI %3 .. %4: %5")
                     .arg(size)
                     .arg(r.ratio, 0, 'f', 4)
                     .arg(r.ci95.low, 0, 'f', 4)
                     .arg(r.ci95.high, 0, 'f', 4)
                     .arg(verdict);
  // CUPTI's B / A where it parts from the timer's: the engine's note is in the reason.
  if (cuptiParts(r.ratio, r.cuptiRatio))
    line += QString(" (CUPTI's kernel times read B/A %1: not the kernels' alone)")
                .arg(*r.cuptiRatio, 0, 'f', 4);
  return line;
}

QStringList abLines(const AbReport& report) {
  QStringList out;
  for (const AbResult& r : report.results) out << abLine(r);
  return out;
}

}  // namespace kwb::gui
