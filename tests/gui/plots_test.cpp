// What a kernel engineer reads off the plots: every kernel's timing distribution, FP32
// fallbacks told apart, CIs on every point, readable axes, legends that toggle, and opening
// time linear in the number of shapes.
#include <gtest/gtest.h>

#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QMessageBox>
#include <QMouseEvent>
#include <QProcess>
#include <QTemporaryDir>

#include "app/main_window.h"
#include "gui_test_support.h"
#include "model/doc_queries.h"
#include "pages/correctness_page.h"
#include "pages/progression_page.h"
#include "pages/roofline_page.h"
#include "pages/scaling_page.h"
#include "pages/timing_page.h"
#include "pages/tuning_page.h"
#include "panels/kernel_list_widget.h"
#include "report/report_painter.h"
#include "report/report_writer.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

struct Plots : ::testing::Test {
  void SetUp() override { load(test::sampleRun()); }
  void load(const QString& path) {
    doc = readDocument(path.toStdString());
    WindowOptions o;
    o.probeEngine = false;
    o.persistSettings = false;
    w = std::make_unique<MainWindow>(o);
    ASSERT_EQ(w->openResults(path), "");
    w->resize(1500, 950);
    w->show();
    QApplication::processEvents();
    w->rebuildAllNow();
  }
  void open(const RunDocument& d) {
    doc = d;
    w->model()->setDocument(d, "test.json");
    w->rebuildAllNow();
  }
  RunDocument doc;
  std::unique_ptr<MainWindow> w;
};

const Shape kOdd{511, 513, 1025};  // the tensor-core stages fall back to FP32 here

// Labels of the ticks inside an axis' range after a replot.
QStringList visibleTicks(QCPAxis* axis) {
  axis->parentPlot()->replot();
  QStringList out;
  const QVector<double> ticks = axis->tickVector();
  const QVector<QString> labels = axis->tickVectorLabels();
  for (int i = 0; i < ticks.size() && i < labels.size(); ++i)
    if (axis->range().contains(ticks[i]) && !labels[i].isEmpty()) out << labels[i];
  return out;
}

QList<QCPItemText*> texts(QCustomPlot* plot) {
  QList<QCPItemText*> out;
  for (int i = 0; i < plot->itemCount(); ++i)
    if (auto* t = qobject_cast<QCPItemText*>(plot->item(i))) out << t;
  return out;
}

void click(QWidget* widget, QPointF at) {
  QMouseEvent press(QEvent::MouseButtonPress, at, widget->mapToGlobal(at), Qt::LeftButton,
                    Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(widget, &press);
  QMouseEvent release(QEvent::MouseButtonRelease, at, widget->mapToGlobal(at), Qt::LeftButton,
                      Qt::NoButton, Qt::NoModifier);
  QApplication::sendEvent(widget, &release);
}

// A document of `shapes` distinct shapes, three kernels each, from the bundled run's cases.
RunDocument manyShapes(const RunDocument& sample, int shapes) {
  RunDocument d = sample;
  d.cases.clear();
  d.progression = {};
  std::vector<CaseResult> templates;
  for (const char* id : {"cublas.sgemm", "sgemm.tiled", "sgemm.tensor_core"})
    for (const auto& c : sample.cases)
      if (c.kernel == id) {
        templates.push_back(c);
        templates.back().samplesMs.resize(20);
        if (templates.back().verification) {
          templates.back().verification->compare.grid = {};
          templates.back().verification->alphaBeta.reset();
        }
        break;
      }
  for (int i = 0; i < shapes; ++i)
    for (CaseResult c : templates) {
      c.shape = {256 + i, 384 + (i * 7) % 512, 640 + (i * 13) % 1024};
      d.cases.push_back(c);
    }
  return d;
}

}  // namespace

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
  for (const Shape& s : shapesOf(doc)) {
    t->shapeCombo()->selectShape(s);
    for (auto scale : {TimingPage::Scale::kRelative, TimingPage::Scale::kMilliseconds}) {
      t->setScale(scale);
      t->rebuildNow();
      EXPECT_GE(visibleTicks(t->plot()->yAxis).size(), 3) << toString(s);
      EXPECT_GE(visibleTicks(t->histogramRect()->axis(QCPAxis::atBottom)).size(), 3);
      // The histograms' y axis: percent of samples in round steps, not 2.5 / 7.5 / 12.5.
      for (const QString& l : visibleTicks(t->histogramRect()->axis(QCPAxis::atLeft)))
        EXPECT_FALSE(l.contains('.')) << l.toStdString();
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
    // One histogram per kernel at this shape, compared in one plot.
    EXPECT_EQ(t->histograms().size(), t->boxes().size());
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
  for (const auto& c : doc.cases) fallbacks += c.shape == kOdd && isFallback(c);
  ASSERT_GE(fallbacks, 1) << "the bundled run falls back at 511x513x1025";
  EXPECT_EQ(p->fallbackBars()->data()->size(), fallbacks);
  EXPECT_EQ(p->fallbackBars()->brush().style(), Qt::BDiagPattern);
  int labelled = 0;
  for (QCPItemText* t : texts(p->plot())) {
    const QString text = t->text().replace('\n', ' ');
    if (!text.contains("FP32 fallback")) continue;
    ++labelled;
    EXPECT_FALSE(text.contains("FP16")) << text.toStdString();
    EXPECT_TRUE(text.contains("of FP32")) << text.toStdString();
  }
  EXPECT_EQ(labelled, fallbacks);
  // Scaling: the tensor-core stages' lines hold no fallback point.
  for (const auto& c : doc.cases) {
    if (!isFallback(c)) continue;
    QCPGraph* line = w->scalingPage()->lineOf(QString::fromStdString(c.kernel));
    ASSERT_NE(line, nullptr) << c.kernel;
    for (auto it = line->data()->constBegin(); it != line->data()->constEnd(); ++it)
      EXPECT_NE(it->key, sizeOf(c.shape)) << c.kernel;
  }
  // The summary's % of the FP16 reference ignores them too.
  const auto pct = refPercent(*doc.find("sgemm.tensor_core", kOdd));
  ASSERT_TRUE(pct.has_value());
  EXPECT_EQ(pct->reference, "FP32");
}

TEST_F(Plots, EveryBarAndPointCarriesItsMediansCi) {
  ProgressionPage* p = w->progressionPage();
  for (const Shape& s : shapesOf(doc)) {
    p->shapeCombo()->selectShape(s);
    p->rebuildNow();
    ASSERT_EQ(p->errorBars()->dataCount(), p->bars()->data()->size());
    for (int i = 0; i < p->errorBars()->dataCount(); ++i) {
      const auto e = p->errorBars()->data()->at(i);
      EXPECT_GE(e.errorMinus, 0);
      EXPECT_GE(e.errorPlus, 0);
      EXPECT_GT(e.errorMinus + e.errorPlus, 0) << toString(s);
    }
  }
  // Scaling and Roofline: an error bar per point, and the right one (its CI holds the point
  // whose key it has).
  int timed = 0;
  for (const auto& c : doc.cases) timed += hasSpeed(c);
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
          if (hasSpeed(c) && c.gflops == y) match = &c;
        ASSERT_NE(match, nullptr) << plot->objectName().toStdString() << " at " << key;
        const Range ci = gflopsCi(*match);
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
  for (const Shape& sh : shapesOf(doc))
    if (sh.m == sh.n && sh.n == sh.k) sizes << QString::number(sh.m);
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
    EXPECT_FALSE(g->name().contains("TFLOP/s")) << g->name().toStdString();
    if (g->name().contains(" peak ")) {
      EXPECT_TRUE(g->name().contains("GFLOP/s"));
      EXPECT_NE(g->pen().style(), r->memorySlope()->pen().style());
      EXPECT_EQ(g->pen().color().hsvSaturation(), 0) << "roofs are grey, not a kernel colour";
    }
    if (g->property("series").toString() == "sgemm.naive" && !g->data()->isEmpty())
      markers << int(g->scatterStyle().shape());
  }
  EXPECT_EQ(r->roofCount(), 3);
  EXPECT_GT(markers.size(), 1) << "every shape of a kernel drew the same marker";
}

TEST_F(Plots, ClickingALegendEntryHidesItsSeriesAcrossRebuilds) {
  ScalingPage* s = w->scalingPage();
  w->tabs()->setCurrentWidget(s);
  s->rebuildNow();
  QCPGraph* line = s->lineOf("sgemm.naive");
  ASSERT_NE(line, nullptr);
  QCPAbstractLegendItem* item = s->plot()->legend->itemWithPlottable(line);
  ASSERT_NE(item, nullptr);
  click(s->plot(), item->rect().center());
  EXPECT_TRUE(s->isSeriesHidden("sgemm.naive"));
  s->rebuildNow();
  EXPECT_FALSE(s->lineOf("sgemm.naive")->visible());
  click(s->plot(), s->plot()->legend->itemWithPlottable(s->lineOf("sgemm.naive"))->rect().center());
  EXPECT_TRUE(s->lineOf("sgemm.naive")->visible());
}

TEST_F(Plots, UncheckedKernelsLeaveEveryPlot) {
  KernelListWidget* list = w->kernelList();
  QTreeWidgetItemIterator it(list);
  for (; *it; ++it)
    if ((*it)->data(0, Qt::UserRole).toString() == "sgemm.naive")
      (*it)->setCheckState(0, Qt::Unchecked);
  ASSERT_FALSE(w->model()->isShown(QString("sgemm.naive")));
  ASSERT_EQ(list->uncheckedIds(), QStringList{"sgemm.naive"}) << "one box, one kernel";
  w->rebuildAllNow();
  EXPECT_EQ(w->scalingPage()->lineOf("sgemm.naive"), nullptr);
  for (QCPStatisticalBox* b : w->timingPage()->boxes())
    EXPECT_NE(b->property("series").toString(), "sgemm.naive");
  for (int i = 0; i < w->rooflinePage()->plot()->graphCount(); ++i)
    EXPECT_NE(w->rooflinePage()->plot()->graph(i)->property("series").toString(), "sgemm.naive");
  ASSERT_FALSE(w->progressionPage()->bars()->data()->isEmpty());
  EXPECT_EQ(w->progressionPage()->bars()->data()->at(0)->key, 1.0);
  EXPECT_EQ(w->progressionPage()->bars()->data()->size() +
                w->progressionPage()->fallbackBars()->data()->size(),
            8);
}

TEST_F(Plots, DoubleClickAndHomeResetTheZoom) {
  ScalingPage* s = w->scalingPage();
  const QCPRange x = s->plot()->xAxis->range(), y = s->plot()->yAxis->range();
  s->plot()->xAxis->setRange(x.lower * 2, x.upper / 2);
  s->plot()->yAxis->setRange(y.lower * 3, y.upper / 3);
  s->resetZoom();
  EXPECT_DOUBLE_EQ(s->plot()->xAxis->range().lower, x.lower);
  EXPECT_DOUBLE_EQ(s->plot()->yAxis->range().upper, y.upper);
}

TEST_F(Plots, DocumentsWithoutTimedCasesSayWhyInsteadOfBareAxes) {
  open(test::tuningDocument());
  for (PlotPage* p : std::initializer_list<PlotPage*>{w->scalingPage(), w->rooflinePage(),
                                                      w->timingPage(), w->progressionPage()}) {
    EXPECT_FALSE(p->plot()->legend->visible()) << p->name().toStdString();
    EXPECT_FALSE(p->plot()->xAxis->visible()) << p->name().toStdString() << ": bare axes";
    bool said = false;
    for (QCPItemText* t : texts(p->plot())) said |= t->text().contains("tuning sweep");
    for (int r = 0; r < p->plot()->plotLayout()->rowCount(); ++r)
      if (auto* e = qobject_cast<QCPTextElement*>(p->plot()->plotLayout()->element(r, 0)))
        said |= e->text().contains("tuning sweep");
    EXPECT_TRUE(said) << p->name().toStdString();
  }
  EXPECT_EQ(w->rooflinePage()->plot()->graphCount(), 0) << "roofs over no point";
  EXPECT_FALSE(w->correctnessPage()->findChild<QLabel*>()->text().startsWith("0 cases"));
  open(readDocument(test::sampleRun().toStdString()));
  EXPECT_TRUE(w->scalingPage()->plot()->xAxis->visible());
  EXPECT_TRUE(w->timingPage()->histogramRect()->axis(QCPAxis::atLeft)->visible());
}

TEST_F(Plots, ImpossibleSpeedsAreFlaggedNotPlotted) {
  RunDocument bad = doc;
  for (auto& c : bad.cases)
    if (c.kernel == "sgemm.naive")
      c.gflops = -5;
    else if (c.kernel == "cublas.sgemm")
      c.gflops = 1e300;
  open(bad);
  EXPECT_EQ(w->scalingPage()->lineOf("sgemm.naive"), nullptr);
  EXPECT_EQ(w->scalingPage()->lineOf("cublas.sgemm"), nullptr);
  for (int i = 0; i < w->progressionPage()->plot()->graphCount(); ++i)
    EXPECT_LT(w->progressionPage()->plot()->graph(i)->name().size(), 80);
  EXPECT_TRUE(implausibleNote(bad).contains("not plotted"));
  EXPECT_TRUE(w->messageText().contains("not plotted")) << w->messageText().toStdString();
}

TEST_F(Plots, AnOpenErrorIsADialogWhenInteractive) {
  w->showOpenError("Could not open 'x.json': not JSON");
  auto* box = w->findChild<QMessageBox*>("openErrorDialog");
  ASSERT_NE(box, nullptr);
  EXPECT_TRUE(box->isVisible());
  EXPECT_TRUE(box->text().contains("x.json"));
  EXPECT_TRUE(w->messageText().contains("x.json"));
}

namespace {

// Writes the report as the window does, measuring every plot right after it is drawn.
QStringList reportOverflows(MainWindow* w, const QPageSize& size, const QString& path) {
  ReportInputs in;
  in.model = w->model();
  in.progression = w->progressionPage();
  in.timing = w->timingPage();
  const RunDocument& d = w->model()->document();
  if (std::any_of(d.cases.begin(), d.cases.end(), hasSpeed))
    in.plots = {w->scalingPage(), w->rooflinePage()};
  if (d.tuning) in.plots << w->tuningPage();
  in.pageSize = size;
  QStringList problems;
  int plots = 0;
  in.afterPlot = [&](QCustomPlot* plot, QPaintDevice* device) {
    ++plots;
    problems << textOverflows(plot, device);
  };
  const QString err = writeReportPdf(in, path);
  if (!err.isEmpty()) problems << err;
  if (plots == 0) problems << "no plot was drawn";
  return problems;
}

}  // namespace

// Legends, axis titles, tick labels, bar labels and notes of every report page fit their
// boxes and clear each other, on A4 and on Letter, for the real run (with a baseline), the
// synthetic one (failures, violations, fallbacks) and a tuning sweep.
TEST_F(Plots, NoReportPlotClipsOrOverlapsText) {
  QTemporaryDir dir;
  ASSERT_EQ(w->openBaseline(test::baselineRun()), "");
  for (const auto& size : {QPageSize(QPageSize::A4), QPageSize(QPageSize::Letter)}) {
    const QStringList problems = reportOverflows(w.get(), size, dir.filePath("r.pdf"));
    EXPECT_TRUE(problems.isEmpty()) << size.name().toStdString() << ":\n"
                                    << problems.join('\n').toStdString();
  }
  load(test::syntheticRun());
  QStringList problems = reportOverflows(w.get(), QPageSize(QPageSize::A4), dir.filePath("s.pdf"));
  EXPECT_TRUE(problems.isEmpty()) << problems.join('\n').toStdString();
  const QString tune = test::writeFixture(test::tuningDocument(), dir.filePath("t.json"));
  load(tune);
  problems = reportOverflows(w.get(), QPageSize(QPageSize::Letter), dir.filePath("t.pdf"));
  EXPECT_TRUE(problems.isEmpty()) << problems.join('\n').toStdString();
}

// A document opened without the engine names its kernels as `kwb list` does: the report
// (headless) and the live GUI say "2 Shared-memory tiled" alike.
TEST(GuiNames, KernelNamesOfADocumentAreTheEngines) {
  QProcess list;
  list.start(KWB_ENGINE, {"list", "--json"});
  ASSERT_TRUE(list.waitForFinished(30000));
  ASSERT_EQ(list.exitCode(), 0);
  const KernelCatalog engine = KernelCatalog::fromListJson(list.readAllStandardOutput());
  const KernelCatalog fromDoc =
      KernelCatalog::fromDocument(readDocument(test::sampleRun().toStdString()));
  int compared = 0;
  for (const KernelInfo& k : fromDoc.kernels()) {
    const KernelInfo e = engine.info(k.id);
    if (e.name.isEmpty() || e.name == e.id) continue;  // a kernel this build does not have
    EXPECT_EQ(k.name, e.name) << k.id.toStdString();
    EXPECT_EQ(k.stage, e.stage) << k.id.toStdString();
    ++compared;
  }
  EXPECT_GE(compared, 10);
}

// A results file written again (a run finishing into it) is reloaded without asking.
TEST(GuiFiles, TheOpenFileIsReloadedWhenItChangesOnDisk) {
  QTemporaryDir dir;
  RunDocument d = readDocument(test::sampleRun().toStdString());
  const QString path = test::writeFixture(d, dir.filePath("r.json"));
  WindowOptions o;
  o.probeEngine = false;
  o.persistSettings = false;
  MainWindow w(o);
  ASSERT_EQ(w.openResults(path), "");
  const std::size_t before = w.model()->document().cases.size();
  d.cases.pop_back();
  test::writeFixture(d, path);
  EXPECT_TRUE(
      test::waitFor([&] { return w.model()->document().cases.size() == before - 1; }, 10000));
  EXPECT_TRUE(w.messageText().contains("Reloaded")) << w.messageText().toStdString();
  // And again: the watch follows the file across replacements.
  d.cases.pop_back();
  test::writeFixture(d, path);
  EXPECT_TRUE(
      test::waitFor([&] { return w.model()->document().cases.size() == before - 2; }, 10000));
}

// Twelve kernels, twelve colours apart from each other and from the grey roofs.
TEST(GuiPalette, KernelColoursAreDistinctAndNeverGrey) {
  for (int i = 0; i < 12; ++i) {
    EXPECT_GT(kernelColor(i).hsvSaturation(), 60) << i;
    for (int j = 0; j < i; ++j) {
      const QColor a = kernelColor(i), b = kernelColor(j);
      const double d = std::hypot(a.red() - b.red(), a.green() - b.green(), a.blue() - b.blue());
      EXPECT_GT(d, 70) << i << " and " << j;
    }
  }
}

// Plots follow the system's dark mode on screen; reports stay light.
TEST_F(Plots, PlotsFollowADarkPaletteAndReportsStayLight) {
  const QPalette light = QApplication::palette();
  QPalette dark = light;
  dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
  dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
  QApplication::setPalette(dark);
  w->scalingPage()->rebuildNow();
  QCustomPlot* p = w->scalingPage()->plot();
  auto corner = [&] { return p->toPixmap(300, 200).toImage().pixelColor(2, 2); };
  EXPECT_LT(corner().lightness(), 80);
  EXPECT_GT(p->xAxis->tickLabelColor().lightness(), 180);
  w->rooflinePage()->rebuildNow();
  for (int i = 0; i < w->rooflinePage()->plot()->graphCount(); ++i) {
    const QCPGraph* g = w->rooflinePage()->plot()->graph(i);
    if (!g->name().contains(" peak ")) continue;
    EXPECT_GT(g->pen().color().lightness(), 150) << "a roof drawn black on a dark plot";
  }
  w->scalingPage()->setPrinting(true);
  EXPECT_GT(corner().lightness(), 240);
  EXPECT_LT(p->xAxis->tickLabelColor().lightness(), 60);
  w->scalingPage()->setPrinting(false);
  QApplication::setPalette(light);
}

TEST_F(Plots, PlotsAndTheGridCopyToTheClipboard) {
  QGuiApplication::clipboard()->clear();
  w->scalingPage()->copyToClipboard();
  EXPECT_FALSE(QGuiApplication::clipboard()->image().isNull());
  w->correctnessPage()->copyToClipboard();
  const QString text = QGuiApplication::clipboard()->text();
  EXPECT_EQ(text.count('\n'), int(kernelsOf(doc, w->model()->catalog()).size()) + 1);
  EXPECT_TRUE(text.startsWith("kernel\t512x512x512")) << text.left(80).toStdString();
  EXPECT_TRUE(text.contains("sgemm.tensor_core\tPASS")) << text.toStdString();
}

// More than two documents: each run added to compare is a bar per stage and a line per kernel.
TEST_F(Plots, SeveralRunsOverlayOnProgressionAndScaling) {
  ASSERT_EQ(w->openBaseline(test::baselineRun()), "");
  ASSERT_EQ(w->addCompareRun(test::syntheticRun()), "");
  ASSERT_EQ(w->addCompareRun(test::syntheticBaseline()), "");
  ASSERT_NE(w->addCompareRun("/nonexistent.json"), "");
  w->rebuildAllNow();
  ProgressionPage* p = w->progressionPage();
  ASSERT_EQ(p->overlayBars().size(), 2);
  const Shape s = *p->shapeCombo()->currentShape();
  const RunDocument other = readDocument(test::syntheticRun().toStdString());
  int expected = 0;
  for (const KernelInfo& k : w->model()->catalog().stages())
    if (doc.find(k.id.toStdString(), s))
      if (const CaseResult* c = other.find(k.id.toStdString(), s); c && hasSpeed(*c)) ++expected;
  EXPECT_EQ(p->overlayBars()[0]->data()->size(), expected);
  EXPECT_NE(w->scalingPage()->lineOf("sgemm.naive", " (gui-sample-spec-benchmark.json)"), nullptr);
  EXPECT_NE(w->scalingPage()->lineOf("sgemm.naive", " (baseline)"), nullptr);
  EXPECT_NE(w->scalingPage()->lineOf("sgemm.naive", " (gui-baseline-spec-benchmark.json)"),
            nullptr);
  w->model()->clearOverlays();
  w->rebuildAllNow();
  EXPECT_TRUE(p->overlayBars().isEmpty());
}
