// SPDX-License-Identifier: Apache-2.0
#include "plots/violin.h"

#include <algorithm>
#include <cmath>

namespace kwb::gui {
namespace {

constexpr int kBins = 256;    // the values are binned before the estimate: fast for any count
constexpr int kOutline = 72;  // points along the outline

double quantile(QVector<double> sorted, double q) {
  const double pos = q * double(sorted.size() - 1);
  const auto i = std::size_t(std::floor(pos));
  const double f = pos - double(i);
  return i + 1 < std::size_t(sorted.size()) ? sorted[i] * (1 - f) + sorted[i + 1] * f : sorted[i];
}

}  // namespace

ViolinShape violinShape(const QVector<double>& values, double lo, double hi, bool log) {
  ViolinShape out;
  QVector<double> v;
  for (double x : values)
    if (std::isfinite(x) && (!log || x > 0)) v << (log ? std::log10(x) : x);
  if (v.isEmpty() || !(hi > lo) || (log && lo <= 0)) return out;
  std::sort(v.begin(), v.end());
  const double a = std::max(v.front(), log ? std::log10(lo) : lo);
  const double b = std::min(v.back(), log ? std::log10(hi) : hi);
  const double n = double(v.size());
  const double sd = [&] {
    double mean = 0, sq = 0;
    for (double x : v) mean += x;
    mean /= n;
    for (double x : v) sq += (x - mean) * (x - mean);
    return std::sqrt(sq / std::max(1.0, n - 1));
  }();
  const double iqr = quantile(v, 0.75) - quantile(v, 0.25);
  double h = 0.9 * std::min(sd, iqr > 0 ? iqr / 1.34 : sd) * std::pow(n, -0.2);
  const double span = v.back() - v.front();
  if (!(h > 0)) h = span > 0 ? span / 20 : std::max(1e-9, std::abs(v.front()) * 1e-3);
  // Bin the values over their whole span, then sum a Gaussian per bin at each outline point.
  const double lo0 = v.front(), step = span > 0 ? span / kBins : 1;
  QVector<double> counts(kBins + 1, 0);
  for (double x : v) counts[std::min(kBins, int((x - lo0) / step))] += 1;
  if (b < a) return out;
  double peak = 0;
  for (int i = 0; i <= kOutline; ++i) {
    const double y = b > a ? a + (b - a) * i / kOutline : a;
    double d = 0;
    for (int k = 0; k <= kBins; ++k) {
      if (counts[k] == 0) continue;
      const double z = (y - (lo0 + (k + 0.5) * step)) / h;
      d += counts[k] * std::exp(-0.5 * z * z);
    }
    out.at << (log ? std::pow(10.0, y) : y);
    out.width << d;
    peak = std::max(peak, d);
    if (b <= a) break;
  }
  for (double& w : out.width) w = peak > 0 ? w / peak : 0;
  return out;
}

QCPCurve* addViolin(QCPAxis* xAxis, QCPAxis* yAxis, const ViolinShape& shape, double x,
                    double halfWidth, ViolinSide side) {
  auto* curve = new QCPCurve(xAxis, yAxis);
  QVector<double> t, xs, ys;
  auto add = [&](double px, double py) {
    t << double(t.size());
    xs << px;
    ys << py;
  };
  const int n = int(shape.at.size());
  if (n == 0) return curve;
  // Up the right side, down the left: a closed outline (a half violin closes on its centre).
  const double right = side == ViolinSide::kLeft ? 0 : halfWidth;
  const double left = side == ViolinSide::kRight ? 0 : halfWidth;
  for (int i = 0; i < n; ++i) add(x + right * shape.width[i], shape.at[i]);
  for (int i = n - 1; i >= 0; --i) add(x - left * shape.width[i], shape.at[i]);
  add(xs.front(), ys.front());
  curve->setData(t, xs, ys);
  return curve;
}

}  // namespace kwb::gui
