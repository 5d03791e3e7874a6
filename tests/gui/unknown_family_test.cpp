// SPDX-License-Identifier: Apache-2.0
// A document of a problem family this build does not know ("copy": a count and an element
// type, GB/s its headline) opens and shows its cases on every tab, named and measured as its
// declaration in doc.families says: no page asks a table of families.
#include <QTableWidget>

#include "kwb/error.h"
#include "kwb/results_json.h"
#include "model/case_size.h"
#include "pages/baseline_page.h"
#include "panels/case_detail_dialog.h"
#include "panels/shape_combo.h"
#include "panels/shape_list_widget.h"
#include "plots_fixture.h"

using namespace kwb;
using namespace kwb::gui;
using namespace kwb::gui::test;

namespace {

constexpr std::int64_t k20 = std::int64_t{1} << 20;
constexpr std::int64_t k24 = std::int64_t{1} << 24;

FamilyInfo copyFamily() {
  FamilyInfo f;
  f.id = "copy";
  f.title = "Device copy";
  f.axes = {AxisSpec{"count", AxisKind::kCount, {}, {}, 0},
            AxisSpec{"type", AxisKind::kWord, {}, {"f32", "i32"}}};
  f.headline = Metric::kGbps;
  f.roof = "device-to-device copy bandwidth";
  f.reference = "copy.ref";
  return f;
}

KernelInfo copyKernel(const std::string& id, int stage) {
  KernelInfo k;
  k.id = id;
  k.name = "copy " + id.substr(5);
  k.family = stage ? "copy" : "ref";
  k.stage = stage;
  k.precision = "fp32";
  k.reference = stage == 0;
  k.description = "synthetic copy kernel";
  k.problem = "copy";
  return k;
}

CaseResult copyCase(const std::string& kernel, std::int64_t count, const std::string& type,
                    double gbps) {
  CaseResult c;
  c.kernel = kernel;
  c.size = vectorSize("copy", count, type);
  c.status = CaseStatus::kPass;
  const double ms = 8.0 * double(count) / (gbps * 1e9) * 1e3;  // read and write 4 bytes each
  c.samplesMs.assign(12, ms);
  c.summary = stats::summarize(c.samplesMs);
  c.summary.ci95 = {ms * 0.99, ms * 1.01};
  c.bandwidthGBs = gbps;
  c.figures = {{"gbps", gbps}, {"pct_of_reference", 100 * gbps / 2900}};  // no GFLOP/s at all
  Verification v;
  v.reference = "copy.ref";
  v.compare.elements = count;
  v.negativeControlRejected = true;
  c.verification = v;
  return c;
}

// SYNTHETIC TEST DATA: invented figures of a family no build of kwb has.
RunDocument copyDocument() {
  RunDocument doc;
  doc.toolVersion = "synthetic";
  doc.timestamp = "2026-11-26T12:00:00Z";
  DeviceInfo d;
  d.name = "synthetic fixture";
  d.peakFp32Tflops = 60;
  d.peakBandwidthGBs = 3350;
  d.copyBandwidthGBs = 3010;
  doc.device = d;
  doc.families = {copyFamily()};
  doc.kernels = {copyKernel("copy.naive", 1), copyKernel("copy.vectorized", 2),
                 copyKernel("copy.ref", 0)};
  for (const auto& [count, type] :
       {std::pair{k20, "f32"}, std::pair{k24, "f32"}, std::pair{k20, "i32"}}) {
    doc.cases.push_back(copyCase("copy.ref", count, type, 2900));
    doc.cases.push_back(copyCase("copy.naive", count, type, 900));
    doc.cases.push_back(copyCase("copy.vectorized", count, type, 2600));
  }
  // copy.naive at 2^20 i32 wrote a wrong element.
  CaseResult& bad = doc.cases[7];
  bad.status = CaseStatus::kFail;
  bad.samplesMs.clear();
  bad.verification->compare.mismatches = 1;
  bad.verification->compare.firstMismatchIndex = 77;
  return doc;
}

QStringList headers(const QTableWidget* t) {
  QStringList out;
  for (int c = 0; c < t->columnCount(); ++c) out << t->horizontalHeaderItem(c)->text();
  return out;
}

}  // namespace

TEST_F(Plots, ADocumentOfAnUnknownFamilyOpensOnEveryTab) {
  const RunDocument copy = copyDocument();
  ASSERT_EQ(copy.cases[7].kernel, "copy.naive");
  QTemporaryDir dir;
  const QString path = dir.filePath("copy.json");
  writeDocument(copy, path.toStdString());  // and read back: schema 6 carries the family
  ASSERT_EQ(w->openResults(path), "");
  ASSERT_EQ(w->openBaseline(path), "");
  for (const QString& tab : w->tabNames()) {
    ASSERT_TRUE(w->selectTab(tab)) << tab.toStdString();
    w->rebuildAllNow();
    EXPECT_FALSE(w->grab().isNull()) << tab.toStdString();
  }

  // Correctness: a column per size, written as the family's axes say.
  const QStringList columns = headers(w->correctnessPage()->table());
  EXPECT_EQ(columns, (QStringList{"2^20 f32", "2^24 f32", "2^20 i32"}));
  QString failing;
  QTableWidget* grid = w->correctnessPage()->table();
  for (int r = 0; r < grid->rowCount(); ++r)
    if (grid->item(r, 2) && grid->item(r, 2)->text().startsWith("FAIL"))
      failing = grid->item(r, 2)->text();
  EXPECT_TRUE(failing.contains("first at [77]")) << failing.toStdString();

  // Progression: GB/s, the headline its declaration names, at the size chosen.
  ProgressionPage* page = w->progressionPage();
  page->shapeCombo()->selectShape(vectorSize("copy", k20, "f32"));
  page->rebuildNow();
  EXPECT_EQ(page->shapeCombo()->currentText(), "2^20 f32");
  EXPECT_EQ(page->plot()->yAxis->label(), "GB/s");
  ASSERT_NE(page->bars(), nullptr);
  bool vectorized = false;
  for (auto it = page->bars()->data()->begin(); it != page->bars()->data()->end(); ++it)
    vectorized |= std::abs(it->value - 2600) < 1e-6;
  EXPECT_TRUE(vectorized) << "no bar at copy.vectorized's 2600 GB/s";

  // Scaling in GB/s against the count; the baseline pairs every timed case.
  EXPECT_TRUE(w->scalingPage()->plot()->yAxis->label().startsWith("GB/s"));
  EXPECT_NE(w->scalingPage()->lineOf("copy.vectorized"), nullptr);
  QTableWidget* base = w->baselinePage()->table();
  EXPECT_EQ(base->rowCount(), 8) << "nine cases, one not timed";
  EXPECT_EQ(headers(base).value(2), "baseline GB/s");

  // The case dialog reads its size text with the family's declaration.
  std::unique_ptr<CaseDetailDialog> dialog(w->caseDialog("copy.vectorized", QString("2^24 f32")));
  ASSERT_NE(dialog, nullptr);
  const CaseResult* c24 = copy.find("copy.vectorized", vectorSize("copy", k24, "f32"));
  ASSERT_NE(c24, nullptr);
  const QString html = CaseDetailDialog::describe(*c24, copy);
  EXPECT_TRUE(html.contains("GB/s")) << html.toStdString();
  EXPECT_TRUE(html.contains("% of copy.ref")) << html.toStdString();
  EXPECT_THROW(w->caseDialog("copy.vectorized", QString("2^24 f64")), InputError);

  // The report draws it too.
  ReportInputs in;
  in.model = w->model();
  in.progression = w->progressionPage();
  in.timing = w->timingPage();
  in.plots = {w->scalingPage(), w->rooflinePage()};
  EXPECT_EQ(writeReportPdf(in, dir.filePath("copy.pdf")), "");
}

// A size typed by hand is read with the declaration of the checked kernels' family, whatever
// family that is; text that is no size of it is refused with the parser's message.
TEST(UnknownFamilyShapes, ATypedSizeIsReadAsASizeOfTheCheckedKernelsFamily) {
  ShapeListWidget shapes;
  shapes.addFamilies({copyFamily()});
  shapes.setKernelFamilies({"copy"});
  shapes.addShape("2^22 i32", true);
  ASSERT_EQ(shapes.checkedShapes().size(), 1);
  EXPECT_EQ(shapes.checkedShapes()[0], vectorSize("copy", std::int64_t{1} << 22, "i32"));
  EXPECT_EQ(shapes.customShapes(), QStringList{"2^22 i32"});
  shapes.editor()->setText("2^22 u8");  // no word of the copy family
  EXPECT_FALSE(shapes.addButton()->isEnabled());
  EXPECT_TRUE(shapes.messageLabel()->text().contains("2^22 u8"))
      << shapes.messageLabel()->text().toStdString();
  shapes.addShape("2^22 u8", true);
  EXPECT_EQ(shapes.checkedShapes().size(), 1);
}
