// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <qcustomplot.h>

#include "kwb/run_compare.h"
#include "model/kernel_lookup.h"

namespace kwb::gui {

// Speedup against the baseline per size: a line per kernel (its colour) over the sizes both
// runs timed, in the document's size order, each point the baseline's median time ÷ this
// run's (above 1: faster) with the 95% interval of the change as whiskers; a band at ±2% (the
// SAME verdict) and a line at 1. A cross-device comparison says so in the title.
class SpeedupPlot : public QCustomPlot {
  Q_OBJECT
 public:
  explicit SpeedupPlot(QWidget* parent = nullptr);
  // Draws the comparison `all` of a document against its baseline for `kernels` (in their
  // order; others are left out). `sizes`: the document's sizes in order (the x axis).
  void draw(const RunComparison& all, const QList<CaseSize>& sizes, const KernelLookup& catalog,
            const QList<QString>& kernels);
  // The line of a kernel, or null.
  QCPGraph* lineOf(const QString& kernel) const;
};

// The speedup a change in time is (1 / (1 + change)), and its interval from the change's.
double speedupOf(double change);

}  // namespace kwb::gui
