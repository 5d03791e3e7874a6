// SPDX-License-Identifier: Apache-2.0
#include "pages/tuning_page.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kwb/shape.h"
#include "model/doc_queries.h"
#include "model/run_request.h"

namespace kwb::gui {
namespace {

// Parameters across in the order a reader thinks of them: block tile, K slice, warp tile, then
// the rest (per-thread tile, stages, derived threads and shared memory) by name.
QStringList parameterOrder(const TuneGrid& grid) {
  QStringList keys;
  for (const CaseResult& r : grid.results)
    for (const auto& kv : r.config->params)
      if (!keys.contains(QString::fromStdString(kv.first)))
        keys << QString::fromStdString(kv.first);
  const QStringList first{"BM", "BN", "BK", "WM", "WN"};
  QStringList out;
  for (const QString& k : first)
    if (keys.contains(k)) out << k;
  for (const QString& k : keys)
    if (!out.contains(k)) out << k;
  return out;
}

QCPColorGradient viridis() {
  QCPColorGradient g;
  g.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
  g.setColorStopAt(0.25, QColor(0x3b, 0x52, 0x8b));
  g.setColorStopAt(0.5, QColor(0x21, 0x91, 0x8c));
  g.setColorStopAt(0.75, QColor(0x5e, 0xc9, 0x62));
  g.setColorStopAt(1.0, QColor(0xfd, 0xe7, 0x25));
  g.setNanHandling(QCPColorGradient::nhTransparent);
  return g;
}

QCPItemText* cellText(QCustomPlot* p, double x, double y, const QString& text, QColor color) {
  auto* t = new QCPItemText(p);
  t->position->setCoords(x, y);
  t->setPositionAlignment(Qt::AlignCenter);
  t->setTextAlignment(Qt::AlignCenter);
  t->setText(text);
  t->setColor(color);
  t->setClipToAxisRect(true);
  return t;
}

// A rectangle over a whole row of the map (the hatch of a failed row, the best one's outline).
QCPItemRect* rowRect(QCustomPlot* p, int y, int nx) {
  auto* rect = new QCPItemRect(p);
  rect->topLeft->setCoords(-0.5, y - 0.5);
  rect->bottomRight->setCoords(nx - 0.5, y + 0.5);
  return rect;
}

// Whether a row is the configuration a sweep of several shapes chose for its shape.
bool isChoice(const TuneGrid& grid, const CaseResult& r) {
  return std::any_of(grid.choices.begin(), grid.choices.end(), [&](const TuneChoice& c) {
    return c.shape == r.shape() && c.gflops > 0 && c.config == r.config->name;
  });
}

// The colour scale: the GFLOP/s of the configurations timed, never an empty range.
QCPRange gflopsRange(const TuneGrid& grid) {
  double lo = std::numeric_limits<double>::max(), hi = 0;
  for (const CaseResult& r : grid.results)
    if (r.gflops > 0) lo = std::min(lo, r.gflops), hi = std::max(hi, r.gflops);
  if (hi <= 0) lo = 0, hi = 1;
  if (lo >= hi) lo = hi * 0.9;
  return QCPRange(lo, hi);
}

QString rowTip(const CaseResult& r, const QString& name, bool timed) {
  QString tip = QString("%1\nstatus %2")
                    .arg(name, QString::fromStdString(std::string(toString(r.status))).toUpper());
  if (timed)
    tip += QString("\n%1 GFLOP/s · median %2 ms · %3 samples")
               .arg(formatNumber(r.gflops, 6), formatNumber(r.summary.median, 5))
               .arg(qulonglong(r.summary.count));
  if (!r.message.empty()) tip += "\n" + QString::fromStdString(r.message);
  return tip;
}

QString manyShapesTitle(const TuneGrid& grid) {
  return QString("Tuning %1 at %2 shapes — ★ each shape's choice")
      .arg(QString::fromStdString(grid.kernel))
      .arg(grid.choices.size());
}

QString sweepTitle(const TuneGrid& grid, const QString& best) {
  const auto bestIt =
      std::find_if(grid.results.begin(), grid.results.end(),
                   [&](const CaseResult& r) { return r.config->name == grid.best; });
  return QString("Tuning %1 at %2 — %3")
      .arg(QString::fromStdString(grid.kernel), QString::fromStdString(shapeText(grid.shape)))
      .arg(bestIt != grid.results.end() && bestIt->gflops > 0
               ? QString("best %1, %2 GFLOP/s").arg(best, QString::number(bestIt->gflops, 'f', 0))
               : QString("no configuration passed"));
}

}  // namespace

TuningPage::TuningPage(ResultsModel* model, QWidget* parent) : PlotPage(model, "Tuning", parent) {
  QCustomPlot* p = plot();
  p->legend->setVisible(false);
  p->setInteractions(QCP::Interactions());  // a grid of cells: nothing to pan or zoom
  setPlotTitle(p, "Tuning");
  m_map = new QCPColorMap(p->xAxis, p->yAxis);
  m_map->setInterpolate(false);
  m_map->setGradient(viridis());
  m_scale = new QCPColorScale(p);
  m_scale->setType(QCPAxis::atRight);
  m_scale->setLabel("GFLOP/s");
  m_scale->setGradient(viridis());
  p->plotLayout()->addElement(1, 1, m_scale);
  m_map->setColorScale(m_scale);
  auto* group = new QCPMarginGroup(p);
  p->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
  m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
  p->xAxis->grid()->setVisible(false);
  p->yAxis->grid()->setVisible(false);
}

void TuningPage::rebuild() {
  QCustomPlot* p = plot();
  p->clearItems();
  m_cells.clear();
  m_failedMarks = 0;
  m_best.clear();
  const RunDocument& doc = model()->document();
  if (!doc.tuning || doc.tuning->results.empty()) {
    setPlotTitle(p, "Tuning (no sweep in these results)");
    m_map->data()->clear();
    return;
  }
  const TuneGrid& grid = *doc.tuning;
  m_best = QString::fromStdString(grid.best);
  // A sweep of several shapes (kwb tune --shapes): a row per configuration and shape, each
  // shape's choice marked, as a sweep of one marks its fastest.
  const bool manyShapes = std::any_of(grid.results.begin(), grid.results.end(),
                                      [&](const CaseResult& r) { return r.shape() != grid.shape; });
  // One row per configuration, its parameters across and GFLOP/s last: every cell of a row
  // takes the configuration's colour, so reading down a column shows which values run fast.
  const QStringList params = parameterOrder(grid);
  const int nx = int(params.size()) + 1, ny = int(grid.results.size());
  // Cell (i, j) is centred on (i, j); a single row still gets two cells (QCP needs a range).
  const int kx = std::max(2, nx), ky = std::max(2, ny);
  m_map->data()->setSize(kx, ky);
  m_map->data()->setRange(QCPRange(0, kx - 1), QCPRange(0, ky - 1));
  m_map->data()->fill(std::numeric_limits<double>::quiet_NaN());
  const QCPRange range = gflopsRange(grid);
  QSharedPointer<QCPAxisTickerText> xt(new QCPAxisTickerText), yt(new QCPAxisTickerText);
  for (int i = 0; i < params.size(); ++i) xt->addTick(i, params[i]);
  xt->addTick(nx - 1, "GFLOP/s");
  for (int y = 0; y < ny; ++y) yt->addTick(y, addRow(grid, params, y, manyShapes, range));
  m_scale->setDataRange(range);
  m_map->setDataRange(range);

  p->xAxis->setTicker(xt);
  p->yAxis->setTicker(yt);
  p->xAxis->setRange(-0.5, nx - 0.5);
  p->yAxis->setRange(-0.5, ny - 0.5);
  p->yAxis->setRangeReversed(true);  // configurations top to bottom in sweep order
  p->xAxis->setLabel("parameter");
  p->yAxis->setLabel("configuration");
  setPlotTitle(p, manyShapes ? manyShapesTitle(grid) : sweepTitle(grid, m_best));
}

QString TuningPage::addRow(const TuneGrid& grid, const QStringList& params, int y, bool manyShapes,
                           const QCPRange& range) {
  QCustomPlot* p = plot();
  const int nx = int(params.size()) + 1;
  const CaseResult& r = grid.results[std::size_t(y)];
  const QString name =
      (manyShapes ? QString::fromStdString(shapeText(r.shape())) + " · " : QString()) +
      QString::fromStdString(r.config->name);
  const bool timed = r.status == CaseStatus::kPass && r.gflops > 0;
  const bool isBest = manyShapes ? isChoice(grid, r) : name == m_best;
  m_cells[name] = QPoint(nx - 1, y);
  const QColor red = statusColor(CaseStatus::kFail);
  QColor fg = red.darker(130);
  if (timed) {
    for (int x = 0; x < nx; ++x) m_map->data()->setCell(x, y, r.gflops);
    QCPColorGradient gradient = viridis();  // color() is not const in QCP 2.1
    const QColor bg = gradient.color(r.gflops, range);
    fg = qGray(bg.rgb()) > 140 ? Qt::black : Qt::white;
  } else {
    ++m_failedMarks;
    QCPItemRect* rect = rowRect(p, y, nx);
    rect->setPen(QPen(red, 2));
    rect->setBrush(QBrush(red.lighter(170), Qt::BDiagPattern));
  }
  for (int x = 0; x < params.size(); ++x) {
    const auto it = r.config->params.find(params[x].toStdString());
    if (it != r.config->params.end()) cellText(p, x, y, QString::number(it->second), fg);
  }
  cellText(p, nx - 1, y,
           timed ? QString::number(r.gflops, 'f', 0)
                 : "✗ " + QString::fromStdString(std::string(toString(r.status))).toUpper(),
           fg)
      ->setFont(QFont(p->font().family(), 9, QFont::Bold));
  if (isBest) rowRect(p, y, nx)->setPen(QPen(Qt::black, 3));
  const QString tip = rowTip(r, name, timed);
  for (int x = 0; x < nx; ++x) tooltips()->add(p->xAxis, p->yAxis, x, y, tip);
  return (isBest ? "★ " : "") + name;
}

}  // namespace kwb::gui
