#include "timing_page.h"

#include <QLabel>
#include <QSignalBlocker>
#include <algorithm>
#include <cmath>

#include "doc_queries.h"
#include "run_request.h"

namespace kwb::gui {

TimingPage::TimingPage(ResultsModel* model, QWidget* parent) : PlotPage(model, "Timing", parent) {
  controls()->addWidget(new QLabel("Shape:"));
  m_shape = new ShapeCombo(this);
  controls()->addWidget(m_shape);
  controls()->addWidget(new QLabel("Histogram of:"));
  m_kernel = new QComboBox(this);
  m_kernel->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  controls()->addWidget(m_kernel);
  controls()->addStretch(1);
  connect(m_shape, &QComboBox::currentIndexChanged, this, [this] { rebuildNow(); });
  connect(m_kernel, &QComboBox::currentIndexChanged, this, [this] { rebuildNow(); });

  QCustomPlot* p = plot();
  setPlotTitle(p, "Time per launch");
  m_histRect = new QCPAxisRect(p);
  p->plotLayout()->addElement(2, 0, m_histRect);
  p->plotLayout()->setRowStretchFactor(1, 1.4);
  p->plotLayout()->setRowStretchFactor(2, 1);
  m_histRect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  m_histRect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
  makeLogAxis(p->yAxis);
  p->legend->setVisible(false);
  // Clicking a box shows that kernel's histogram.
  connect(p, &QCustomPlot::plottableClick, this,
          [this](QCPAbstractPlottable* pl, int dataIndex, QMouseEvent*) {
            if (pl != m_boxes) return;
            const double key = m_boxes->data()->at(dataIndex)->key;
            m_kernel->setCurrentIndex(int(key) - 1);
          });
}

void TimingPage::selectCase(const QString& kernel, const Shape& shape) {
  m_shape->selectShape(shape);
  rebuildNow();
  const int i = m_kernel->findData(kernel);
  if (i >= 0) m_kernel->setCurrentIndex(i);
}

void TimingPage::rebuild() {
  QCustomPlot* p = plot();
  p->clearPlottables();
  m_boxes = nullptr;
  m_histogram = nullptr;
  const RunDocument& doc = model()->document();
  m_shape->setShapes(shapesOf(doc));
  const auto shape = m_shape->currentShape();
  const KernelCatalog& cat = model()->catalog();
  QList<const CaseResult*> cases;
  if (shape)
    for (const QString& id : kernelsOf(doc, cat))
      if (const CaseResult* c = doc.find(id.toStdString(), *shape); c && c->timed()) cases << c;

  {
    const QSignalBlocker block(m_kernel);
    const QString previous = m_kernel->currentData().toString();
    m_kernel->clear();
    for (const CaseResult* c : cases) {
      const QString id = QString::fromStdString(c->kernel);
      m_kernel->addItem(id, id);
    }
    const int i = m_kernel->findData(previous);
    m_kernel->setCurrentIndex(i >= 0 ? i : (cases.isEmpty() ? -1 : 0));
  }
  setPlotTitle(p, shape ? "Time per launch at " + QString::fromStdString(toString(*shape))
                        : QString("Time per launch (no results)"));
  p->xAxis->setLabel("kernel");
  p->yAxis->setLabel("ms per launch");

  m_boxes = new QCPStatisticalBox(p->xAxis, p->yAxis);
  m_boxes->setName("samples");
  m_boxes->setWidth(0.5);
  m_boxes->setBrush(QColor(0x4a, 0x90, 0xd9, 120));
  m_boxes->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  double yMin = 1e300, yMax = 0;
  for (int i = 0; i < cases.size(); ++i) {
    const CaseResult& c = *cases[i];
    const auto& s = c.summary;
    const double x = i + 1;
    m_boxes->addData(x, s.p5, s.p25, s.median, s.p75, s.p95, QVector<double>{s.min, s.max});
    ticker->addTick(x, shortLabel(cat.info(QString::fromStdString(c.kernel))));
    yMin = std::min(yMin, s.min), yMax = std::max(yMax, s.max);
    tooltips()->add(
        p->xAxis, p->yAxis, x, s.median,
        QString("%1 at %2\nmedian %3 ms (95%% CI %4–%5)\nmin %6 · p25 %7 · p75 %8 · "
                "max %9 ms\n%10 samples · CV %11%")
            .arg(QString::fromStdString(c.kernel), shapeText(c.shape), formatNumber(s.median, 5),
                 formatNumber(s.ci95.low, 5), formatNumber(s.ci95.high, 5), formatNumber(s.min, 5),
                 formatNumber(s.p25, 5), formatNumber(s.p75, 5), formatNumber(s.max, 5))
            .arg(c.samplesMs.size())
            .arg(s.cv * 100, 0, 'f', 2));
  }
  p->xAxis->setTicker(ticker);
  p->xAxis->setRange(0.4, double(cases.size()) + 0.6);
  if (yMax > 0) p->yAxis->setRange(yMin / 1.5, yMax * 1.5);

  // Histogram of the chosen case's samples.
  QCPAxis* hx = m_histRect->axis(QCPAxis::atBottom);
  QCPAxis* hy = m_histRect->axis(QCPAxis::atLeft);
  hx->setLabel("ms per launch");
  hy->setLabel("samples");
  const QString chosen = m_kernel->currentData().toString();
  const auto it = std::find_if(cases.begin(), cases.end(), [&](const CaseResult* c) {
    return QString::fromStdString(c->kernel) == chosen;
  });
  m_histogram = new QCPBars(hx, hy);
  m_histogram->setPen(QPen(QColor(0x1f, 0x4e, 0x89)));
  m_histogram->setBrush(QColor(0x4a, 0x90, 0xd9));
  if (it != cases.end()) {
    const CaseResult& c = **it;
    m_histogram->setName(QString("%1 samples").arg(chosen));
    const auto [lo, hi] = std::minmax_element(c.samplesMs.begin(), c.samplesMs.end());
    const int bins = std::clamp(int(std::sqrt(double(c.samplesMs.size())) * 2), 8, 40);
    const double width = (*hi - *lo) > 0 ? (*hi - *lo) / bins : std::max(*lo * 0.01, 1e-6);
    QVector<double> counts(bins, 0);
    for (double v : c.samplesMs) counts[std::min(bins - 1, int((v - *lo) / width))] += 1;
    double maxCount = 0;
    for (int b = 0; b < bins; ++b) {
      const double center = *lo + (b + 0.5) * width;
      m_histogram->addData(center, counts[b]);
      maxCount = std::max(maxCount, counts[b]);
      tooltips()->add(
          hx, hy, center, counts[b],
          QString("%1 samples in [%2, %3) ms")
              .arg(counts[b])
              .arg(formatNumber(*lo + b * width, 5), formatNumber(*lo + (b + 1) * width, 5)));
    }
    m_histogram->setWidth(width * 0.95);
    hx->setRange(*lo - width, *hi + width);
    hy->setRange(0, maxCount * 1.15);
    hx->setLabel(QString("ms per launch — %1 at %2 (%3 samples)")
                     .arg(chosen, shapeText(c.shape))
                     .arg(c.samplesMs.size()));
  }
}

}  // namespace kwb::gui
