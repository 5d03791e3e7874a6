#include "plot_helpers.h"

#include <QSvgGenerator>
#include <QToolTip>
#include <limits>

namespace kwb::gui {

PlotTooltips::PlotTooltips(QCustomPlot* plot) : QObject(plot), m_plot(plot) {
  plot->setMouseTracking(true);
  connect(plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
    const QString text = textAt(e->position());
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(e->globalPosition().toPoint(), text, m_plot);
  });
}

void PlotTooltips::add(QCPAxis* xAxis, QCPAxis* yAxis, double x, double y, const QString& text) {
  m_points.append({xAxis, yAxis, x, y, text});
}

QString PlotTooltips::textAt(const QPointF& pos, double radius) const {
  double best = radius * radius;
  QString text;
  for (const Point& p : m_points) {
    const double dx = p.x->coordToPixel(p.px) - pos.x();
    const double dy = p.y->coordToPixel(p.py) - pos.y();
    if (dx * dx + dy * dy <= best) {
      best = dx * dx + dy * dy;
      text = p.text;
    }
  }
  return text;
}

void setupPlot(QCustomPlot* plot) {
  plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot->axisRect()->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  plot->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
  plot->setNoAntialiasingOnDrag(true);
  plot->legend->setVisible(true);
  QFont f = plot->font();
  f.setPointSize(9);
  plot->legend->setFont(f);
  plot->legend->setBrush(QColor(255, 255, 255, 220));
  plot->setMinimumSize(400, 300);
}

void placeLegendOutside(QCustomPlot* plot) {
  QCPLayoutGrid* grid = plot->plotLayout();
  QCPAxisRect* rect = plot->axisRect();
  int row = 0, col = 0;
  for (int r = 0; r < grid->rowCount(); ++r)
    if (grid->element(r, 0) == rect) row = r;
  plot->axisRect()->insetLayout()->take(plot->legend);
  // A column of its own: the legend on top, an empty element below takes the spare height.
  auto* column = new QCPLayoutGrid;
  grid->addElement(row, col + 1, column);
  column->addElement(0, 0, plot->legend);
  column->addElement(1, 0, new QCPLayoutElement(plot));
  column->setRowStretchFactor(0, 0.001);
  column->setRowStretchFactor(1, 1);
  grid->setColumnStretchFactor(1, 0.001);
  plot->legend->setMaximumSize(280, QWIDGETSIZE_MAX);
  grid->simplify();
}

void makeLogAxis(QCPAxis* axis) {
  axis->setScaleType(QCPAxis::stLogarithmic);
  QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
  axis->setTicker(ticker);
  axis->setNumberFormat("gb");
  axis->setNumberPrecision(3);
}

void setPlotTitle(QCustomPlot* plot, const QString& title) {
  QCPTextElement* element = nullptr;
  if (plot->plotLayout()->rowCount() > 1)
    element = qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
  if (!element) {
    plot->plotLayout()->insertRow(0);
    element = new QCPTextElement(plot, title, QFont(plot->font().family(), 11, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, element);
  }
  element->setText(title);
}

QString savePlotPng(QCustomPlot* plot, const QString& path, int width, int height) {
  if (!plot->savePng(path, width, height, 1.0))
    return QString("Could not write the image '%1'.").arg(path);
  return {};
}

QString savePlotSvg(QCustomPlot* plot, const QString& path, int width, int height) {
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(QSize(width, height));
  svg.setViewBox(QRect(0, 0, width, height));
  svg.setTitle(plot->objectName());
  QCPPainter painter;
  if (!painter.begin(&svg)) return QString("Could not write the SVG file '%1'.").arg(path);
  plot->toPainter(&painter, width, height);
  painter.end();
  return {};
}

}  // namespace kwb::gui
