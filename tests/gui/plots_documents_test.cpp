// SPDX-License-Identifier: Apache-2.0
// Plots of unusual documents (no timed cases, impossible speeds, a broken file), names from the
// engine, a file that changes on disk, palettes, and report plots that never clip.
#include "plots_fixture.h"
#include "model/case_size.h"
#include "plots/plot_helpers.h"
#include "report/report_painter.h"

using namespace kwb;
using namespace kwb::gui;
using namespace kwb::gui::test;

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
  EXPECT_TRUE(w->timingPage()->orderRect()->axis(QCPAxis::atLeft)->visible());
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
  if (std::any_of(d.cases.begin(), d.cases.end(),
                  [&](const CaseResult& c) { return hasSpeed(d, c); }))
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
  const KernelLookup engine = KernelLookup::fromListJson(list.readAllStandardOutput());
  const KernelLookup fromDoc =
      KernelLookup::fromDocument(readDocument(test::sampleRun().toStdString()));
  int compared = 0;
  for (const KernelInfo& k : fromDoc.kernels()) {
    const KernelInfo e = engine.info(k.id);
    if (e.name.empty() || e.name == e.id) continue;  // a kernel this build does not have
    EXPECT_EQ(k.name, e.name) << k.id;
    EXPECT_EQ(k.stage, e.stage) << k.id;
    ++compared;
  }
  EXPECT_GE(compared, 10);
}

// A results file written again (a run finishing into it) is reloaded without asking.
TEST(GuiFiles, TheOpenFileIsReloadedWhenItChangesOnDisk) {
  QTemporaryDir dir;
  RunDocument d = readDocument(test::sampleRun().toStdString());
  const QString path = test::writeFixture(d, dir.filePath("r.json"));
  WindowOptions o = test::quietWindow();
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

// The fifteen SGEMM kernels (the BF16 ones last), fifteen colours apart from each other and
// from the grey roofs.
TEST(GuiPalette, KernelColoursAreDistinctAndNeverGrey) {
  QStringList ids{"sgemm.naive",         "sgemm.tiled",          "sgemm.bank_free",
                  "sgemm.double_buffer", "sgemm.tensor_core",    "sgemm.register_blocked",
                  "sgemm.warp_tiled",    "sgemm.mma_multistage", "sgemm.wgmma",
                  "cublas.sgemm",        "cublas.hgemm_f32acc",  "cublas.tf32"};
  ids << "sgemm.mma_multistage_bf16"
      << "sgemm.wgmma_bf16"
      << "cublas.bgemm_f32acc";
  for (int i = 0; i < ids.size(); ++i) {
    EXPECT_GT(kernelColor(ids[i]).hsvSaturation(), 60) << i;
    for (int j = 0; j < i; ++j) {
      const QColor a = kernelColor(ids[i]), b = kernelColor(ids[j]);
      const double d = std::hypot(a.red() - b.red(), a.green() - b.green(), a.blue() - b.blue());
      EXPECT_GT(d, 70) << ids[i].toStdString() << " and " << ids[j].toStdString();
    }
  }
  // A kernel no palette slot names keeps one colour too, from its id alone.
  EXPECT_EQ(kernelColor("user.my_sgemm"), kernelColor(QString("user.") + "my_sgemm"));
}

// A BF16 case is a percent of cuBLAS BF16 only (never of the FP16 reference), its FP32 fallback
// of cuBLAS SGEMM; it reads 2-byte inputs, as an FP16 case does.
TEST(GuiPercent, Bf16CasesAreAPercentOfCublasBf16) {
  RunDocument doc;
  CaseResult c;
  c.kernel = "sgemm.wgmma_bf16";
  c.size = gemmSize({1024, 1024, 1024});
  c.precision = Precision::kBf16Fp32Acc;
  c.pctOfFp32Reference = 900.0;
  c.pctOfFp16Reference = 50.0;  // planted: a BF16 case must not be read against FP16
  EXPECT_FALSE(refPercent(doc, c).has_value());
  c.pctOfBf16Reference = 97.5;
  auto r = refPercent(doc, c);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->reference, "cuBLAS BF16");
  EXPECT_EQ(r->pct, 97.5);
  CaseResult fp16 = c;
  fp16.precision = Precision::kFp16Fp32Acc;
  EXPECT_EQ(declaredWork(c).bytes, declaredWork(fp16).bytes);
  c.fallback = true;
  r = refPercent(doc, c);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->reference, "cuBLAS SGEMM");
  EXPECT_GT(declaredWork(c).bytes, declaredWork(fp16).bytes);  // the FP32 path reads 4 bytes
}

// A kernel keeps its colour when a reload drops another kernel listed before it: colours follow
// the id, not the position in the list.
TEST(GuiPalette, AKernelKeepsItsColourAcrossAReloadThatDropsAnother) {
  QTemporaryDir dir;
  RunDocument d = readDocument(test::sampleRun().toStdString());
  const QString path = test::writeFixture(d, dir.filePath("r.json"));
  WindowOptions o = test::quietWindow();
  MainWindow w(o);
  ASSERT_EQ(w.openResults(path), "");
  w.rebuildAllNow();
  auto colours = [&] {
    std::map<std::string, QColor> out;
    for (const auto& c : w.model()->document().cases)
      if (QCPGraph* g = w.scalingPage()->lineOf(QString::fromStdString(c.kernel)))
        out[c.kernel] = g->pen().color();
    return out;
  };
  const auto before = colours();
  ASSERT_GT(before.size(), 3u);
  const std::string dropped = d.cases.front().kernel;
  std::erase_if(d.cases, [&](const CaseResult& c) { return c.kernel == dropped; });
  d.kernels.erase(std::remove_if(d.kernels.begin(), d.kernels.end(),
                                 [&](const auto& k) { return k.id == dropped; }),
                  d.kernels.end());
  test::writeFixture(d, path);
  ASSERT_EQ(w.openResults(path), "");
  w.rebuildAllNow();
  const auto after = colours();
  EXPECT_EQ(after.count(dropped), 0u);
  ASSERT_EQ(after.size(), before.size() - 1);
  for (const auto& [id, colour] : after)
    EXPECT_EQ(colour.name().toStdString(), before.at(id).name().toStdString()) << id;
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

// Tick labels are plain numbers: never "1e+06" beside "500000"; a GFLOP/s axis that reaches
// 10,000 reads TFLOP/s, its ticks the data ÷ 1000.
TEST(GuiTicks, PlainNumbersAndTflopsAxes) {
  for (double v : {500000.0, 1e6, 2e7, 0.25, 12.5, 3000.0}) {
    EXPECT_FALSE(plainNumber(v).contains('e')) << v;
    EXPECT_EQ(plainNumber(v).remove(QChar(0x2009)).toDouble(), v) << plainNumber(v).toStdString();
  }
  const QString thin(QChar(0x2009));
  EXPECT_EQ(plainNumber(1e6), "1" + thin + "000" + thin + "000");
  QCustomPlot plot;
  makeRateAxis(plot.yAxis, false, "GFLOP/s");
  plot.yAxis->setRange(0, 50000);
  fitRateUnit(plot.yAxis, "GFLOP/s");
  EXPECT_EQ(plot.yAxis->label(), "TFLOP/s");
  plot.replot();
  EXPECT_TRUE(plot.yAxis->tickVectorLabels().contains("20"))
      << plot.yAxis->tickVectorLabels().join('|').toStdString();
  plot.yAxis->setRange(0, 900);
  fitRateUnit(plot.yAxis, "GFLOP/s");
  EXPECT_EQ(plot.yAxis->label(), "GFLOP/s");
  makeRateAxis(plot.yAxis, true, "GB/s");
  plot.yAxis->setRange(100, 50000);
  fitRateUnit(plot.yAxis, "GB/s");
  EXPECT_EQ(plot.yAxis->label(), "GB/s (log)");
}

// The report summary's "% of its precision's reference" cells ("51.1% of cuBLAS SGEMM") were
// wider than their column and, right-aligned, were drawn whole: they ran into the shape column
// and "2048³" covered their first digits. A body cell now fits its width; a header may wrap.
TEST(ReportTable, ABodyCellNeverOverrunsItsColumnWhateverItsAlignment) {
  const QFontMetrics fm(reportFont(8, false));
  const QString wide = "51.1% of cuBLAS SGEMM";
  const double width = fm.horizontalAdvance(wide) / 2.0;
  const QString shown = tableCellText(fm, wide, width, false);
  EXPECT_LE(fm.horizontalAdvance(shown), width - 6);
  EXPECT_TRUE(shown.startsWith("51.1%")) << shown.toStdString();
  EXPECT_EQ(tableCellText(fm, wide, width, true), wide) << "headers wrap, never elided";
  EXPECT_EQ(tableCellText(fm, "2048³", 200, false), "2048³");
}
