#include "plot_page.h"

#include <QVBoxLayout>

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
}

void PlotPage::scheduleRebuild() {
  if (!m_timer.isActive()) m_timer.start();
}

void PlotPage::rebuildNow() {
  m_timer.stop();
  m_tooltips->clear();
  rebuild();
  for (QCustomPlot* p : reportPlots()) p->replot();
}

}  // namespace kwb::gui
