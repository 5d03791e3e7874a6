// SPDX-License-Identifier: Apache-2.0
// The GUI follows the problem family: reduce and scan documents (synthetic, families_fixture)
// plot GB/s against CUB and the copy roof, sit at their intensity on the roofline, show the
// first mismatching index, and list their kernels in a section per family. Set
// KWB_FAMILY_SHOTS=DIR to keep PNGs of the pages for a look.
#include <QTableWidget>

#include "families_fixture.h"
#include "kwb/error.h"
#include "model/case_size.h"
#include "panels/case_detail_dialog.h"
#include "plots/error_heat_map.h"
#include "plots/plot_helpers.h"
#include "panels/shape_combo.h"
#include "plots_fixture.h"
#include "report/report_tables.h"

using namespace kwb;
using namespace kwb::gui;
using namespace kwb::gui::test;

namespace {

constexpr std::int64_t k28 = std::int64_t{1} << 28;
const CaseSize kReduce28 = vectorSize("reduce", k28, "f32");  // a reduce case's size

void shoot(QCustomPlot* plot, const QString& name) {
  const QString dir = qEnvironmentVariable("KWB_FAMILY_SHOTS");
  if (!dir.isEmpty()) {
    EXPECT_EQ(savePlotPng(plot, dir + "/" + name + ".png"), "");
  }
}

void shootWidget(QWidget* widget, const QString& name) {
  const QString dir = qEnvironmentVariable("KWB_FAMILY_SHOTS");
  if (!dir.isEmpty()) {
    EXPECT_TRUE(widget->grab().save(dir + "/" + name + ".png"));
  }
}

QString titleOf(QCustomPlot* p) {
  for (int r = 0; r < p->plotLayout()->rowCount(); ++r)
    if (auto* e = qobject_cast<QCPTextElement*>(p->plotLayout()->element(r, 0))) return e->text();
  return {};
}

QStringList sectionTitles(const KernelListWidget* list) {
  QStringList out;
  for (int i = 0; i < list->topLevelItemCount(); ++i) out << list->topLevelItem(i)->text(0);
  return out;
}

}  // namespace

TEST(CaseSize, OneDimensionalSizesReadAsCountAndType) {
  CaseResult c;
  c.size = vectorSize("reduce", k28, "f32");
  EXPECT_EQ(sizeName(c), "2^28 f32");
  c.size = vectorSize("reduce", 1000003, "i32");
  EXPECT_EQ(sizeName(c), "1,000,003 i32");
  EXPECT_EQ(sizeName(c, false), "1000003 i32") << "as a command line writes it";
  EXPECT_FALSE(isGemm(sizeKey(c)));
  CaseResult scan = c;
  scan.size.family = "scan";
  EXPECT_NE(sizeKey(scan), sizeKey(c)) << "reduce and scan at one size are two columns";
  CaseResult gemm;
  gemm.size = kwb::gemmSize({512, 512, 512});
  EXPECT_EQ(sizeKey(gemm), CaseSize(gemm.shape()));
  EXPECT_TRUE(isGemm(sizeKey(gemm)));
  EXPECT_EQ(sizeName(gemm.size, false), "512x512x512");
  const FamilyInfo& reduce = *legacyFamilyInfo("reduce");
  EXPECT_EQ(parseSize(reduce, "2^28 f32"), vectorSize("reduce", k28, "f32"));
  EXPECT_THROW(parseSize(reduce, "512x512x512"), InputError);
  EXPECT_EQ(parseSize(reduce, "1000003 i32"), c.size);
  EXPECT_DOUBLE_EQ(scalingValue(sizeKey(c)), 1000003.0);
}

// A document without 1024³ opens at its largest size: for a memory-bound family the size
// where the bus is saturated, not the smallest, which measures launch latency.
TEST_F(Plots, ProgressionOpensAtTheLargestSizeWithout1024Cubed) {
  open(vectorDocument("reduce"));
  EXPECT_EQ(w->progressionPage()->shapeCombo()->currentText(), "2^28 f32");
  ShapeCombo combo;
  combo.setShapes({Shape{256, 384, 640}, Shape{2048, 2048, 2048}, Shape{512, 512, 512}});
  EXPECT_EQ(combo.currentShape(), CaseSize(Shape{2048, 2048, 2048}));
  ShapeCombo fresh;
  fresh.setShapes({Shape{256, 384, 640}, Shape{1024, 1024, 1024}, Shape{2048, 2048, 2048}});
  EXPECT_EQ(fresh.currentShape(), CaseSize(Shape{1024, 1024, 1024})) << "1024³ stays the default";
}

TEST_F(Plots, ReduceProgressionPlotsGbpsAgainstCubAndTheCopyRoof) {
  const RunDocument reduce = vectorDocument("reduce");
  open(reduce);
  ProgressionPage* page = w->progressionPage();
  page->shapeCombo()->selectShape(kReduce28);
  page->rebuildNow();
  QCustomPlot* p = page->plot();
  EXPECT_EQ(page->shapeCombo()->currentText(), "2^28 f32");
  EXPECT_EQ(p->yAxis->label(), "GB/s");
  EXPECT_TRUE(titleOf(p).startsWith("GB/s at 2^28 f32")) << titleOf(p).toStdString();
  // The bars are the recorded GB/s (a GFLOP/s bar would be a quarter of it).
  const double vectorized = recordedGBs(reduce, "reduce.vectorized", k28);
  bool found = false;
  for (auto it = page->bars()->data()->begin(); it != page->bars()->data()->end(); ++it)
    found |= std::abs(it->value - vectorized) < 1e-6;
  EXPECT_TRUE(found) << "no bar at reduce.vectorized's " << vectorized << " GB/s";
  EXPECT_EQ(page->bars()->data()->size(), 5);
  QStringList labels;
  for (QCPItemText* t : texts(p)) labels << t->text().replace('\n', ' ');
  EXPECT_TRUE(labels.join('|').contains("of CUB")) << labels.join('|').toStdString();
  EXPECT_TRUE(labels.join('|').contains("% of copy")) << labels.join('|').toStdString();
  QStringList graphs;
  for (int i = 0; i < p->graphCount(); ++i) graphs << p->graph(i)->name();
  EXPECT_TRUE(graphs.join('|').contains("CUB DeviceReduce::Sum: "))
      << graphs.join('|').toStdString();
  EXPECT_TRUE(graphs.join('|').contains("device-to-device copy (measured): 3010 GB/s"))
      << graphs.join('|').toStdString();
  EXPECT_TRUE(graphs.join('|').contains("peak bandwidth: 3350 GB/s"));
  EXPECT_FALSE(graphs.join('|').contains("GFLOP/s"));
  // cub_block (stage 5) is slower than vectorized (stage 4) in the fixture: marked at 2^28.
  EXPECT_EQ(page->violationMarks(), 1);
  shoot(p, "reduce-progression");
}

TEST_F(Plots, ScalingPlotsGbpsAgainstTheElementCount) {
  const RunDocument scan = vectorDocument("scan");
  open(scan);
  ScalingPage* page = w->scalingPage();
  QCustomPlot* p = page->plot();
  EXPECT_TRUE(p->yAxis->label().startsWith("GB/s")) << p->yAxis->label().toStdString();
  EXPECT_TRUE(p->xAxis->label().contains("elements")) << p->xAxis->label().toStdString();
  QCPGraph* line = page->lineOf("scan.decoupled_lookback");
  ASSERT_NE(line, nullptr);
  ASSERT_EQ(line->data()->size(), 3) << "2^20, 2^24, 2^28 f32 joined; i32 apart";
  EXPECT_DOUBLE_EQ(line->data()->at(2)->key, double(k28));
  EXPECT_NEAR(line->data()->at(2)->value, recordedGBs(scan, "scan.decoupled_lookback", k28), 1e-6);
  const QStringList ticks = visibleTicks(p->xAxis);
  EXPECT_TRUE(ticks.contains("2^28")) << ticks.join(' ').toStdString();
  EXPECT_TRUE(ticks.contains("2^20")) << ticks.join(' ').toStdString();
  EXPECT_FALSE(ticks.contains("1,000,003")) << "ticks at the joined (f32) counts";
  shoot(p, "scan-scaling");
}

// A family with more axes than a count and a type (a histogram's bins and distribution): a line
// joins only the sizes that differ in their count, so uniform and one-bin input of one count are
// not drawn as one series with a jump between them.
TEST_F(Plots, ScalingJoinsOnlySizesThatDifferInTheirCount) {
  RunDocument twoInputs = vectorDocument("scan");
  std::vector<CaseResult> oneBin;
  for (CaseResult& c : twoInputs.cases) {
    c.size.axes.push_back({"distribution", AxisKind::kWord, 0, "uniform"});
    oneBin.push_back(c);
    oneBin.back().size.axes.back().word = "one-bin";
    oneBin.back().figures["gbps"] /= 4;  // a different speed, which a joined line would zigzag to
  }
  twoInputs.cases.insert(twoInputs.cases.end(), oneBin.begin(), oneBin.end());
  open(twoInputs);
  ScalingPage* page = w->scalingPage();
  QCustomPlot* p = page->plot();
  EXPECT_TRUE(p->xAxis->label().contains("f32 uniform joined")) << p->xAxis->label().toStdString();
  QCPGraph* line = page->lineOf("scan.decoupled_lookback");
  ASSERT_NE(line, nullptr);
  ASSERT_EQ(line->data()->size(), 3) << "2^20, 2^24, 2^28 f32 uniform joined; one-bin apart";
  EXPECT_NEAR(line->data()->at(2)->value, recordedGBs(twoInputs, "scan.decoupled_lookback", k28),
              1e-6);
}

// Sizes run close together (1,000,003 and 2^20 elements) would print their labels over each
// other: one tick, the power of two, stands for both; sizes apart keep theirs.
TEST(ScalingTicks, CloseSizesShareOneTickThePowerOfTwo) {
  using Ticks = QList<QPair<double, QString>>;
  const Ticks thinned = thinLogTicks(Ticks{{double(1 << 24), "2^24"},
                                           {1000003.0, "1,000,003"},
                                           {double(1 << 20), "2^20"},
                                           {double(1 << 28), "2^28"}});
  QStringList labels;
  for (const auto& t : thinned) labels << t.second;
  EXPECT_EQ(labels, (QStringList{"2^20", "2^24", "2^28"}));
  const Ticks cubes = thinLogTicks(Ticks{{128, "128"}, {256, "256"}, {512, "512"}});
  EXPECT_EQ(cubes.size(), 3) << "a factor of 2 apart: every tick kept";
  EXPECT_EQ(thinLogTicks(Ticks{{1000, "1000"}, {1100, "1100"}}).size(), 1);
}

// Every reduce case has one intensity (1 add per 4 bytes), every scan case another: on a
// roofline all of a family's sizes stacked at one x. A memory-bound document is drawn as the
// memory roofline instead: GB/s against the bytes each case moves, under the bandwidth roofs.
TEST_F(Plots, MemoryBoundFamiliesGetAMemoryRooflineOfBytesMovedNotAStackAtOneIntensity) {
  RunDocument both = vectorDocument("reduce");
  const RunDocument scan = vectorDocument("scan");
  both = merged(both, scan);
  both.device->l2Bytes = 50 * 1024 * 1024;
  open(both);
  RooflinePage* page = w->rooflinePage();
  QCustomPlot* p = page->plot();
  ASSERT_TRUE(page->bandwidthView());
  ASSERT_NE(page->copySlope(), nullptr) << "the measured copy roof is drawn";
  EXPECT_TRUE(page->copySlope()->name().contains("3010"))
      << page->copySlope()->name().toStdString();
  ASSERT_NE(page->memorySlope(), nullptr);
  EXPECT_EQ(p->yAxis->label(), "GB/s");
  std::set<double> reduceX;
  bool l2 = false;
  for (int i = 0; i < p->graphCount(); ++i) {
    l2 |= p->graph(i)->property("role").toString() == "l2";
    if (p->graph(i)->property("series").toString() != "reduce.atomic") continue;
    for (auto it = p->graph(i)->data()->begin(); it != p->graph(i)->data()->end(); ++it) {
      reduceX.insert(std::round(it->key * 1000) / 1000);
      EXPECT_LE(it->value, p->yAxis->range().upper);
    }
  }
  EXPECT_TRUE(l2) << "the L2 capacity is marked";
  // A point per size: 2^20 f32 reads 4 MiB (and writes one element), 2^28 1 GiB.
  ASSERT_GE(reduceX.size(), 4u);
  EXPECT_NEAR(*reduceX.begin(), 1000003 * 4.0 / (1024 * 1024), 0.01);
  EXPECT_NEAR(*reduceX.rbegin(), 1024.0, 0.01);
  shoot(p, "reduce-scan-roofline");
  // GEMM documents keep the roofline.
  open(readDocument(test::sampleRun().toStdString()));
  EXPECT_FALSE(page->bandwidthView());
  EXPECT_EQ(p->yAxis->scaleType(), QCPAxis::stLogarithmic);
}

TEST_F(Plots, CorrectnessGridShowsTheFirstMismatchingIndexOfAVector) {
  open(vectorDocument("scan"));
  CorrectnessPage* page = w->correctnessPage();
  page->rebuildNow();
  QTableWidget* t = page->table();
  QStringList headers;
  for (int c = 0; c < t->columnCount(); ++c) headers << t->horizontalHeaderItem(c)->text();
  EXPECT_TRUE(headers.contains("2^28 f32")) << headers.join(',').toStdString();
  const int col = int(headers.indexOf("1000003 i32"));
  ASSERT_GE(col, 0) << headers.join(',').toStdString();
  QString failing;
  for (int r = 0; r < t->rowCount(); ++r)
    if (t->item(r, col) && t->item(r, col)->text().startsWith("FAIL"))
      failing = t->item(r, col)->text() + "\n" + t->item(r, col)->toolTip();
  EXPECT_TRUE(failing.contains(QString("first at [%1]").arg(kFirstWrong))) << failing.toStdString();
  EXPECT_TRUE(failing.contains("got 8192, expected 4096")) << failing.toStdString();
  shootWidget(page, "scan-correctness");
  // The case dialog says where, instead of a heat map of rows and columns.
  std::unique_ptr<CaseDetailDialog> dialog(w->caseDialog("scan.blelloch", QString("1000003 i32")));
  ASSERT_NE(dialog, nullptr);
  EXPECT_TRUE(dialog->heatMap()->message().contains("first mismatch at index 4,096"))
      << dialog->heatMap()->message().toStdString();
  EXPECT_EQ(dialog->heatMap()->shownGrid(), nullptr);
}

TEST_F(Plots, KernelListHasASectionPerProblemFamily) {
  const QStringList gemmOnly = sectionTitles(w->kernelList());
  EXPECT_FALSE(gemmOnly.contains("GEMM")) << "a GEMM-only catalog keeps its flat groups";
  open(merged(doc, merged(vectorDocument("reduce"), vectorDocument("scan"))));
  KernelListWidget* list = w->kernelList();
  EXPECT_EQ(sectionTitles(list), (QStringList{"GEMM", "Reduce", "Scan"}));
  QTreeWidgetItem* reduce = list->topLevelItem(1);
  QStringList groups;
  for (int i = 0; i < reduce->childCount(); ++i) groups << reduce->child(i)->text(0);
  EXPECT_EQ(groups, (QStringList{"reduce", "References (cub)"}));
  // A section's box (un)checks every kernel of the family, and only those.
  reduce->setCheckState(0, Qt::Unchecked);
  const QStringList unchecked = list->uncheckedIds();
  EXPECT_TRUE(unchecked.contains("reduce.vectorized"));
  EXPECT_TRUE(unchecked.contains("cub.reduce_sum"));
  EXPECT_FALSE(unchecked.contains("scan.blelloch"));
  EXPECT_FALSE(unchecked.contains("sgemm.tiled"));
  EXPECT_FALSE(w->model()->isShown(QString("reduce.vectorized")));
  shootWidget(list, "kernel-list-sections");
}

TEST_F(Plots, AMixedDocumentKeepsGemmInGflopsAndPlotsItsVectorsInGbps) {
  open(merged(doc, vectorDocument("reduce")));
  // Scaling has one unit: GFLOP/s for the GEMM cases; the reduce cases are not on it.
  // (read in TFLOP/s: the axis reaches past 10,000 GFLOP/s)
  EXPECT_TRUE(w->scalingPage()->plot()->yAxis->label().startsWith("TFLOP/s"))
      << w->scalingPage()->plot()->yAxis->label().toStdString();
  EXPECT_EQ(w->scalingPage()->lineOf("reduce.vectorized"), nullptr);
  EXPECT_NE(w->scalingPage()->lineOf("sgemm.tiled"), nullptr);
  ProgressionPage* page = w->progressionPage();
  page->shapeCombo()->selectShape(kReduce28);
  page->rebuildNow();
  EXPECT_EQ(page->plot()->yAxis->label(), "GB/s");
  page->shapeCombo()->selectShape(Shape{1024, 1024, 1024});
  page->rebuildNow();
  EXPECT_EQ(page->plot()->yAxis->label(), "TFLOP/s");
}

TEST_F(Plots, ReportOfAReduceRunIsInGbpsWithTheFirstWrongIndex) {
  open(vectorDocument("reduce"));
  QTemporaryDir dir;
  ReportInputs in;
  in.model = w->model();
  in.progression = w->progressionPage();
  in.timing = w->timingPage();
  in.plots = {w->scalingPage(), w->rooflinePage()};
  QStringList plotTitles;
  in.afterPlot = [&](QCustomPlot* plot, QPaintDevice*) { plotTitles << titleOf(plot); };
  ASSERT_EQ(writeReportPdf(in, dir.filePath("r.pdf")), "");
  EXPECT_TRUE(plotTitles.filter("GFLOP/s at").isEmpty()) << plotTitles.join('|').toStdString();
  EXPECT_FALSE(plotTitles.filter("GB/s at 2^28 f32").isEmpty())
      << plotTitles.join('|').toStdString();
  EXPECT_EQ(headlineUnit(w->model()->document()), "GB/s");
}

// tests/data/gui-synthetic-{reduce,scan}.json are vectorDocument written as schema 4: rewritten
// with KWB_WRITE_FIXTURES=1, and read back here to the same cases, so the GUI opens a 1-D
// document from a file as it does from memory.
TEST(SyntheticVectorSamples, FilesHoldTheFixtureDocuments) {
  for (const std::string problem : {"reduce", "scan"}) {
    const RunDocument made = vectorDocument(problem);
    const QString path = test::fixture(QString("gui-synthetic-%1.json").arg(qtext(problem)));
    if (qEnvironmentVariableIsSet("KWB_WRITE_FIXTURES")) writeFixture(made, path);
    const RunDocument read = readDocument(path.toStdString());
    ASSERT_EQ(read.cases.size(), made.cases.size()) << path.toStdString();
    for (std::size_t i = 0; i < made.cases.size(); ++i) {
      EXPECT_EQ(sizeName(read.cases[i]), sizeName(made.cases[i]));
      EXPECT_EQ(read.cases[i].status, made.cases[i].status);
      const double v = headline(made, made.cases[i]);
      EXPECT_NEAR(headline(read, read.cases[i]), v, 1e-9 * v);
      ASSERT_EQ(read.cases[i].verification.has_value(), made.cases[i].verification.has_value());
      if (made.cases[i].verification) {
        EXPECT_EQ(read.cases[i].verification->compare.firstMismatchIndex,
                  made.cases[i].verification->compare.firstMismatchIndex);
      }
    }
    ASSERT_TRUE(read.device);
    EXPECT_DOUBLE_EQ(read.device->copyBandwidthGBs, kCopyGBs);
  }
}
