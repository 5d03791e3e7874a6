// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the Scaling page's source files share: one rebuild's state.
#include <cstddef>
#include <map>
#include <set>
#include <string>

#include "kwb/case_size.h"
#include "kwb/shape.h"
#include "model/case_size.h"
#include "pages/scaling_page.h"

namespace kwb::gui {

inline bool isCubic(const Shape& s) { return s.m == s.n && s.n == s.k; }

// What the cases of one line of a memory-bound plot share: the size without its extents (the
// unit-less numbers), "f32" for a reduce, "u8 256 bins uniform" for a histogram. A line through
// sizes that differ in another axis would draw a change of count that is not one.
inline std::string lineKeyOf(const CaseSize& s) {
  CaseSize key{s.family, {}};
  for (const SizeAxis& a : s.axes)
    if (!a.isNumber() || !a.unit.empty()) key.axes.push_back(a);
  return sizeLabel(key);
}

// What one rebuild carries from series to series: the unit, which cases a line joins, and the
// sizes and rates its points reach.
// The most sweep lines a kernel gets (those with the most sizes), and the most non-cubic
// shapes named over the plot: past these a plot is unreadable and slow to lay out.
inline constexpr std::size_t kMaxSweepLines = 6;
inline constexpr std::size_t kMaxShapeNames = 40;

struct ScalingPage::Build {
  const RunDocument& doc;
  bool vector;                   // every case of a memory-bound family: GB/s against the size
  const RunDocument* of = &doc;  // the document of the series being added (a baseline, …)
  std::string lineType{};
  QString unit{};
  double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0;
  bool anyOther = false, anyFallback = false;
  int sweepsLeftOut = 0;                // sweeps past kMaxSweepLines of a kernel, not drawn
  std::set<std::int64_t> cubicSizes{};  // or, for 1-D cases, the joined counts
  std::set<double> allSizes{};
  std::map<double, QString> otherShapes{};  // non-cubic GEMM shapes at their ∛(M·N·K)
  ScalingPage::View view = ScalingPage::View::kSize;
  // A case's x: ∛(M·N·K) or its element count, or the dimension a sweep runs along.
  double xOf(const CaseResult& c) const {
    switch (view) {
      case ScalingPage::View::kM:
        return double(c.shape().m);
      case ScalingPage::View::kN:
        return double(c.shape().n);
      case ScalingPage::View::kK:
        return double(c.shape().k);
      default:
        return scalingValue(c.size);
    }
  }
  bool sweep() const { return view != ScalingPage::View::kSize; }
  bool joined(const CaseResult& c) const {
    return vector ? lineKeyOf(c.size) == lineType : isCubic(c.shape());
  }
  QString lineTypeText() const {
    return lineType.empty() ? "f32" : QString::fromStdString(lineType);
  }
};

}  // namespace kwb::gui
