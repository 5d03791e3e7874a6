// SPDX-License-Identifier: Apache-2.0
// The case dialog's depth (docs/GUI.md, "The case dialog"): a Nsight Compute profile's launch
// statistics, warp stalls, memory traffic and roofline placement; a 1-D case's details given
// the dialog's width.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <qcustomplot.h>

#include "families_fixture.h"
#include "gui_test_support.h"
#include "kwb/text_file.h"
#include "panels/case_detail_dialog.h"
#include "panels/ncu_profile_panel.h"
#include "plots/error_heat_map.h"

namespace kwb::gui {
namespace {

// A timed 512³ case of sgemm.warp_tiled on a device with H200-like peaks.
struct Case512 {
  CaseResult c;
  RunDocument doc;
  Case512() {
    c.kernel = "sgemm.warp_tiled";
    c.size = kwb::gemmSize({512, 512, 512});
    c.status = CaseStatus::kPass;
    c.precision = Precision::kFp32;
    c.gflops = 9000;
    c.samplesMs = {0.0298};
    DeviceInfo d;
    d.name = "fixture device";
    d.peakFp32Tflops = 66.9;
    d.peakBandwidthGBs = 4800;
    doc.device = d;
    doc.gitRevision = "abc123";
    doc.cases = {c};
  }
};

// Writes `p` where the panel looks for an earlier profile of `c` and opens the dialog on it.
struct Shown {
  QTemporaryDir dir;
  std::unique_ptr<CaseDetailDialog> dialog;
  NcuProfilePanel* panel = nullptr;
  Shown(const Case512& k, NcuProfile p) {
    p.kernel = k.c.kernel;
    p.size = k.c.size;
    p.config = "default";
    p.gitRevision = "abc123";
    const ProfileContext ctx{QString(), dir.path(), "abc123"};
    dialog = std::make_unique<CaseDetailDialog>(k.c, k.doc);
    {
      NcuProfilePanel probe(k.c, ctx);
      QFile f(probe.profileJsonPath());
      EXPECT_TRUE(f.open(QIODevice::WriteOnly));
      f.write(QByteArray::fromStdString(ncuProfileToJson(p)));
    }
    panel = dialog->enableProfiling(ctx);
  }
};

NcuProfile fixtureProfile() {
  NcuProfile p;
  p.kernels = parseNcuRawCsv(
      readTextFile(test::fixture("ncu-raw-splitk-full.csv").toStdString(), "fixture", 1 << 20),
      "ncu-raw-splitk-full.csv");
  return p;
}

TEST(CaseDialogDepth, ShowsLaunchStatisticsStallsMemoryAndTheRooflinePlacement) {
  const Case512 k;
  Shown s(k, fixtureProfile());
  NcuProfilePanel* panel = s.panel;
  ASSERT_TRUE(panel->profile().has_value()) << panel->statusText().toStdString();
  EXPECT_FALSE(panel->isStale()) << panel->statusText().toStdString();
  EXPECT_FALSE(panel->tabs()->isHidden());
  for (int i = 0; i < panel->tabs()->count(); ++i)
    EXPECT_TRUE(panel->tabs()->isTabEnabled(i)) << panel->tabs()->tabText(i).toStdString();

  // Launch statistics: one row per kernel (two launches of each averaged).
  QTableWidget* launch = panel->launchTable();
  ASSERT_EQ(launch->rowCount(), 2);
  EXPECT_EQ(launch->item(0, 0)->text(), "sgemmWarpTiledKernel");
  EXPECT_EQ(launch->item(0, 1)->text(), "(4, 8, 4)");
  EXPECT_EQ(launch->item(0, 2)->text(), "(256, 1, 1)");
  EXPECT_EQ(launch->item(0, 3)->text(), "168");
  EXPECT_EQ(launch->item(0, 4)->text(), "46.9");  // 48,000 bytes in KiB
  EXPECT_EQ(launch->item(0, 5)->text(), "12.5");
  EXPECT_EQ(launch->item(0, 6)->text(), "6.2");
  EXPECT_EQ(launch->item(0, 7)->text(), "0.24");
  EXPECT_TRUE(launch->item(1, 0)->toolTip().contains("splitKReduce"));

  // Warp stalls of the kernel the case spends longest in, with their unit.
  EXPECT_EQ(panel->stallKernel()->currentIndex(), 0);
  QCustomPlot* stalls = panel->stallPlot();
  ASSERT_EQ(stalls->plottableCount(), 1);
  auto* bars = qobject_cast<QCPBars*>(stalls->plottable(0));
  ASSERT_NE(bars, nullptr);
  EXPECT_EQ(bars->data()->size(), 7) << "every stall but selected and not_selected";
  EXPECT_EQ(stalls->xAxis->label(), "warp cycles stalled per issued instruction");
  EXPECT_NEAR(bars->data()->at(bars->data()->size() - 1)->value, 0.45, 1e-9)
      << "the top bar is the largest stall, short_scoreboard";
  panel->stallKernel()->setCurrentIndex(1);
  auto* reduce = qobject_cast<QCPBars*>(stalls->plottable(0));
  ASSERT_NE(reduce, nullptr);
  EXPECT_NEAR(reduce->data()->at(reduce->data()->size() - 1)->value, 15.03, 1e-9)
      << "the reduction's long_scoreboard";

  // Memory traffic per kernel, then the DRAM bytes of one launch of the case.
  QTableWidget* memory = panel->memoryTable();
  ASSERT_EQ(memory->rowCount(), 3);
  EXPECT_EQ(memory->item(0, 1)->text(), "2.10");   // DRAM read MB
  EXPECT_EQ(memory->item(0, 4)->text(), "25.17");  // L2 MB
  EXPECT_EQ(memory->item(0, 7)->text(), "3149");   // L1 GB/s, mean of 3171.05 and 3127
  const double perLaunch =
      (2097152 + 24832 + 4194304 + 1048576 + 2098176 + 24576 + 4194304 + 1048576) / 2.0;
  EXPECT_EQ(memory->item(2, 3)->text(), QString::number(perLaunch / 1e6, 'f', 2) + " MB");

  // The roofline: the case at its declared intensity and at the one its DRAM bytes give.
  QCustomPlot* roof = panel->rooflinePlot();
  ASSERT_EQ(roof->graphCount(), 3);
  const double flops = 2.0 * 512 * 512 * 512, declared = 3.0 * 512 * 512 * 4;
  EXPECT_NEAR(roof->graph(1)->data()->at(0)->key, flops / perLaunch, 1e-9);
  EXPECT_NEAR(roof->graph(2)->data()->at(0)->key, flops / declared, 1e-9);
  EXPECT_NEAR(roof->graph(1)->data()->at(0)->value, 9000, 1e-9);
  EXPECT_TRUE(panel->rooflineText()->text().contains(QString::number(perLaunch / declared, 'f', 2) +
                                                     "× the 3.15 MB minimum"))
      << panel->rooflineText()->text().toStdString();
}

// A profile recorded before kwb read these figures (the H200 sample at 393b681): the tabs say so.
TEST(CaseDialogDepth, AProfileWithoutTheFiguresSaysSoInsteadOfShowingZeros) {
  const Case512 k;
  const std::string sample =
      test::fixture("ncu-profile-before-launch-statistics.json").toStdString();
  Shown s(k, ncuProfileFromJson(readTextFile(sample, "sample", 1 << 20), sample));
  NcuProfilePanel* panel = s.panel;
  ASSERT_TRUE(panel->profile().has_value());
  ASSERT_EQ(panel->launchTable()->rowCount(), 1);
  EXPECT_TRUE(panel->launchTable()->item(0, 0)->text().contains("Profile again"));
  ASSERT_EQ(panel->memoryTable()->rowCount(), 1);
  EXPECT_TRUE(panel->memoryTable()->item(0, 0)->text().contains("Profile again"));
  EXPECT_EQ(panel->stallPlot()->plottableCount(), 0);
  // Its DRAM bytes still place the case on the roofline.
  EXPECT_EQ(panel->rooflinePlot()->graphCount(), 3);
}

// A 1-D case has no matrix to map: its details take the dialog's width, and the Nsight panel
// without a profile is a row of buttons under them, not a box beside them.
TEST(CaseDialogDepth, AOneDimensionalCaseGivesItsDetailsTheRoom) {
  const RunDocument doc = test::vectorDocument("reduce");
  ASSERT_FALSE(doc.cases.empty());
  QTemporaryDir dir;
  CaseDetailDialog dialog(doc.cases.front(), doc);
  NcuProfilePanel* panel = dialog.enableProfiling({QString(), dir.path(), "abc123"});
  dialog.resize(1280, 720);
  dialog.show();
  QApplication::processEvents();
  EXPECT_TRUE(dialog.heatMap()->isHidden());
  const std::string type = doc.cases.front().size.word("type");
  ASSERT_FALSE(type.empty());
  EXPECT_TRUE(dialog.details()->toHtml().contains(QString::fromStdString(type)));
  CaseResult i32 = doc.cases.front();
  i32.size.axes[1].word = "i32";
  EXPECT_TRUE(CaseDetailDialog::describe(i32, doc).contains("<b>precision</b></td><td>i32"))
      << "the size's element type, not the kernel's fp32";
  EXPECT_GE(dialog.details()->width(), int(0.9 * dialog.width())) << dialog.details()->width();
  EXPECT_TRUE(panel->tabs()->isHidden()) << "no profile: no empty tabs";
  EXPECT_LE(panel->height(), 120);
  EXPECT_GE(dialog.details()->height(), dialog.height() - 220);
  // A GEMM case keeps its heat map beside the details.
  const Case512 k;
  CaseDetailDialog gemm(k.c, k.doc);
  EXPECT_FALSE(gemm.heatMap()->isHidden());
}

}  // namespace
}  // namespace kwb::gui

namespace kwb::gui {

// kwb run --energy: the case dialog shows the window's figures, or why there are none.
TEST(CaseDialogEnergy, ShowsWorkPerJouleWithItsBoundOrWhyItIsMissing) {
  Case512 k;
  EXPECT_FALSE(CaseDetailDialog::describe(k.c, k.doc).contains("energy"));
  EnergyReading e;
  e.requestedS = 1;
  e.windowS = 1.02;
  e.launches = 34000;
  e.joules = 612;
  e.joulesPerLaunch = 0.018;
  e.powerW = 600;
  e.idlePowerW = 95;
  e.powerLimitW = 700;
  e.uncertaintyPct = 0.12;
  e.workPerJoule = 14.9;
  e.workUnit = "GFLOP/J";
  k.c.energy = e;
  const QString html = CaseDetailDialog::describe(k.c, k.doc);
  EXPECT_TRUE(html.contains("14.9 GFLOP/J ± 0.12%")) << html.toStdString();
  EXPECT_TRUE(html.contains("600 W")) << html.toStdString();
  EXPECT_TRUE(html.contains("34000 launches")) << html.toStdString();
  k.c.energy = EnergyReading{};
  k.c.energy->unavailable = "energy counter unreadable: Not Supported";
  EXPECT_TRUE(CaseDetailDialog::describe(k.c, k.doc).contains("not measured: energy counter"));
}

}  // namespace kwb::gui
