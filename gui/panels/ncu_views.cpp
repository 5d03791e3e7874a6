// SPDX-License-Identifier: Apache-2.0
#include "panels/ncu_views.h"

#include <QHeaderView>
#include <QTableWidget>
#include <algorithm>
#include <cmath>

#include "plots/plot_helpers.h"
#include <qcustomplot.h>

namespace kwb::gui {
namespace {

QTableWidgetItem* cell(const QString& text, bool number = true) {
  auto* item = new QTableWidgetItem(text);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QString fixed(double v, int decimals) { return QString::number(v, 'f', decimals); }
QString megabytes(double bytes) { return fixed(bytes / 1e6, 2); }
QString gbPerSecond(double bytesPerSecond) { return fixed(bytesPerSecond / 1e9, 0); }

// "sgemmWarpTiledKernel<…>(…)": a kernel's name short enough for a table cell or a title, the
// whole name in the tooltip.
QString shortName(const std::string& name) {
  QString n = QString::fromStdString(name);
  if (n.startsWith("void ")) n = n.mid(5);
  const QString anonymous = "(anonymous namespace)::";
  const int args = int(n.indexOf('(', n.startsWith(anonymous) ? anonymous.size() : 0));
  if (args > 0) n = n.left(args);
  const int templ = int(n.indexOf('<'));
  if (templ > 0) n = n.left(templ) + "<…>";
  return n;
}

void setUp(QTableWidget* table, const QStringList& heads, const QStringList& tips) {
  table->clear();
  table->setColumnCount(int(heads.size()));
  table->setHorizontalHeaderLabels(heads);
  for (int i = 0; i < heads.size(); ++i) {
    table->horizontalHeaderItem(i)->setToolTip(tips.value(i));
    table->horizontalHeader()->setSectionResizeMode(i, QHeaderView::ResizeToContents);
  }
  table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  table->verticalHeader()->hide();
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
}

void noteRow(QTableWidget* table) {
  table->setRowCount(1);
  table->setItem(0, 0, cell(missingFiguresNote(), false));
  table->setSpan(0, 0, 1, table->columnCount());
}

void nameCell(QTableWidget* table, int row, const std::string& name) {
  table->setItem(row, 0, cell(shortName(name), false));
  table->item(row, 0)->setToolTip(QString::fromStdString(name));
}

void clearPlot(QCustomPlot* plot) {
  plot->clearPlottables();
  plot->clearItems();
  for (QCPAxisRect* rect : plot->axisRects())
    for (auto type : {QCPAxis::atBottom, QCPAxis::atLeft}) rect->axis(type)->setVisible(true);
  plot->legend->setVisible(false);
}

}  // namespace

QString missingFiguresNote() {
  return "Not in this profile: it was recorded before kwb read launch statistics, warp stalls "
         "and memory traffic. Profile again to see them.";
}

void fillLaunchTable(QTableWidget* table, const std::vector<NcuKernelFigures>& perKernel) {
  setUp(table,
        {"kernel", "grid", "block", "registers", "shared mem KiB", "theoretical occ. %",
         "achieved occ. %", "waves/SM"},
        {"kernel name as ncu reports it", "blocks in the grid (x, y, z)",
         "threads in a block (x, y, z)", "registers per thread",
         "shared memory per block, static + dynamic", "the most warps per SM the launch allows",
         "warps active on average, % of the SM's maximum",
         "blocks ÷ (blocks one wave of every SM holds): under 1, SMs sit idle"});
  const bool any = std::any_of(perKernel.begin(), perKernel.end(),
                               [](const NcuKernelFigures& k) { return k.hasLaunchStatistics(); });
  if (!any) return noteRow(table);
  table->setRowCount(int(perKernel.size()));
  for (int r = 0; r < int(perKernel.size()); ++r) {
    const NcuKernelFigures& k = perKernel[std::size_t(r)];
    nameCell(table, r, k.name);
    table->setItem(r, 1, cell(QString::fromStdString(k.grid)));
    table->setItem(r, 2, cell(QString::fromStdString(k.block)));
    table->setItem(r, 3, cell(fixed(k.registersPerThread, 0)));
    table->setItem(r, 4, cell(fixed(k.sharedMemPerBlockBytes / 1024, 1)));
    table->setItem(r, 5, cell(fixed(k.theoreticalOccupancyPct, 1)));
    table->setItem(r, 6, cell(fixed(k.achievedOccupancyPct, 1)));
    table->setItem(r, 7, cell(fixed(k.wavesPerSm, 2)));
  }
}

void fillMemoryTable(QTableWidget* table, const std::vector<NcuKernelFigures>& perKernel,
                     const NcuPerCase& perCase) {
  setUp(table,
        {"kernel", "DRAM read MB", "DRAM write MB", "DRAM GB/s", "L2 MB", "L2 GB/s", "L1 MB",
         "L1 GB/s"},
        {"kernel name as ncu reports it; the last row is one launch of the case, every kernel",
         "dram__bytes_read.sum", "dram__bytes_write.sum", "dram__bytes.sum.per_second",
         "lts__t_bytes.sum: bytes through the L2", "lts__t_bytes.sum.per_second",
         "l1tex__t_bytes.sum: bytes through L1/TEX", "l1tex__t_bytes.sum.per_second"});
  const bool any = std::any_of(perKernel.begin(), perKernel.end(),
                               [](const NcuKernelFigures& k) { return k.hasMemoryTraffic(); });
  if (!any) return noteRow(table);
  table->setRowCount(int(perKernel.size()) + 1);
  for (int r = 0; r < int(perKernel.size()); ++r) {
    const NcuKernelFigures& k = perKernel[std::size_t(r)];
    nameCell(table, r, k.name);
    table->setItem(r, 1, cell(megabytes(k.dramReadBytes)));
    table->setItem(r, 2, cell(megabytes(k.dramWriteBytes)));
    table->setItem(r, 3, cell(gbPerSecond(k.dram.bytesPerSecond)));
    table->setItem(r, 4, cell(megabytes(k.l2.bytes)));
    table->setItem(r, 5, cell(gbPerSecond(k.l2.bytesPerSecond)));
    table->setItem(r, 6, cell(megabytes(k.l1.bytes)));
    table->setItem(r, 7, cell(gbPerSecond(k.l1.bytesPerSecond)));
  }
  const int last = int(perKernel.size());
  table->setItem(
      last, 0,
      cell(QString("one launch of the case (%1 profiled): DRAM bytes").arg(perCase.caseLaunches),
           false));
  table->setSpan(last, 0, 1, 3);
  table->setItem(last, 3, cell(megabytes(perCase.dramBytes) + " MB"));
  table->setSpan(last, 3, 1, 5);
  QFont bold = table->font();
  bold.setBold(true);
  for (int c : {0, 3}) table->item(last, c)->setFont(bold);
}

void drawStallChart(QCustomPlot* plot, const NcuKernelFigures& k, int limit) {
  clearPlot(plot);  // no title: the kernel is named above the plot, the unit on its axis
  if (k.stalls.empty()) {
    showEmptyNote(plot, missingFiguresNote().replace(": ", ":\n"));
    plot->replot();
    return;
  }
  const int n = std::min(limit, int(k.stalls.size()));
  auto* bars = new QCPBars(plot->yAxis, plot->xAxis);  // horizontal: reasons down the side
  bars->setName("stall");
  bars->setWidth(0.7);
  bars->setPen(Qt::NoPen);
  bars->setBrush(QColor(0x3b, 0x75, 0xaf));
  QList<QPair<double, QString>> ticks;
  double most = 0;
  for (int i = 0; i < n; ++i) {
    const NcuStall& s = k.stalls[std::size_t(i)];
    const double y = n - i;  // the largest on top
    bars->addData(y, s.cyclesPerIssue);
    ticks << qMakePair(y, QString::fromStdString(s.reason));
    most = std::max(most, s.cyclesPerIssue);
    auto* label = new QCPItemText(plot);
    label->position->setCoords(s.cyclesPerIssue, y);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    label->setText(" " + fixed(s.cyclesPerIssue, 2));
    label->setColor(plot->xAxis->tickLabelColor());
  }
  setTextTicks(plot->yAxis, ticks);
  plot->yAxis->setRange(0.4, n + 0.6);
  makeLinearAxis(plot->xAxis);
  plot->xAxis->setRange(0, most > 0 ? most * 1.18 : 1);
  plot->xAxis->setLabel("warp cycles stalled per issued instruction");
  plot->replot();
}

void drawProfileRoofline(QCustomPlot* plot, const std::optional<ProfileRoof>& r) {
  clearPlot(plot);
  if (!r || r->flops <= 0 || r->gflops <= 0 || r->peakGBs <= 0 || r->peakGflops <= 0) {
    showEmptyNote(plot, !r ? QString("No DRAM bytes measured, or no declared work:\nnothing to "
                                     "place on the roofline.")
                           : QString("The family declares no FLOPs, or the document no device "
                                     "peaks:\nsee the memory traffic instead."));
    plot->replot();
    return;
  }
  const double ridge = r->peakGflops / r->peakGBs;
  const double lo = std::min({r->achievedIntensity(), r->declaredIntensity(), ridge}) / 4;
  const double hi = std::max({r->achievedIntensity(), r->declaredIntensity(), ridge}) * 4;
  makeLogAxis(plot->xAxis);
  makeLogAxis(plot->yAxis);
  auto* roof = plot->addGraph();
  roof->setName(QString("%1 peak %2, %3 GB/s")
                    .arg(r->peakName, rateText(r->peakGflops, "GFLOP/s"))
                    .arg(r->peakGBs, 0, 'f', 0));
  roof->setPen(QPen(QColor(0x80, 0x80, 0x80), 2));
  roof->setData({lo, ridge, hi}, {lo * r->peakGBs, r->peakGflops, r->peakGflops});
  const QColor red(0xd6, 0x27, 0x28);
  const auto point = [&](const QString& name, double x, const QBrush& fill) {
    auto* g = plot->addGraph();
    g->setName(name);
    g->setLineStyle(QCPGraph::lsNone);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(red, 2), fill, 10));
    g->setData({x}, {r->gflops});
  };
  point(QString("measured DRAM bytes: %1 FLOP/byte").arg(r->achievedIntensity(), 0, 'g', 3),
        r->achievedIntensity(), red);
  point(QString("declared minimum: %1 FLOP/byte").arg(r->declaredIntensity(), 0, 'g', 3),
        r->declaredIntensity(), Qt::NoBrush);
  auto* arrow = new QCPItemLine(plot);
  arrow->start->setCoords(r->declaredIntensity(), r->gflops);
  arrow->end->setCoords(r->achievedIntensity(), r->gflops);
  arrow->setPen(QPen(QColor(0xd6, 0x27, 0x28), 1, Qt::DashLine));
  arrow->setHead(QCPLineEnding::esSpikeArrow);
  plot->xAxis->setRange(lo, hi);
  plot->yAxis->setRange(std::min(r->gflops, lo * r->peakGBs) / 2, r->peakGflops * 2);
  plot->xAxis->setLabel("FLOP per DRAM byte (log)");
  plot->yAxis->setLabel("GFLOP/s (log)");
  plot->legend->setVisible(true);
  // A short plot in a tab: the legend beside it, over no line (moved once: a plot is redrawn
  // for each profile).
  if (plot->axisRect()->insetLayout()->elements(false).contains(plot->legend))
    placeLegendOutside(plot);
  plot->replot();
}

}  // namespace kwb::gui
