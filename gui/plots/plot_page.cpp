// SPDX-License-Identifier: Apache-2.0
#include "plots/plot_page.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QShortcut>
#include <QVBoxLayout>

#include "model/doc_queries.h"

namespace kwb::gui {

PlotPage::PlotPage(ResultsModel* model, const QString& name, QWidget* parent)
    : QWidget(parent), m_model(model), m_name(name) {
  auto* layout = new QVBoxLayout(this);
  m_controls = new QHBoxLayout;
  layout->addLayout(m_controls);
  m_plot = new QCustomPlot(this);
  m_plot->setObjectName(name);
  setupPlot(m_plot);
  layout->addWidget(m_plot, 1);
  m_tooltips = new PlotTooltips(m_plot);
  m_timer.setSingleShot(true);
  m_timer.setInterval(80);
  connect(&m_timer, &QTimer::timeout, this, &PlotPage::rebuildNow);
  connect(model, &ResultsModel::documentReset, this, &PlotPage::scheduleRebuild);
  connect(model, &ResultsModel::caseAppended, this, &PlotPage::scheduleRebuild);
  connect(model, &ResultsModel::baselineChanged, this, &PlotPage::scheduleRebuild);
  connect(model, &ResultsModel::catalogChanged, this, &PlotPage::scheduleRebuild);
  connect(model, &ResultsModel::filterChanged, this, &PlotPage::scheduleRebuild);
  connect(model, &ResultsModel::overlaysChanged, this, &PlotPage::scheduleRebuild);
  connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { resetZoom(); });
  connect(m_plot, &QCustomPlot::legendClick, this,
          [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
            if (auto* pi = qobject_cast<QCPPlottableLegendItem*>(item))
              toggleSeries(seriesOf(pi->plottable()));
          });
  auto* home = new QShortcut(QKeySequence(Qt::Key_Home), this, this, &PlotPage::resetZoom);
  home->setContext(Qt::WidgetWithChildrenShortcut);
  auto* copy = new QShortcut(QKeySequence::Copy, this, this, &PlotPage::copyToClipboard);
  copy->setContext(Qt::WidgetWithChildrenShortcut);
  m_plot->setContextMenuPolicy(Qt::ActionsContextMenu);
  auto* copyAction = new QAction("Copy plot image", m_plot);
  connect(copyAction, &QAction::triggered, this, &PlotPage::copyToClipboard);
  auto* resetAction = new QAction("Reset zoom (double-click, Home)", m_plot);
  connect(resetAction, &QAction::triggered, this, &PlotPage::resetZoom);
  m_plot->addActions({copyAction, resetAction});
}

QList<QString> PlotPage::shownKernels(const RunDocument& doc) const {
  QList<QString> out;
  for (const QString& id : kernelsOf(doc, m_model->catalog()))
    if (m_model->isShown(id)) out << id;
  return out;
}

QColor PlotPage::ink() const {
  return !m_printing && paletteIsDark() ? QColor(0xd0, 0xd0, 0xd0) : QColor(0x20, 0x20, 0x20);
}

void PlotPage::setPrinting(bool printing) {
  if (printing == m_printing) return;
  m_printing = printing;
  rebuildNow();
}

void PlotPage::resetZoom() {
  for (const auto& [axis, range] : m_home) axis->setRange(range);
  for (QCustomPlot* p : reportPlots()) p->replot();
}

void PlotPage::copyToClipboard() {
  QGuiApplication::clipboard()->setPixmap(m_plot->toPixmap(m_plot->width(), m_plot->height()));
}

void PlotPage::toggleSeries(const QString& series) {
  if (!m_hiddenSeries.remove(series)) m_hiddenSeries.insert(series);
  applyHiddenSeries();
  m_plot->replot();
}

void PlotPage::applyHiddenSeries() {
  for (QCustomPlot* plot : reportPlots())
    for (int i = 0; i < plot->plottableCount(); ++i) {
      QCPAbstractPlottable* p = plot->plottable(i);
      const bool hidden = m_hiddenSeries.contains(seriesOf(p));
      p->setVisible(!hidden);
      if (auto* item = plot->legend->itemWithPlottable(p))
        item->setTextColor(hidden ? QColor(0x99, 0x99, 0x99) : plot->legend->textColor());
    }
}

void PlotPage::scheduleRebuild() {
  if (!m_timer.isActive()) m_timer.start();
}

void PlotPage::rebuildNow() {
  m_timer.stop();
  m_tooltips->clear();
  for (QCustomPlot* p : reportPlots())
    for (QCPAxisRect* rect : p->axisRects())
      for (auto type : {QCPAxis::atBottom, QCPAxis::atLeft}) rect->axis(type)->setVisible(true);
  rebuild();
  applyHiddenSeries();
  m_home.clear();
  for (QCustomPlot* p : reportPlots()) {
    applyPlotTheme(p, !m_printing && paletteIsDark());
    for (QCPAxisRect* rect : p->axisRects())
      for (QCPAxis* a : rect->axes()) m_home.append({a, a->range()});
    p->replot();
  }
}

}  // namespace kwb::gui
