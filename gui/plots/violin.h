// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QVector>
#include <qcustomplot.h>

namespace kwb::gui {

// The outline of one distribution as a violin: `width[i]`, 0 to 1 (1 at the densest point), is
// the density of the values at `at[i]`, from a Gaussian kernel density estimate (Silverman's
// bandwidth) over the values binned finely. `log`: the estimate runs over log10 of the values
// (a log axis), `at` is in the values' own unit either way. The outline spans the values
// clipped to [lo, hi]; none for no values.
struct ViolinShape {
  QVector<double> at, width;
};
ViolinShape violinShape(const QVector<double>& values, double lo, double hi, bool log);

// Which side of its centre a violin is drawn on: both, or half of it, as when a baseline's
// distribution is drawn on the left beside this run's on the right.
enum class ViolinSide { kBoth, kLeft, kRight };

// A filled violin centred at `x` whose widest point is `halfWidth` on each side drawn.
QCPCurve* addViolin(QCPAxis* xAxis, QCPAxis* yAxis, const ViolinShape& shape, double x,
                    double halfWidth, ViolinSide side);

}  // namespace kwb::gui
