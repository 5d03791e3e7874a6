#include "tuning_page.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "doc_queries.h"
#include "run_request.h"

namespace kwb::gui {
namespace {

// The block tile goes across when the kernel names it; otherwise its first parameter.
bool acrossKey(const TuneConfig& c, const std::string& key) {
  if (c.params.count("BM") && c.params.count("BN")) return key == "BM" || key == "BN";
  return !c.params.empty() && key == c.params.begin()->first;
}

QString columnLabel(const TuneConfig& c) {
  if (c.params.count("BM") && c.params.count("BN"))
    return QString("%1×%2").arg(c.params.at("BM")).arg(c.params.at("BN"));
  if (c.params.empty()) return QString::fromStdString(c.name);
  return QString("%1 %2")
      .arg(QString::fromStdString(c.params.begin()->first))
      .arg(c.params.begin()->second);
}

QString rowLabel(const TuneConfig& c) {
  QStringList parts;
  for (const auto& [key, value] : c.params)
    if (!acrossKey(c, key)) parts << QString("%1 %2").arg(QString::fromStdString(key)).arg(value);
  return parts.isEmpty() ? QString("—") : parts.join(" · ");
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

QCPItemRect* cellRect(QCustomPlot* p, double x, double y, QPen pen, QBrush brush) {
  auto* r = new QCPItemRect(p);
  r->topLeft->setCoords(x - 0.5, y + 0.5);
  r->bottomRight->setCoords(x + 0.5, y - 0.5);
  r->setPen(pen);
  r->setBrush(brush);
  return r;
}

}  // namespace

TuningPage::TuningPage(ResultsModel* model, QWidget* parent) : PlotPage(model, "Tuning", parent) {
  QCustomPlot* p = plot();
  p->legend->setVisible(false);
  p->setInteractions(QCP::Interactions());  // a grid of cells: nothing to pan or zoom
  setPlotTitle(p, "Tuning");
  m_map = new QCPColorMap(p->xAxis, p->yAxis);
  m_map->setInterpolate(false);
  m_map->setTightBoundary(true);
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
  QStringList columns, rows;
  for (const TuneResult& r : grid.results) {
    if (!columns.contains(columnLabel(r.config))) columns << columnLabel(r.config);
    if (!rows.contains(rowLabel(r.config))) rows << rowLabel(r.config);
  }
  const int nx = int(columns.size()), ny = int(rows.size());
  // Cell (i, j) sits at coordinates (i, j); a single column or row still gets two cells, as
  // QCP cannot span a range with one.
  const int kx = std::max(2, nx), ky = std::max(2, ny);
  m_map->data()->setSize(kx, ky);
  m_map->data()->setRange(QCPRange(0, kx - 1), QCPRange(0, ky - 1));
  m_map->data()->fill(std::numeric_limits<double>::quiet_NaN());
  double lo = std::numeric_limits<double>::max(), hi = 0;
  for (const TuneResult& r : grid.results)
    if (r.gflops) lo = std::min(lo, *r.gflops), hi = std::max(hi, *r.gflops);
  if (hi <= 0) lo = 0, hi = 1;
  if (lo >= hi) lo = hi * 0.9;
  const QCPRange range(lo, hi);
  QCPColorGradient gradient = viridis();  // color() is not const in QCP 2.1
  for (const TuneResult& r : grid.results) {
    const QString name = QString::fromStdString(r.config.name);
    const int x = int(columns.indexOf(columnLabel(r.config)));
    const int y = int(rows.indexOf(rowLabel(r.config)));
    m_cells[name] = QPoint(x, y);
    QString tip = QString("%1\n%2 · %3").arg(name, columnLabel(r.config), rowLabel(r.config));
    tip += QString("\nstatus %1").arg(QString::fromStdString(r.status).toUpper());
    const bool timed = r.status == "pass" && r.gflops;
    if (timed) {
      m_map->data()->setCell(x, y, *r.gflops);
      const QColor bg = gradient.color(*r.gflops, range);
      const QColor fg = qGray(bg.rgb()) > 140 ? Qt::black : Qt::white;
      const bool isBest = name == m_best;
      cellText(p, x, y,
               QString("%1%2\n%3 GFLOP/s")
                   .arg(isBest ? "★ " : "", name, QString::number(*r.gflops, 'f', 0)),
               fg);
      if (isBest) cellRect(p, x, y, QPen(Qt::black, 3), Qt::NoBrush);
      tip += QString("\n%1 GFLOP/s · median %2 ms · %3 samples")
                 .arg(formatNumber(*r.gflops, 6), formatNumber(r.medianMs.value_or(0), 5))
                 .arg(r.samples);
    } else {
      ++m_failedMarks;
      const QColor red = statusColor(CaseStatus::kFail);
      cellRect(p, x, y, QPen(red, 2), QBrush(red.lighter(170), Qt::BDiagPattern));
      cellText(p, x, y, QString("✗ %1\n%2").arg(QString::fromStdString(r.status).toUpper(), name),
               red.darker(130));
    }
    if (!r.message.empty()) tip += "\n" + QString::fromStdString(r.message);
    tooltips()->add(p->xAxis, p->yAxis, x, y, tip);
  }
  m_scale->setDataRange(range);
  m_map->setDataRange(range);

  QSharedPointer<QCPAxisTickerText> xt(new QCPAxisTickerText), yt(new QCPAxisTickerText);
  for (int i = 0; i < nx; ++i) xt->addTick(i, columns[i]);
  for (int j = 0; j < ny; ++j) yt->addTick(j, rows[j]);
  p->xAxis->setTicker(xt);
  p->yAxis->setTicker(yt);
  p->xAxis->setRange(-0.5, nx - 0.5);
  p->yAxis->setRange(-0.5, ny - 0.5);
  p->xAxis->setLabel(columns.first().contains("×") ? "block tile BM×BN" : "");
  p->yAxis->setLabel("");
  const auto bestIt = std::find_if(grid.results.begin(), grid.results.end(),
                                   [&](const TuneResult& r) { return r.config.name == grid.best; });
  setPlotTitle(p, QString("Tuning %1 at %2 — %3")
                      .arg(QString::fromStdString(grid.kernel), shapeText(grid.shape))
                      .arg(bestIt != grid.results.end() && bestIt->gflops
                               ? QString("best %1, %2 GFLOP/s")
                                     .arg(m_best, QString::number(*bestIt->gflops, 'f', 0))
                               : QString("no configuration passed")));
}

}  // namespace kwb::gui
