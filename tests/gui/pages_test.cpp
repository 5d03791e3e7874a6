// The sample results drive every page: counts and values of what each plot holds.
#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

#include "baseline_page.h"
#include "case_detail_dialog.h"
#include "correctness_page.h"
#include "gui_test_support.h"
#include "kernel_list_widget.h"
#include "kwb/results.h"
#include "main_window.h"
#include "progression_page.h"
#include "roofline_page.h"
#include "scaling_page.h"
#include "shape_list_widget.h"
#include "timing_page.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

struct Loaded : ::testing::Test {
  void SetUp() override {
    doc = readDocument(test::sampleRun().toStdString());
    WindowOptions o;
    o.probeEngine = false;
    o.persistSettings = false;
    w = std::make_unique<MainWindow>(o);
    ASSERT_EQ(w->openResults(test::sampleRun()), "");
    w->rebuildAllNow();
  }
  RunDocument doc;
  std::unique_ptr<MainWindow> w;
};

const Shape k1024{1024, 1024, 1024};

}  // namespace

TEST_F(Loaded, ProgressionHoldsOneBarPerStageAndTheReferenceLines) {
  ProgressionPage* p = w->progressionPage();
  ASSERT_EQ(p->shapeCombo()->currentShape(), k1024);
  QCPBars* bars = p->bars();
  ASSERT_NE(bars, nullptr);
  ASSERT_EQ(bars->data()->size(), 5);
  const char* stages[] = {"sgemm.naive", "sgemm.tiled", "sgemm.bank_free", "sgemm.double_buffer",
                          "sgemm.tensor_core"};
  for (int i = 0; i < 5; ++i) {
    EXPECT_DOUBLE_EQ(bars->data()->at(i)->key, i + 1);
    EXPECT_DOUBLE_EQ(bars->data()->at(i)->value, doc.find(stages[i], k1024)->gflops) << stages[i];
  }
  ASSERT_EQ(p->plot()->graphCount(), 3);  // cuBLAS FP32, FP16, TF32
  EXPECT_DOUBLE_EQ(p->plot()->graph(0)->data()->at(0)->value,
                   doc.find("cublas.sgemm", k1024)->gflops);
  EXPECT_EQ(p->baselineBars(), nullptr);
  EXPECT_EQ(p->violationMarks(), 0);
  // The fixture's bank_free is slower than tiled at 512³: marked there.
  p->shapeCombo()->selectShape({512, 512, 512});
  p->rebuildNow();
  EXPECT_EQ(p->violationMarks(), 1);
}

TEST_F(Loaded, ProgressionTooltipGivesTheExactValue) {
  ProgressionPage* p = w->progressionPage();
  p->resize(1000, 700);
  p->plot()->replot();
  const double v = doc.find("sgemm.tiled", k1024)->gflops;
  const QPointF at(p->plot()->xAxis->coordToPixel(2), p->plot()->yAxis->coordToPixel(v));
  const QString tip = p->tooltips()->textAt(at);
  EXPECT_TRUE(tip.contains("sgemm.tiled")) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QString::number(v, 'g', 6))) << tip.toStdString();
}

TEST_F(Loaded, ScalingHasOneLinePerKernelWithAPointPerTimedShape) {
  QCustomPlot* plot = w->scalingPage()->plot();
  ASSERT_EQ(plot->graphCount(), 8);
  EXPECT_EQ(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
  for (int i = 0; i < plot->graphCount(); ++i) {
    const std::string id = plot->graph(i)->name().toStdString();
    int timed = 0;
    for (const auto& c : doc.cases) timed += c.kernel == id && c.timed();
    EXPECT_EQ(plot->graph(i)->data()->size(), timed) << id;
  }
  // double_buffer errored at 256×384×640: four points, not five.
  EXPECT_EQ(plot->graph(3)->name(), "sgemm.double_buffer");
  EXPECT_EQ(plot->graph(3)->data()->size(), 4);
}

TEST_F(Loaded, TimingHasABoxPerKernelAndAHistogramOfEverySample) {
  TimingPage* t = w->timingPage();
  ASSERT_NE(t->boxes(), nullptr);
  ASSERT_EQ(t->boxes()->data()->size(), 8);
  const CaseResult* naive = doc.find("sgemm.naive", k1024);
  EXPECT_DOUBLE_EQ(t->boxes()->data()->at(0)->median, naive->summary.median);
  double total = 0;
  for (auto it = t->histogram()->data()->constBegin(); it != t->histogram()->data()->constEnd();
       ++it)
    total += it->value;
  EXPECT_EQ(total, double(naive->samplesMs.size()));
  t->selectCase("cublas.sgemm", {256, 384, 640});
  EXPECT_EQ(t->boxes()->data()->size(), 7);  // the errored case has no samples
  total = 0;
  for (auto it = t->histogram()->data()->constBegin(); it != t->histogram()->data()->constEnd();
       ++it)
    total += it->value;
  EXPECT_EQ(total, double(doc.find("cublas.sgemm", {256, 384, 640})->samplesMs.size()));
}

TEST_F(Loaded, RooflineIsLogLogWithTheDeviceRoofs) {
  RooflinePage* r = w->rooflinePage();
  EXPECT_EQ(r->roofCount(), 2);
  EXPECT_EQ(r->plot()->graphCount(), 8 + 2);
  EXPECT_EQ(r->plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
  EXPECT_EQ(r->plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
  QCPGraph* fp32Roof = r->plot()->graph(8);
  EXPECT_NEAR(fp32Roof->data()->at(fp32Roof->data()->size() - 1)->value,
              doc.device->peakFp32Tflops * 1000, 1e-6);
}

TEST_F(Loaded, CorrectnessGridHasOneCellPerCaseWithItsStatus) {
  CorrectnessPage* c = w->correctnessPage();
  QTableWidget* t = c->table();
  ASSERT_EQ(t->rowCount(), 8);
  ASSERT_EQ(t->columnCount(), 5);
  int cells = 0;
  for (int r = 0; r < t->rowCount(); ++r)
    for (int col = 0; col < t->columnCount(); ++col) {
      const CaseResult* cr = c->caseAt(r, col);
      ASSERT_NE(cr, nullptr);
      EXPECT_EQ(t->item(r, col)->data(CorrectnessPage::kStatusRole).toInt(), int(cr->status));
      ++cells;
    }
  EXPECT_EQ(cells, int(doc.cases.size()));
  auto statusOf = [&](const char* kernel, Shape s) {
    for (int r = 0; r < t->rowCount(); ++r)
      for (int col = 0; col < t->columnCount(); ++col)
        if (c->caseAt(r, col)->kernel == kernel && c->caseAt(r, col)->shape == s)
          return t->item(r, col)->text().section('\n', 0, 0);
    return QString();
  };
  EXPECT_EQ(statusOf("sgemm.tiled", {511, 513, 1025}), "FAIL");
  EXPECT_EQ(statusOf("sgemm.tensor_core", {511, 513, 1025}), "FALLBACK");
  EXPECT_EQ(statusOf("sgemm.double_buffer", {256, 384, 640}), "ERROR");
  EXPECT_EQ(statusOf("cublas.sgemm", k1024), "PASS");
}

TEST_F(Loaded, CaseDetailShowsCanaryNegativeControlAndFirstMismatch) {
  const QString html = CaseDetailDialog::describe(*doc.find("sgemm.tiled", {511, 513, 1025}));
  EXPECT_TRUE(html.contains("canary unwritten")) << html.toStdString();
  EXPECT_TRUE(html.contains("1537 elements"));
  EXPECT_TRUE(html.contains("C[0][512]"));
  EXPECT_TRUE(html.contains("negative control"));
  EXPECT_TRUE(html.contains("rejected"));
}

TEST_F(Loaded, KernelsAreGroupedByFamilyInStageOrder) {
  KernelListWidget* k = w->kernelList();
  ASSERT_EQ(k->topLevelItemCount(), 2);
  EXPECT_EQ(k->topLevelItem(0)->text(0), "sgemm");
  EXPECT_EQ(k->checkedIds(), QStringList({"sgemm.naive", "sgemm.tiled", "sgemm.bank_free",
                                          "sgemm.double_buffer", "sgemm.tensor_core",
                                          "cublas.sgemm", "cublas.hgemm_f32acc", "cublas.tf32"}));
}

TEST_F(Loaded, BaselineAddsBarsLinesAndASpeedupPerCase) {
  ASSERT_EQ(w->openBaseline(test::baselineRun()), "");
  w->rebuildAllNow();
  ASSERT_NE(w->progressionPage()->baselineBars(), nullptr);
  EXPECT_EQ(w->progressionPage()->baselineBars()->data()->size(), 5);
  EXPECT_EQ(w->scalingPage()->plot()->graphCount(), 16);
  const RunDocument base = readDocument(test::baselineRun().toStdString());
  int both = 0;
  for (const auto& c : doc.cases)
    if (const auto* b = base.find(c.kernel, c.shape); b && b->timed() && c.timed()) ++both;
  QTableWidget* t = w->baselinePage()->table();
  ASSERT_EQ(t->rowCount(), both);
  for (int r = 0; r < t->rowCount(); ++r) {
    const double speedup = t->item(r, 4)->data(Qt::DisplayRole).toDouble();
    const double expected = t->item(r, 3)->data(Qt::DisplayRole).toDouble() /
                            t->item(r, 2)->data(Qt::DisplayRole).toDouble();
    EXPECT_NEAR(speedup, expected, 2e-3);
  }
}

TEST_F(Loaded, ExportsCsvMarkdownPngAndSvg) {
  QTemporaryDir dir;
  ASSERT_EQ(w->exportText(dir.filePath("r.csv")), "");
  ASSERT_EQ(w->exportText(dir.filePath("r.md")), "");
  QFile csv(dir.filePath("r.csv"));
  ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
  EXPECT_EQ(csv.readAll().count('\n'), 41);
  QFile md(dir.filePath("r.md"));
  ASSERT_TRUE(md.open(QIODevice::ReadOnly));
  const QString mdText = md.readAll();
  for (const char* k : {"sgemm.naive", "sgemm.tensor_core", "cublas.tf32"})
    EXPECT_TRUE(mdText.contains(k));
  for (const char* name : {"p.png", "p.svg"}) {
    ASSERT_EQ(w->exportCurrentPlot(dir.filePath(name)), "");
    EXPECT_GT(QFileInfo(dir.filePath(name)).size(), 1000) << name;
  }
  EXPECT_NE(w->exportText("/nonexistent-dir/r.csv"), "");
}

TEST(GuiFiles, MalformedAndMissingFilesAreRefusedNamingTheFile) {
  WindowOptions o;
  o.probeEngine = false;
  o.persistSettings = false;
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
  EXPECT_EQ(w.checkedShapes()[0], (Shape{17, 19, 23}));
}
