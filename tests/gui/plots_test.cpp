// SPDX-License-Identifier: Apache-2.0
// What a kernel engineer reads off the plots: every kernel's timing distribution, FP32
// fallbacks told apart, CIs on every point, readable axes, and opening time linear in the
// number of shapes.
#include "plots_fixture.h"

using namespace kwb;
using namespace kwb::gui;
using namespace kwb::gui::test;

// 2,000 shapes took about 25 s when the grid's header re-measured itself after every item
// (and each cell searched the document): the bound is ten times what a linear build needs.
TEST_F(Plots, TwoThousandShapesOpenInSecondsAndTheGridIsMeasuredOnce) {
  const RunDocument big = manyShapes(doc, 2000);
  QElapsedTimer clock;
  clock.start();
  open(big);
  QApplication::processEvents();
  const qint64 ms = clock.elapsed();
  QTableWidget* t = w->correctnessPage()->table();
  ASSERT_EQ(t->columnCount(), 2000);
  ASSERT_EQ(t->rowCount(), 3);
  EXPECT_NE(t->horizontalHeader()->sectionResizeMode(0), QHeaderView::ResizeToContents);
  EXPECT_NE(t->verticalHeader()->sectionResizeMode(0), QHeaderView::ResizeToContents);
  // Still sized to the contents, once: a cell's two lines fit.
  const QFontMetrics fm(t->font());
  EXPECT_GE(t->columnWidth(0), fm.horizontalAdvance(t->item(0, 0)->text().section('\n', 1)));
  EXPECT_GE(t->rowHeight(0), 2 * fm.height());
  EXPECT_LT(ms, 10000) << "opening 2,000 shapes took " << ms << " ms";
}

TEST_F(Plots, TimingAxesHaveSeveralLabelledTicksAndBoxesAreBoxes) {
  TimingPage* t = w->timingPage();
  w->tabs()->setCurrentWidget(t);
  for (const CaseSize& size : sizesOf(doc)) {
    const Shape s = shapeOf(size);
    t->shapeCombo()->selectShape(s);
    for (auto scale : {TimingPage::Scale::kRelative, TimingPage::Scale::kMilliseconds}) {
      t->setScale(scale);
      t->rebuildNow();
      EXPECT_GE(visibleTicks(t->plot()->yAxis).size(), 3) << toString(s);
      EXPECT_GE(visibleTicks(t->orderRect()->axis(QCPAxis::atLeft)).size(), 3);
    }
    // Relative to each median, a box is as tall as its p25–p75 spread on a linear axis that
    // holds every kernel's p5–p95: a kernel whose quartiles span a twentieth of the axis or
    // more is a box, never a line. (GPU-time samples are tight: at CV 0.1% a box can be a line
    // beside a kernel with outliers, and that is the truth.)
    t->setScale(TimingPage::Scale::kRelative);
    t->rebuildNow();
    t->plot()->replot();
    for (QCPStatisticalBox* b : t->boxes()) {
      const auto d = b->data()->at(0);
      QCPAxis* y = b->valueAxis();
      EXPECT_EQ(y->scaleType(), QCPAxis::stLinear);
      EXPECT_LE(y->range().lower, d->minimum + 1e-9) << toString(s);  // the p5 whisker fits
      EXPECT_GE(y->range().upper, d->maximum - 1e-9) << toString(s);  // and the p95 one
      const double px =
          std::abs(y->coordToPixel(d->upperQuartile) - y->coordToPixel(d->lowerQuartile));
      const double axisPx =
          std::abs(y->coordToPixel(y->range().upper) - y->coordToPixel(y->range().lower));
      if ((d->upperQuartile - d->lowerQuartile) >= y->range().size() / 20) {
        EXPECT_GE(px, std::min(6.0, axisPx / 20 - 1)) << toString(s);
      }
    }
    // One violin per kernel at this shape, on the boxes' shared axis.
    EXPECT_EQ(t->violins().size(), t->boxes().size());
  }
  // The key says what the whiskers and dots are.
  for (const char* s : {"p25", "median", "p5", "p95", "min", "max"})
    EXPECT_TRUE(t->key()->text().contains(s)) << s;
}

TEST_F(Plots, FallbacksAreHatchedLabelledAndLeftOutOfTensorCoreLines) {
  ProgressionPage* p = w->progressionPage();
  p->shapeCombo()->selectShape(kOdd);
  p->rebuildNow();
  int fallbacks = 0;
  for (const auto& c : doc.cases) fallbacks += c.shape() == kOdd && isFallback(c);
  ASSERT_GE(fallbacks, 1) << "the bundled run falls back at 511x513x1025";
  EXPECT_EQ(p->fallbackBars()->data()->size(), fallbacks);
  EXPECT_EQ(p->fallbackBars()->brush().style(), Qt::BDiagPattern);
  int labelled = 0;
  for (QCPItemText* t : texts(p->plot())) {
    const QString text = t->text().replace('\n', ' ');
    if (!text.contains("FP32 fallback")) continue;
    ++labelled;
    EXPECT_FALSE(text.contains("FP16")) << text.toStdString();
    EXPECT_TRUE(text.contains("of cuBLAS SGEMM")) << text.toStdString();
  }
  EXPECT_EQ(labelled, fallbacks);
  // Scaling: the tensor-core stages' lines hold no fallback point.
  for (const auto& c : doc.cases) {
    if (!isFallback(c)) continue;
    QCPGraph* line = w->scalingPage()->lineOf(QString::fromStdString(c.kernel));
    ASSERT_NE(line, nullptr) << c.kernel;
    for (auto it = line->data()->constBegin(); it != line->data()->constEnd(); ++it)
      EXPECT_NE(it->key, scalingValue(c.size)) << c.kernel;
  }
  // The summary's % of the FP16 reference ignores them too.
  const auto pct = refPercent(doc, *doc.find("sgemm.tensor_core", kOdd));
  ASSERT_TRUE(pct.has_value());
  EXPECT_EQ(pct->reference, "cuBLAS SGEMM");
}

TEST_F(Plots, EveryBarAndPointCarriesItsMediansCi) {
  ProgressionPage* p = w->progressionPage();
  for (const CaseSize& s : sizesOf(doc)) {
    p->shapeCombo()->selectShape(s);
    p->rebuildNow();
    ASSERT_EQ(p->errorBars()->dataCount(), p->bars()->data()->size());
    for (int i = 0; i < p->errorBars()->dataCount(); ++i) {
      const auto e = p->errorBars()->data()->at(i);
      EXPECT_GE(e.errorMinus, 0);
      EXPECT_GE(e.errorPlus, 0);
      EXPECT_GT(e.errorMinus + e.errorPlus, 0) << sizeLabel(s);
    }
  }
  // Scaling and Roofline: an error bar per point, and the right one (its CI holds the point
  // whose key it has).
  int timed = 0;
  for (const auto& c : doc.cases) timed += hasSpeed(doc, c);
  for (QCustomPlot* plot : {w->scalingPage()->plot(), w->rooflinePage()->plot()}) {
    int bars = 0;
    for (int i = 0; i < plot->plottableCount(); ++i) {
      auto* e = qobject_cast<QCPErrorBars*>(plot->plottable(i));
      if (!e) continue;
      bars += e->dataCount();
      auto* g = qobject_cast<QCPGraph*>(e->dataPlottable());
      ASSERT_NE(g, nullptr);
      ASSERT_EQ(g->dataCount(), e->dataCount());
      for (int k = 0; k < g->dataCount(); ++k) {
        const double y = g->data()->at(k)->value, key = g->data()->at(k)->key;
        const CaseResult* match = nullptr;
        for (const auto& c : doc.cases)
          if (hasSpeed(doc, c) && c.gflops == y) match = &c;
        ASSERT_NE(match, nullptr) << plot->objectName().toStdString() << " at " << key;
        const Range ci = gflopsCi(doc, *match);
        EXPECT_NEAR(e->data()->at(k).errorMinus, y - ci.low, 1e-6 * y);
        EXPECT_NEAR(e->data()->at(k).errorPlus, ci.high - y, 1e-6 * y);
      }
    }
    EXPECT_EQ(bars, timed) << plot->objectName().toStdString();
  }
}

TEST_F(Plots, ScalingTicksAreTheSizesRunAndLinesJoinCubicShapesOnly) {
  ScalingPage* s = w->scalingPage();
  QStringList sizes;
  for (const CaseSize& size : sizesOf(doc))
    if (const Shape sh = shapeOf(size); sh.m == sh.n && sh.n == sh.k)
      sizes << QString::number(sh.m);
  QStringList ticks = visibleTicks(s->plot()->xAxis);
  ticks.sort();
  sizes.sort();
  EXPECT_EQ(ticks, sizes);
  for (const QString& id : kernelsOf(doc, w->model()->catalog())) {
    QCPGraph* line = s->lineOf(id);
    ASSERT_NE(line, nullptr);
    for (auto it = line->data()->constBegin(); it != line->data()->constEnd(); ++it)
      EXPECT_TRUE(sizes.contains(QString::number(std::lround(it->key))))
          << id.toStdString() << " joins size " << it->key;
  }
}

TEST_F(Plots, RooflineRoofsAreGreyInGflopsWithATf32RoofAndAMarkerPerShape) {
  RooflinePage* r = w->rooflinePage();
  ASSERT_NE(r->memorySlope(), nullptr);
  QSet<int> markers;
  for (int i = 0; i < r->plot()->graphCount(); ++i) {
    QCPGraph* g = r->plot()->graph(i);
    if (g->name().contains(" peak ")) {
      // In the axis' unit: TFLOP/s once the axis reaches 10,000 GFLOP/s, as it does here.
      EXPECT_TRUE(r->plot()->yAxis->label().startsWith("TFLOP/s"))
          << r->plot()->yAxis->label().toStdString();
      EXPECT_TRUE(g->name().contains("TFLOP/s")) << g->name().toStdString();
      EXPECT_NE(g->pen().style(), r->memorySlope()->pen().style());
      EXPECT_EQ(g->pen().color().hsvSaturation(), 0) << "roofs are grey, not a kernel colour";
    }
    if (g->property("series").toString() == "sgemm.naive" && !g->data()->isEmpty())
      markers << int(g->scatterStyle().shape());
  }
  EXPECT_EQ(r->roofCount(), 3);
  EXPECT_GT(markers.size(), 1) << "every shape of a kernel drew the same marker";
}
