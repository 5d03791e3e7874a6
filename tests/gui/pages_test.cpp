// SPDX-License-Identifier: Apache-2.0
// The bundled sample (real, recorded on an H200) drives every page: what each plot holds is
// computed from the document. The synthetic fixture covers what the real run lacks (FAIL,
// ERROR, a canary hit).
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <cmath>
#include <cstdio>
#include <QTemporaryDir>

#include "app/main_window.h"
#include "gui_test_support.h"
#include "kwb/results.h"
#include "kwb/verdict_rule.h"
#include "model/doc_queries.h"
#include "pages/baseline_page.h"
#include "pages/correctness_page.h"
#include "pages/progression_page.h"
#include "pages/roofline_page.h"
#include "pages/scaling_page.h"
#include "pages/timing_page.h"
#include "panels/case_detail_dialog.h"
#include "panels/kernel_list_widget.h"
#include "panels/shape_list_widget.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

struct Loaded : ::testing::Test {
  void SetUp() override { load(test::sampleRun()); }
  void load(const QString& path) {
    doc = readDocument(path.toStdString());
    WindowOptions o = test::quietWindow();
    w = std::make_unique<MainWindow>(o);
    ASSERT_EQ(w->openResults(path), "");
    w->rebuildAllNow();
  }
  // Kernels of the document that are stages (not cuBLAS), in stage order.
  QList<QString> stagesAt(const Shape& s) const {
    QList<QString> out;
    for (const KernelInfo& k : w->model()->catalog().stages())
      if (doc.find(k.id, s)) out << QString::fromStdString(k.id);
    return out;
  }
  int timedAt(const Shape& s, bool references) const {
    int n = 0;
    for (const auto& c : doc.cases)
      n += c.shape() == s && hasSpeed(doc, c) && (c.kernel.rfind("cublas.", 0) == 0) == references;
    return n;
  }
  RunDocument doc;
  std::unique_ptr<MainWindow> w;
};

struct Synthetic : Loaded {
  void SetUp() override { load(test::syntheticRun()); }
};

const Shape k1024{1024, 1024, 1024};

}  // namespace

TEST_F(Loaded, TheBundledSampleIsARealRun) {
  ASSERT_TRUE(doc.device.has_value());
  EXPECT_EQ(doc.device->name.find("synthetic"), std::string::npos) << doc.device->name;
  EXPECT_FALSE(doc.cases.empty());
}

TEST_F(Loaded, ProgressionHoldsABarPerTimedStageAndAReferenceLineAtEveryShape) {
  ProgressionPage* p = w->progressionPage();
  for (const CaseSize& size : sizesOf(doc)) {
    const Shape s = shapeOf(size);
    p->shapeCombo()->selectShape(s);
    p->rebuildNow();
    const QList<QString> stages = stagesAt(s);
    QCPBars* bars = p->bars();
    ASSERT_NE(bars, nullptr);
    // FP32 fallbacks are bars of their own; together they hold every timed stage.
    ASSERT_EQ(bars->data()->size() + p->fallbackBars()->data()->size(), timedAt(s, false))
        << toString(s);
    int bar = 0, fallbackBar = 0;
    for (int i = 0; i < stages.size(); ++i) {
      const CaseResult* c = doc.find(stages[i].toStdString(), s);
      if (!hasSpeed(doc, *c)) continue;
      QCPBars* b = isFallback(*c) ? p->fallbackBars() : bars;
      const int at = isFallback(*c) ? fallbackBar++ : bar++;
      EXPECT_DOUBLE_EQ(b->data()->at(at)->key, i + 1) << c->kernel;
      EXPECT_DOUBLE_EQ(b->data()->at(at)->value, c->gflops) << c->kernel;
    }
    ASSERT_EQ(p->plot()->graphCount(), timedAt(s, true)) << toString(s);
    if (const CaseResult* ref = doc.find("cublas.sgemm", s); ref && hasSpeed(doc, *ref)) {
      EXPECT_DOUBLE_EQ(p->plot()->graph(0)->data()->at(0)->value, ref->gflops);
    }
    int violations = 0;
    for (const auto& v : doc.progression.violations) violations += v.shape == s;
    EXPECT_EQ(p->violationMarks(), violations) << toString(s);
    EXPECT_EQ(p->baselineBars(), nullptr);
  }
}

// A drop inside the medians' confidence intervals is marked as possible noise, in grey,
// and a real drop as "slower than", in red.
TEST_F(Loaded, ProgressionMarksNoisyDropsApartFromRealOnes) {
  ASSERT_GE(doc.progression.violations.size(), 2u) << "the sample has real violations";
  RunDocument noisy = doc;
  noisy.progression.violations[0].withinNoise = true;
  noisy.progression.violations[1].withinNoise = false;
  w->model()->setDocument(noisy, "noisy.json");
  ProgressionPage* p = w->progressionPage();
  auto marksAt = [&](const Shape& s) {
    p->shapeCombo()->selectShape(s);
    p->rebuildNow();
    QStringList texts;
    for (int i = 0; i < p->plot()->itemCount(); ++i)
      if (auto* t = qobject_cast<QCPItemText*>(p->plot()->item(i)))
        if (t->text().startsWith(QString::fromUtf8("\u25BD")) ||
            t->text().startsWith(QString::fromUtf8("\u25BC")))
          texts << t->text();
    return texts;
  };
  const auto& v0 = noisy.progression.violations[0];
  const QStringList first = marksAt(v0.shape);
  EXPECT_TRUE(first.join("|").contains("noise of")) << first.join("|").toStdString();
  const auto& v1 = noisy.progression.violations[1];
  const QStringList second = marksAt(v1.shape);
  EXPECT_TRUE(second.join("|").contains("below")) << second.join("|").toStdString();
}

TEST_F(Loaded, ProgressionTooltipGivesTheExactValue) {
  ProgressionPage* p = w->progressionPage();
  const Shape s = shapeOf(*p->shapeCombo()->currentShape());
  p->resize(1000, 700);
  p->plot()->replot();
  const QString id = stagesAt(s).at(1);
  const double v = doc.find(id.toStdString(), s)->gflops;
  const QPointF at(p->plot()->xAxis->coordToPixel(2), p->plot()->yAxis->coordToPixel(v));
  const QString tip = p->tooltips()->textAt(at);
  EXPECT_TRUE(tip.contains(id)) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QString::number(v, 'g', 6))) << tip.toStdString();
}

// Points of a kernel's series on the scaling plot: its line, unjoined shapes and fallbacks.
static int scalingPoints(QCustomPlot* plot, const QString& series) {
  int n = 0;
  for (int i = 0; i < plot->graphCount(); ++i)
    if (plot->graph(i)->property("series").toString() == series)
      n += plot->graph(i)->data()->size();
  return n;
}

TEST_F(Loaded, ScalingHasASeriesPerKernelWithAPointPerTimedShape) {
  QCustomPlot* plot = w->scalingPage()->plot();
  EXPECT_EQ(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
  for (const QString& id : kernelsOf(doc, w->model()->catalog())) {
    int timed = 0;
    for (const auto& c : doc.cases) timed += c.kernel == id.toStdString() && hasSpeed(doc, c);
    EXPECT_GT(timed, 0) << id.toStdString();
    EXPECT_EQ(scalingPoints(plot, id), timed) << id.toStdString();
    ASSERT_NE(w->scalingPage()->lineOf(id), nullptr) << id.toStdString();
  }
}

TEST_F(Loaded, TimingHasABoxAndViolinPerTimedKernelAndEverySampleInOrder) {
  TimingPage* t = w->timingPage();
  const Shape s = shapeOf(*t->shapeCombo()->currentShape());
  ASSERT_EQ(t->boxes().size(), timedAt(s, false) + timedAt(s, true));
  ASSERT_EQ(t->violins().size(), t->boxes().size());
  ASSERT_EQ(t->orderStrips().size(), t->boxes().size());
  const QString first = kernelsOf(doc, w->model()->catalog()).front();
  const CaseResult* c = doc.find(first.toStdString(), s);
  // Relative to the median: the median sits at 0 %.
  EXPECT_DOUBLE_EQ(t->boxes().front()->data()->at(0)->median, 0.0);
  t->setScale(TimingPage::Scale::kMilliseconds);
  EXPECT_DOUBLE_EQ(t->boxes().front()->data()->at(0)->median, c->summary.median);
  // Every sample in the strip, in the order taken: x rises inside the kernel's column and y is
  // the sample itself.
  QCPGraph* strip = t->orderStrips().front();
  ASSERT_EQ(strip->data()->size(), int(c->samplesMs.size()));
  for (int j = 0; j < strip->data()->size(); ++j) {
    EXPECT_NEAR(strip->data()->at(j)->value, c->samplesMs[std::size_t(j)], 1e-12);
    EXPECT_GT(strip->data()->at(j)->key, 0.5);
    EXPECT_LT(strip->data()->at(j)->key, 1.5);
  }
}

TEST_F(Loaded, RooflineIsLogLogWithTheDeviceRoofs) {
  RooflinePage* r = w->rooflinePage();
  EXPECT_EQ(r->roofCount(), 3);  // FP32, TF32 tensor, FP16 tensor
  EXPECT_EQ(r->plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
  EXPECT_EQ(r->plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
  bool fp32 = false;
  for (int i = 0; i < r->plot()->graphCount(); ++i) {
    QCPGraph* g = r->plot()->graph(i);
    if (!g->name().startsWith("FP32 peak")) continue;
    fp32 = true;
    EXPECT_NEAR(g->data()->at(g->data()->size() - 1)->value, doc.device->peakFp32Tflops * 1000,
                1e-6);
  }
  EXPECT_TRUE(fp32);
}

TEST_F(Loaded, CorrectnessGridHasOneCellPerCaseWithItsStatus) {
  CorrectnessPage* c = w->correctnessPage();
  QTableWidget* t = c->table();
  ASSERT_EQ(t->rowCount(), kernelsOf(doc, w->model()->catalog()).size());
  ASSERT_EQ(t->columnCount(), sizesOf(doc).size());
  int cells = 0;
  for (int r = 0; r < t->rowCount(); ++r)
    for (int col = 0; col < t->columnCount(); ++col) {
      const CaseResult* cr = c->caseAt(r, col);
      if (!cr) continue;
      EXPECT_EQ(t->item(r, col)->data(CorrectnessPage::kStatusRole).toInt(), int(cr->status));
      EXPECT_EQ(t->item(r, col)->text().section('\n', 0, 0), statusText(cr->status));
      ++cells;
    }
  EXPECT_EQ(cells, int(doc.cases.size()));
}

TEST_F(Synthetic, CorrectnessGridShowsFailErrorAndFallback) {
  CorrectnessPage* c = w->correctnessPage();
  QTableWidget* t = c->table();
  auto statusOf = [&](const char* kernel, Shape s) {
    for (int r = 0; r < t->rowCount(); ++r)
      for (int col = 0; col < t->columnCount(); ++col)
        if (c->caseAt(r, col)->kernel == kernel && c->caseAt(r, col)->shape() == s)
          return t->item(r, col)->text().section('\n', 0, 0);
    return QString();
  };
  EXPECT_EQ(statusOf("sgemm.tiled", {511, 513, 1025}), "FAIL");
  EXPECT_EQ(statusOf("sgemm.tensor_core", {511, 513, 1025}), "FALLBACK");
  EXPECT_EQ(statusOf("sgemm.double_buffer", {256, 384, 640}), "ERROR");
  EXPECT_EQ(statusOf("cublas.sgemm", k1024), "PASS");
  // The errored case has no samples: no point, no box.
  EXPECT_EQ(scalingPoints(w->scalingPage()->plot(), "sgemm.double_buffer"), 4);
  w->timingPage()->selectCase("cublas.sgemm", Shape{256, 384, 640});
  EXPECT_EQ(w->timingPage()->boxes().size(), 7);
}

TEST_F(Synthetic, CaseDetailShowsCanaryNegativeControlAndFirstMismatch) {
  const QString html =
      CaseDetailDialog::describe(*doc.find("sgemm.tiled", Shape{511, 513, 1025}), doc);
  EXPECT_TRUE(html.contains("canary unwritten")) << html.toStdString();
  EXPECT_TRUE(html.contains("1023 elements"));
  EXPECT_TRUE(html.contains("C[37][100]"));
  EXPECT_TRUE(html.contains("negative control"));
  EXPECT_TRUE(html.contains("rejected"));
}

TEST_F(Loaded, KernelsAreGroupedByFamilyInStageOrder) {
  KernelListWidget* k = w->kernelList();
  ASSERT_EQ(k->topLevelItemCount(), 2);
  EXPECT_EQ(k->topLevelItem(0)->text(0), "sgemm");
  const QStringList ids = k->checkedIds();
  ASSERT_EQ(ids.size(), kernelsOf(doc, w->model()->catalog()).size());
  int lastStage = 0;
  bool inReferences = false;
  for (const QString& id : ids) {
    const KernelInfo info = w->model()->catalog().info(id);
    if (info.reference) {
      inReferences = true;
      continue;
    }
    EXPECT_FALSE(inReferences) << id.toStdString() << " after the references";
    EXPECT_GT(info.stage, lastStage) << id.toStdString();
    lastStage = info.stage;
  }
}

TEST_F(Loaded, BaselineAddsBarsLinesAndASpeedupPerCase) {
  ASSERT_EQ(w->openBaseline(test::baselineRun()), "");
  w->rebuildAllNow();
  const RunDocument base = readDocument(test::baselineRun().toStdString());
  const Shape s = shapeOf(*w->progressionPage()->shapeCombo()->currentShape());
  int baseBars = 0;
  for (const QString& id : stagesAt(s))
    if (const auto* b = base.find(id.toStdString(), s); b && hasSpeed(base, *b)) ++baseBars;
  ASSERT_GT(baseBars, 0);
  ASSERT_NE(w->progressionPage()->baselineBars(), nullptr);
  EXPECT_EQ(w->progressionPage()->baselineBars()->data()->size(), baseBars);
  for (const QString& id : kernelsOf(base, w->model()->catalog())) {
    int timed = 0;
    for (const auto& c : base.cases) timed += c.kernel == id.toStdString() && hasSpeed(base, c);
    EXPECT_EQ(scalingPoints(w->scalingPage()->plot(), id + " (baseline)"), timed)
        << id.toStdString();
  }
  int both = 0;
  for (const auto& c : doc.cases)
    if (const auto* b = base.find(c.kernel, c.shape()); b && hasSpeed(base, *b) && hasSpeed(doc, c))
      ++both;
  QTableWidget* t = w->baselinePage()->table();
  ASSERT_GT(both, 0);
  ASSERT_EQ(t->rowCount(), both);
  // One sign convention, kwb compare's: the change is in time (negative = faster), the "why"
  // quotes the same change, and the speedup says the same as a factor.
  for (int r = 0; r < t->rowCount(); ++r) {
    const QString row = t->item(r, 0)->text() + "|" + t->item(r, 2)->text() + "|" +
                        t->item(r, 3)->text() + "|" + t->item(r, 4)->text() + "|" +
                        t->item(r, 5)->text() + "|" + t->item(r, 7)->text();
    const double change = t->item(r, 4)->data(Qt::UserRole).toDouble();
    const double rateRatio = t->item(r, 3)->data(Qt::DisplayRole).toDouble() /
                             t->item(r, 2)->data(Qt::DisplayRole).toDouble();
    EXPECT_NEAR(1 + change, 1 / rateRatio, 2e-3) << row.toStdString();
    EXPECT_EQ(t->item(r, 4)->text().toStdString(), signedPercent(change)) << row.toStdString();
    EXPECT_EQ(t->item(r, 5)->text().toStdString(), speedupText(change)) << row.toStdString();
    EXPECT_TRUE(t->item(r, 5)->text().endsWith(rateRatio > 1 ? "faster" : "slower") ||
                std::abs(change) < 5e-4)
        << row.toStdString();
    if (t->item(r, 7)->text().startsWith("change ")) {
      EXPECT_TRUE(t->item(r, 7)->text().startsWith("change " + t->item(r, 4)->text()))
          << row.toStdString();
    }
  }
}

TEST_F(Loaded, ExportsCsvMarkdownPngAndSvg) {
  QTemporaryDir dir;
  ASSERT_EQ(w->exportText(dir.filePath("r.csv")), "");
  ASSERT_EQ(w->exportText(dir.filePath("r.md")), "");
  QFile csv(dir.filePath("r.csv"));
  ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
  EXPECT_EQ(csv.readAll().count('\n'), qsizetype(doc.cases.size()) + 1);
  QFile md(dir.filePath("r.md"));
  ASSERT_TRUE(md.open(QIODevice::ReadOnly));
  const QString mdText = md.readAll();
  for (const QString& k : kernelsOf(doc, w->model()->catalog()))
    EXPECT_TRUE(mdText.contains(k)) << k.toStdString();
  for (const char* name : {"p.png", "p.svg"}) {
    ASSERT_EQ(w->exportCurrentPlot(dir.filePath(name)), "");
    EXPECT_GT(QFileInfo(dir.filePath(name)).size(), 1000) << name;
  }
  EXPECT_NE(w->exportText("/nonexistent-dir/r.csv"), "");
}

TEST(GuiFiles, MalformedAndMissingFilesAreRefusedNamingTheFile) {
  WindowOptions o = test::quietWindow();
  MainWindow w(o);
  QTemporaryDir dir;
  const QString bad = dir.filePath("bad.json");
  QFile f(bad);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("{\"schemaVersion\": 1, \"cases\": [");
  f.close();
  const QString err = w.openResults(bad);
  EXPECT_TRUE(err.contains(bad)) << err.toStdString();
  const QString missing = w.openResults(dir.filePath("missing.json"));
  EXPECT_TRUE(missing.contains("missing.json")) << missing.toStdString();
}

TEST(GuiShapes, CustomShapesAreValidatedAsTyped) {
  EXPECT_EQ(ShapeListWidget::validate("256x384x640"), "");
  EXPECT_EQ(ShapeListWidget::validate("512"), "");
  EXPECT_NE(ShapeListWidget::validate("0x4x4"), "");
  EXPECT_NE(ShapeListWidget::validate("12xx4"), "");
  EXPECT_NE(ShapeListWidget::validate("-3"), "");
  ShapeListWidget w;
  w.editor()->setText("12xx4");
  EXPECT_FALSE(w.addButton()->isEnabled());
  EXPECT_FALSE(w.messageLabel()->isHidden());
  w.editor()->setText("17x19x23");
  EXPECT_TRUE(w.addButton()->isEnabled());
  w.addButton()->click();
  ASSERT_EQ(w.checkedShapes().size(), 1);
  EXPECT_EQ(w.checkedShapes()[0], CaseSize(Shape{17, 19, 23}));
}

// A baseline recorded on another GPU model is marked as a cross-device comparison before
// anything else; one from the same model is not.
TEST_F(Loaded, ABaselineFromAnotherGpuIsMarkedCrossDevice) {
  ASSERT_EQ(w->openBaseline(test::bundled("h200/spec-benchmark-h200.json")), "");
  w->rebuildAllNow();
  const QString other = w->baselinePage()->headerText();
  EXPECT_TRUE(other.startsWith("<b")) << other.toStdString();
  EXPECT_TRUE(other.contains("Cross-device comparison")) << other.toStdString();
  EXPECT_TRUE(other.contains("NVIDIA H200")) << other.toStdString();
  ASSERT_EQ(w->openBaseline(test::baselineRun()), "");
  w->rebuildAllNow();
  EXPECT_FALSE(w->baselinePage()->headerText().contains("Cross-device"))
      << w->baselinePage()->headerText().toStdString();
}

// A merged document may hold one size on two GPU models: the Baseline tab shows the case the
// comparison matched (same model as the baseline), not the first case of that kernel and size.
TEST_F(Loaded, BaselineRowsShowTheCasesOfTheBaselinesGpuModel) {
  RunDocument merged = doc;
  ASSERT_TRUE(merged.device);
  DeviceInfo other = *merged.device;
  other.name = "NVIDIA H200";
  merged.devices = {other, *merged.device};
  for (auto& c : merged.cases) c.device = 1;
  const CaseResult* tiled = doc.find("sgemm.tiled", Shape{512, 512, 512});
  ASSERT_NE(tiled, nullptr);
  CaseResult slowCopy = *tiled;  // the same case on the other model, twice as slow
  slowCopy.device = 0;
  for (double& ms : slowCopy.samplesMs) ms *= 2;
  slowCopy.summary.median *= 2;
  slowCopy.gflops /= 2;
  for (auto& [key, value] : slowCopy.figures)
    if (key == "gflops" || key == "gbps") value /= 2;
  merged.cases.insert(merged.cases.begin(), slowCopy);  // found first by kernel and size
  const std::string path = (QDir::tempPath() + "/kwb_merged_two_models.json").toStdString();
  writeDocument(merged, path);
  ASSERT_EQ(w->openResults(QString::fromStdString(path)), "");
  ASSERT_EQ(w->openBaseline(test::sampleRun()), "");
  w->rebuildAllNow();
  QTableWidget* t = w->baselinePage()->table();
  int rows = 0;
  for (int r = 0; r < t->rowCount(); ++r) {
    if (t->item(r, 0)->text() != "sgemm.tiled" || !t->item(r, 1)->text().startsWith("512"))
      continue;
    ++rows;
    // The H100 case against the H100 baseline: the same rate, no change.
    EXPECT_EQ(t->item(r, 2)->text(), t->item(r, 3)->text());
  }
  EXPECT_EQ(rows, 1);
  std::remove(path.c_str());
}

// A case faster than the device allows (kwb/plausibility.h) says so in its Correctness cell and
// its dialog, not only in the tooltip's message.
TEST_F(Loaded, SuspiciousCaseIsMarkedInTheGridAndTheDialog) {
  RunDocument marked = readDocument(test::syntheticRun().toStdString());
  CaseResult* c = nullptr;
  for (auto& r : marked.cases)
    if (r.kernel == "cublas.sgemm" && r.shape() == k1024) c = &r;
  ASSERT_NE(c, nullptr);
  c->status = CaseStatus::kFail;
  c->suspicious = "median 0.001 ms is 97.0% below the least time the declared work allows";
  c->message = "suspicious: " + c->suspicious;
  const std::string path = ::testing::TempDir() + "suspicious.json";
  writeDocument(marked, path);
  load(QString::fromStdString(path));
  CorrectnessPage* page = w->correctnessPage();
  QTableWidget* t = page->table();
  int marks = 0;
  for (int r = 0; r < t->rowCount(); ++r)
    for (int col = 0; col < t->columnCount(); ++col) {
      const CaseResult* cr = page->caseAt(r, col);
      const bool suspicious = t->item(r, col)->text().contains("SUSPICIOUS");
      EXPECT_EQ(suspicious, cr && !cr->suspicious.empty()) << r << "," << col;
      marks += suspicious;
    }
  EXPECT_EQ(marks, 1);
  EXPECT_TRUE(CaseDetailDialog::describe(*c, marked).contains("SUSPICIOUS"));
}
