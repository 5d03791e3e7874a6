// SPDX-License-Identifier: Apache-2.0
// The plots read at a glance: distributions side by side on one axis with the samples in the
// order taken, the baseline beside this run, fallbacks marked, no legend over the data.
#include "kwb/case_size.h"
#include "model/case_size.h"
#include "pages/baseline_page.h"
#include "plots_fixture.h"

using namespace kwb;
using namespace kwb::gui;
using namespace kwb::gui::test;

namespace {

// The document with every sample and median `factor` times as long (a slower baseline).
RunDocument scaledTimes(RunDocument d, double factor) {
  for (auto& c : d.cases) {
    for (double& v : c.samplesMs) v *= factor;
    for (double* v :
         {&c.summary.median, &c.summary.min, &c.summary.max, &c.summary.p5, &c.summary.p25,
          &c.summary.p75, &c.summary.p95, &c.summary.ci95.low, &c.summary.ci95.high})
      *v *= factor;
    c.gflops /= factor;
  }
  return d;
}

double minKey(const QCPCurve* c) {
  double v = 1e300;
  for (auto it = c->data()->constBegin(); it != c->data()->constEnd(); ++it)
    v = std::min(v, it->key);
  return v;
}
double maxKey(const QCPCurve* c) {
  double v = -1e300;
  for (auto it = c->data()->constBegin(); it != c->data()->constEnd(); ++it)
    v = std::max(v, it->key);
  return v;
}

}  // namespace

TEST_F(Plots, TimingDrawsTheBaselinesSamplesAsTheLeftHalfOfEachViolin) {
  TimingPage* t = w->timingPage();
  EXPECT_TRUE(t->baselineViolins().isEmpty());
  for (const QCPCurve* v : t->violins()) EXPECT_LT(minKey(v), std::round(maxKey(v)) - 0.1);
  w->model()->setBaselineDocument(scaledTimes(doc, 1.08), "slower.json");
  w->rebuildAllNow();
  ASSERT_EQ(t->baselineViolins().size(), t->violins().size());
  for (int i = 0; i < t->violins().size(); ++i) {
    const double column = i + 1;
    EXPECT_LE(maxKey(t->baselineViolins()[i]), column + 1e-9);  // left of the column's centre
    EXPECT_LT(minKey(t->baselineViolins()[i]), column - 0.1);
    EXPECT_GE(minKey(t->violins()[i]), column - 1e-9);  // this run on the right
  }
  // On this run's relative scale the 8% slower baseline sits about +8%.
  t->setScale(TimingPage::Scale::kRelative);
  QCPCurve* base = t->baselineViolins().front();
  double lo = 1e300, hi = -1e300;
  for (auto it = base->data()->constBegin(); it != base->data()->constEnd(); ++it)
    lo = std::min(lo, it->value), hi = std::max(hi, it->value);
  EXPECT_LT(lo, 8.5);
  EXPECT_GT(hi, 7.5);
  EXPECT_TRUE(t->key()->text().contains("baseline"));
}

TEST_F(Plots, TimingMarksFallbackCasesAndHasNoLegendOverTheData) {
  TimingPage* t = w->timingPage();
  w->tabs()->setCurrentWidget(t);
  t->shapeCombo()->selectShape(kOdd);
  t->rebuildNow();
  int fallbacks = 0, hatched = 0;
  for (const QCPCurve* v : t->violins()) {
    const QString id = v->property("series").toString();
    const CaseResult* c = doc.find(id.toStdString(), kOdd);
    ASSERT_NE(c, nullptr);
    fallbacks += isFallback(*c);
    hatched += v->brush().style() == Qt::BDiagPattern;
  }
  ASSERT_GE(fallbacks, 1) << "the bundled run falls back at 511x513x1025";
  EXPECT_EQ(hatched, fallbacks);
  int named = 0;
  for (const QString& l : visibleTicks(t->plot()->xAxis)) named += l.contains("FP32 fallback");
  EXPECT_EQ(named, fallbacks);
  EXPECT_TRUE(t->key()->text().contains("FP32 fallback"));
  for (QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
    w->resize(size);
    QApplication::processEvents();
    t->rebuildNow();
    EXPECT_FALSE(t->plot()->legend->visible());
    // The key's two lines fit the plot's width.
    const QFontMetrics fm(t->key()->font());
    for (const QString& line : t->key()->text().split('\n'))
      EXPECT_LE(fm.horizontalAdvance(line), t->plot()->width()) << line.toStdString();
  }
}

// A radix sort moves its keys at a tenth of the copy roof: with the roof on the linear axis the
// stages were slivers at the bottom. The roof stays in the legend, marked off scale.
TEST_F(Plots, ProgressionOfASortKeepsTheStagesReadableUnderAFarCopyRoof) {
  load(bundled("sort-benchmark-h100.json"));
  ProgressionPage* p = w->progressionPage();
  p->rebuildNow();
  ASSERT_NE(p->bars(), nullptr);
  ASSERT_FALSE(p->bars()->data()->isEmpty());
  const double copy = doc.device->copyBandwidthGBs;
  ASSERT_GT(copy, 0);
  double tallest = 0;
  for (auto it = p->bars()->data()->constBegin(); it != p->bars()->data()->constEnd(); ++it)
    tallest = std::max(tallest, it->value);
  EXPECT_LT(p->plot()->yAxis->range().upper, copy);
  EXPECT_GE(tallest, 0.5 * p->plot()->yAxis->range().upper) << "the fastest stage is half the plot";
  bool offScale = false;
  for (int i = 0; i < p->plot()->graphCount(); ++i)
    offScale |= p->plot()->graph(i)->name().contains("copy") &&
                p->plot()->graph(i)->name().contains("off scale");
  EXPECT_TRUE(offScale);
  EXPECT_TRUE(p->logScale()->text().contains("GB/s"));
  EXPECT_FALSE(p->plot()->yAxis->label().contains("GFLOP"));
}

// With a baseline: its bars carry their medians' CIs too, and the Baseline tab plots the
// speedup of each kernel against size with the change's interval.
TEST_F(Plots, BaselineBarsHaveCiWhiskersAndTheBaselineTabPlotsSpeedupAgainstSize) {
  w->model()->setBaselineDocument(scaledTimes(doc, 1.25), "slower.json");
  w->rebuildAllNow();
  ProgressionPage* p = w->progressionPage();
  p->rebuildNow();
  ASSERT_NE(p->baselineBars(), nullptr);
  ASSERT_NE(p->baselineErrorBars(), nullptr);
  EXPECT_EQ(p->baselineErrorBars()->dataCount(), p->baselineBars()->dataCount());
  EXPECT_GT(p->baselineErrorBars()->dataCount(), 0);
  BaselinePage* b = w->baselinePage();
  b->rebuildNow();
  SpeedupPlot* s = b->speedupPlot();
  const QString first = kernelsOf(doc, w->model()->catalog()).front();
  QCPGraph* line = s->lineOf(first);
  ASSERT_NE(line, nullptr);
  int timed = 0;
  for (const auto& c : doc.cases) timed += c.kernel == first.toStdString() && hasSpeed(doc, c);
  EXPECT_EQ(line->data()->size(), timed);
  // The baseline took 1.25× as long: this run is 1.25× faster at every size.
  for (auto it = line->data()->constBegin(); it != line->data()->constEnd(); ++it)
    EXPECT_NEAR(it->value, 1.25, 0.01);
  EXPECT_FALSE(s->xAxis->ticker().isNull());
  EXPECT_FALSE(visibleTicks(s->xAxis).isEmpty());
}

namespace {

// The bundled run's 1024³ cases copied to every shape M×N×1024 of `ms` × `ns`, each case's
// GFLOP/s scaled by M·N so the cells differ.
RunDocument gridOf(const RunDocument& doc, const std::vector<std::int64_t>& ms,
                   const std::vector<std::int64_t>& ns) {
  RunDocument out = doc;
  out.cases.clear();
  out.progression = {};
  for (const auto& c : doc.cases)
    if (c.shape() == Shape{1024, 1024, 1024})
      for (const std::int64_t m : ms)
        for (const std::int64_t n : ns) {
          CaseResult copy = c;
          copy.size = gemmSize(Shape{m, n, 1024});
          copy.gflops = c.gflops * double(m * n) / (1024.0 * 1024.0);
          copy.figures.erase("gflops");
          out.cases.push_back(copy);
        }
  return out;
}

}  // namespace

// Shapes that are not cubes were diamonds at an x no tick named: each is named over the plot
// at its ∛(M·N·K), clear of the cubic sizes' ticks.
TEST_F(Plots, ScalingNamesTheShapesThatAreNotCubesOverThePlot) {
  ScalingPage* s = w->scalingPage();
  ASSERT_EQ(s->view(), ScalingPage::View::kSize);
  QStringList named;
  for (QCPItemText* t : texts(s->plot()))
    if (t->property("role").toString() == "shape") named << t->text();
  int notCubes = 0;
  for (const CaseSize& size : sizesOf(doc)) {
    const Shape sh = shapeOf(size);
    if (sh.m == sh.n && sh.n == sh.k) continue;
    ++notCubes;
    EXPECT_TRUE(named.contains(sizeName(size, false)))
        << toString(sh) << " not in " << named.join(',').toStdString();
  }
  EXPECT_EQ(named.size(), notCubes);
  EXPECT_GE(notCubes, 2) << "the bundled run has 256x384x640 and 511x513x1025";
}

// A sweep along M at N = K = 1024: M on x, a line per kernel.
TEST_F(Plots, ScalingDrawsASweepAlongMWithMOnX) {
  open(gridOf(doc, {256, 512, 1024, 2048}, {1024}));
  ScalingPage* s = w->scalingPage();
  EXPECT_EQ(s->view(), ScalingPage::View::kM);
  const QString first = kernelsOf(doc, w->model()->catalog()).front();
  QCPGraph* line = s->lineOf(first);
  ASSERT_NE(line, nullptr);
  ASSERT_EQ(line->data()->size(), 4);
  EXPECT_DOUBLE_EQ(line->data()->at(0)->key, 256);
  EXPECT_DOUBLE_EQ(line->data()->at(3)->key, 2048);
  EXPECT_TRUE(s->plot()->xAxis->label().startsWith("M")) << s->plot()->xAxis->label().toStdString();
  EXPECT_TRUE(visibleTicks(s->plot()->xAxis).contains("2048"));
  // Back to the cube root: the sweep's shapes are points at their ∛(M·N·K).
  s->setView(ScalingPage::View::kSize);
  EXPECT_EQ(s->view(), ScalingPage::View::kSize);
}

// Ten sweeps along M per kernel (N = 64 … 640 at K = 1024): the six with the most sizes are
// drawn and the rest counted in the axis label. A 48k-case document of a thousand sweeps a kernel
// took 42 s to open, every line a legend re-layout.
TEST_F(Plots, ScalingDrawsAtMostSixSweepsAKernelAndCountsTheRest) {
  std::vector<std::int64_t> ns;
  for (std::int64_t n = 64; n <= 640; n += 64) ns.push_back(n);
  open(gridOf(doc, {256, 512, 1024}, ns));
  ScalingPage* s = w->scalingPage();
  s->setView(ScalingPage::View::kM);
  ASSERT_EQ(s->view(), ScalingPage::View::kM);
  const QString first = kernelsOf(doc, w->model()->catalog()).front();
  int lines = 0;
  for (int i = 0; i < s->plot()->graphCount(); ++i) {
    const QCPGraph* g = s->plot()->graph(i);
    const QString role = g->property("role").toString();
    if (g->property("series").toString() == first && (role == "line" || role == "sweep")) ++lines;
  }
  EXPECT_EQ(lines, 6);
  EXPECT_TRUE(s->plot()->xAxis->label().contains("more sweeps not drawn"))
      << s->plot()->xAxis->label().toStdString();
}

// A 2-D sweep of M × N at one K: a heat map of one kernel's GFLOP/s, a cell per shape.
TEST_F(Plots, ScalingDrawsAnMByNSweepAsAHeatMap) {
  open(gridOf(doc, {512, 1024, 2048}, {256, 1024}));
  ScalingPage* s = w->scalingPage();
  ASSERT_EQ(s->view(), ScalingPage::View::kHeatMap);
  ASSERT_NE(s->heatMap(), nullptr);
  EXPECT_EQ(s->heatMap()->data()->keySize(), 3);
  EXPECT_EQ(s->heatMap()->data()->valueSize(), 2);
  const QString id = s->kernelCombo()->currentData().toString();
  const CaseResult* c =
      w->model()->document().find(id.toStdString(), gemmSize(Shape{2048, 256, 1024}));
  ASSERT_NE(c, nullptr);
  EXPECT_NEAR(s->heatMap()->data()->cell(2, 0), c->gflops, 1e-9);
  EXPECT_TRUE(visibleTicks(s->plot()->xAxis).contains("2048"));
  EXPECT_TRUE(visibleTicks(s->plot()->yAxis).contains("256"));
  // Another view takes the heat map away again.
  s->setView(ScalingPage::View::kM);
  EXPECT_EQ(s->heatMap(), nullptr);
  EXPECT_NE(s->lineOf(id), nullptr);
}

// The new plots' axes read plain numbers too: never "1e+06" beside "500000".
TEST_F(Plots, TheNewPlotsTickInPlainNumbers) {
  auto plain = [](QCPAxis* axis, const std::string& where) {
    for (const QString& l : visibleTicks(axis))
      EXPECT_FALSE(l.contains("e+") || l.contains("e-")) << where << ": " << l.toStdString();
  };
  w->model()->setBaselineDocument(scaledTimes(doc, 1.1), "slower.json");
  w->rebuildAllNow();
  TimingPage* t = w->timingPage();
  for (auto scale : {TimingPage::Scale::kRelative, TimingPage::Scale::kMilliseconds}) {
    t->setScale(scale);
    plain(t->plot()->yAxis, "timing");
    plain(t->orderRect()->axis(QCPAxis::atLeft), "order strip");
  }
  w->baselinePage()->rebuildNow();
  plain(w->baselinePage()->speedupPlot()->yAxis, "speedup");
  open(gridOf(doc, {512, 1024, 2048}, {256, 1024}));
  plain(w->scalingPage()->plot()->xAxis, "heat map M");
  plain(w->scalingPage()->plot()->yAxis, "heat map N");
  open(gridOf(doc, {256, 512, 1024, 2048, 4096, 8192}, {1024}));
  plain(w->scalingPage()->plot()->xAxis, "sweep M");
  plain(w->scalingPage()->plot()->yAxis, "sweep rate");
  load(bundled("reduce-benchmark-h100.json"));
  ASSERT_TRUE(w->rooflinePage()->bandwidthView());
  plain(w->rooflinePage()->plot()->xAxis, "memory roofline bytes");
  plain(w->rooflinePage()->plot()->yAxis, "memory roofline GB/s");
}

// "17% of cuBLAS SGEMM" was struck through by the cuBLAS SGEMM line, "91%" by the FP16 one:
// every bar label and violation mark is clear of the reference and roof lines, at 1280×720 and
// 1920×1080, at every shape.
TEST_F(Plots, ProgressionLabelsAreClearOfTheReferenceLines) {
  load(bundled("h200/spec-benchmark-h200.json"));
  ProgressionPage* p = w->progressionPage();
  w->tabs()->setCurrentWidget(p);
  int checked = 0;
  for (QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
    w->resize(size);
    QApplication::processEvents();
    for (const CaseSize& shape : sizesOf(doc)) {
      p->shapeCombo()->selectShape(shape);
      p->rebuildNow();
      p->plot()->replot();
      QList<double> rows;
      for (int i = 0; i < p->plot()->graphCount(); ++i) {
        const QCPGraph* g = p->plot()->graph(i);
        if (g->dataCount() == 2 && g->data()->at(0)->value == g->data()->at(1)->value &&
            p->plot()->yAxis->range().contains(g->data()->at(0)->value))
          rows << p->plot()->yAxis->coordToPixel(g->data()->at(0)->value);
      }
      for (QCPItemText* t : texts(p->plot())) {
        if (t->text().isEmpty() || t->objectName() == "emptyNote") continue;
        const double top = t->topLeft->pixelPosition().y() + 1;
        const double bottom = t->bottomRight->pixelPosition().y() - 1;
        for (const double row : rows) {
          EXPECT_FALSE(row > top && row < bottom)
              << sizeName(shape).toStdString() << " at " << size.width() << ": '"
              << t->text().replace('\n', ' ').toStdString() << "' crossed at " << row;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 50);
}

// A memory-bound family's Progression says GB/s everywhere: title, axis, legend, labels and the
// log-scale box, never GFLOP/s.
TEST_F(Plots, ProgressionOfAMemoryBoundFamilySaysGbpsNotGflops) {
  load(bundled("reduce-benchmark-h100.json"));
  ProgressionPage* p = w->progressionPage();
  p->rebuildNow();
  QStringList said{p->logScale()->text(), p->plot()->yAxis->label()};
  for (int r = 0; r < p->plot()->plotLayout()->rowCount(); ++r)
    if (auto* e = qobject_cast<QCPTextElement*>(p->plot()->plotLayout()->element(r, 0)))
      said << e->text();
  for (int i = 0; i < p->plot()->plottableCount(); ++i) said << p->plot()->plottable(i)->name();
  for (QCPItemText* t : texts(p->plot())) said << t->text();
  ASSERT_TRUE(said.join(' ').contains("GB/s"));
  for (const QString& s : said) EXPECT_FALSE(s.contains("FLOP")) << s.toStdString();
}

// A baseline from another GPU model: the speedup plot says so in its title.
TEST_F(Plots, TheSpeedupPlotOfACrossDeviceBaselineSaysSo) {
  RunDocument other = scaledTimes(doc, 1.0);
  other.device->name = "NVIDIA A100-SXM4-80GB";
  w->model()->setBaselineDocument(other, "a100.json");
  w->rebuildAllNow();
  w->baselinePage()->rebuildNow();
  auto* title =
      qobject_cast<QCPTextElement*>(w->baselinePage()->speedupPlot()->plotLayout()->element(0, 0));
  ASSERT_NE(title, nullptr);
  EXPECT_TRUE(title->text().contains("CROSS-DEVICE")) << title->text().toStdString();
  w->model()->setBaselineDocument(scaledTimes(doc, 1.0), "same.json");
  w->baselinePage()->rebuildNow();
  EXPECT_FALSE(title->text().contains("CROSS-DEVICE")) << title->text().toStdString();
}
