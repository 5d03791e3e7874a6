// SPDX-License-Identifier: Apache-2.0
// The GUI names, orders and stages kernels from what a results document says of them (its
// `kernels` list) and from the engine's `kwb list --json`, never from a table of its own; and
// a run from a preset records the preset's name.
#include <gtest/gtest.h>

#include <QTemporaryDir>
#include <algorithm>

#include "app/main_window.h"
#include "gui_test_support.h"
#include "kwb/results.h"
#include "kwb/stats.h"
#include "model/doc_queries.h"
#include "model/run_request.h"
#include "pages/progression_page.h"
#include "panels/kernel_list_widget.h"
#include "panels/run_panel.h"
#include "panels/shape_list_widget.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

QTreeWidgetItem* kernelItem(KernelListWidget* list, const QString& id) {
  for (int i = 0; i < list->topLevelItemCount(); ++i)
    for (int j = 0; j < list->topLevelItem(i)->childCount(); ++j)
      if (list->topLevelItem(i)->child(j)->data(0, Qt::UserRole).toString() == id)
        return list->topLevelItem(i)->child(j);
  return nullptr;
}

}  // namespace

TEST(GuiDocumentKernels, AKernelTheGuiHasNeverSeenIsNamedAndStagedFromTheDocument) {
  RunDocument doc = readDocument(test::syntheticRun().toStdString());
  const auto naive = std::find_if(doc.cases.begin(), doc.cases.end(), [&](const CaseResult& c) {
    return c.kernel == "sgemm.naive" && hasSpeed(doc, c);
  });
  ASSERT_NE(naive, doc.cases.end());
  CaseResult future = *naive;
  future.kernel = "sgemm.future_stage";
  // Faster than every stage: no progression violation of its own.
  for (double& ms : future.samplesMs) ms /= 50;
  future.summary = stats::summarize(future.samplesMs);
  future.gflops *= 50;
  doc.cases.push_back(future);
  KernelInfo k;
  k.id = "sgemm.future_stage";
  k.name = "Future stage";
  k.family = "sgemm";
  k.stage = 10;
  k.precision = "fp32";
  k.description = "A stage written after this GUI";
  doc.kernels.push_back(k);
  QTemporaryDir dir;
  const QString path = test::writeFixture(doc, dir.filePath("future.json"));

  WindowOptions o = test::quietWindow();
  MainWindow w(o);
  ASSERT_EQ(w.openResults(path), "");
  w.rebuildAllNow();

  // The kernel list: "10 Future stage", last of the sgemm stages, its description as tooltip.
  QTreeWidgetItem* item = kernelItem(w.kernelList(), "sgemm.future_stage");
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(item->text(0), "10 Future stage");
  EXPECT_TRUE(item->toolTip(0).contains("A stage written after this GUI"));
  QTreeWidgetItem* family = item->parent();
  EXPECT_EQ(family->indexOfChild(item), family->childCount() - 1);
  EXPECT_EQ(w.model()->catalog().info(std::string_view("sgemm.future_stage")).stage, 10);

  // The progression page draws it as stage 10, after every other stage.
  ProgressionPage* p = w.progressionPage();
  p->shapeCombo()->selectShape(future.shape());
  p->rebuildNow();
  auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(p->plot()->xAxis->ticker());
  ASSERT_TRUE(ticker);
  ASSERT_FALSE(ticker->ticks().isEmpty());
  EXPECT_EQ(ticker->ticks().last(), "10\nfuture stage");
}

TEST(GuiDocumentKernels, WithoutItsEntryAnUnknownKernelIsNoStage) {
  // Planted fault: the same document without the kernel's entry. The GUI has no table to fall
  // back on, so the kernel keeps its id as its name and is left off the progression.
  RunDocument doc = readDocument(test::syntheticRun().toStdString());
  CaseResult future = doc.cases.front();
  future.kernel = "sgemm.future_stage";
  doc.cases.push_back(future);
  QTemporaryDir dir;
  const QString path = test::writeFixture(doc, dir.filePath("unlisted.json"));
  WindowOptions o = test::quietWindow();
  MainWindow w(o);
  ASSERT_EQ(w.openResults(path), "");
  const KernelInfo info = w.model()->catalog().info(std::string_view("sgemm.future_stage"));
  EXPECT_EQ(info.name, "sgemm.future_stage");
  EXPECT_EQ(info.stage, 0);
  for (const KernelInfo& s : w.model()->catalog().stages()) {
    if (s.id == "sgemm.future_stage") {
      EXPECT_EQ(s.stage, 0);
    }
  }
}

TEST(GuiRun, TheRunPanelsEnergyWindowIsPassedOnlyWhenOn) {
  RunPanel panel;
  RunRequest r;
  r.kernels = {"sgemm.naive"};
  r.sizes = {Shape{64, 64, 64}};
  r.energySeconds = panel.energySeconds();
  EXPECT_FALSE(r.toArguments().contains("--energy")) << "off by default";
  panel.setEnergySeconds(2.5);
  r.energySeconds = panel.energySeconds();
  const QStringList args = r.toArguments();
  ASSERT_TRUE(args.contains("--energy")) << args.join(' ').toStdString();
  EXPECT_EQ(args.value(args.indexOf("--energy") + 1), "2.5");
  panel.setEnergySeconds(500);  // beyond the panel's minute: held to it
  EXPECT_DOUBLE_EQ(panel.energySeconds(), 60.0);
}

TEST(GuiPresets, ARunFromAPresetPassesItsSuiteAndHandAddedShapesDropIt) {
  Suite a;
  a.name = "small";
  a.shapes = {Shape{64, 64, 64}, Shape{128, 256, 64}};
  ShapeListWidget shapes;
  shapes.setPresets({a});
  shapes.choosePreset("small");
  EXPECT_EQ(shapes.suiteName(), "small");
  EXPECT_EQ(shapes.checkedShapes(), (QList<CaseSize>{Shape{64, 64, 64}, Shape{128, 256, 64}}));
  RunRequest r;
  r.kernels = {"sgemm.naive"};
  r.sizes = shapes.checkedShapes();
  r.suite = shapes.suiteName();
  const QStringList args = r.toArguments();
  const qsizetype at = args.indexOf("--suite");
  ASSERT_GE(at, 0);
  EXPECT_EQ(args.value(at + 1), "small");
  EXPECT_EQ(args.value(args.indexOf("--shapes") + 1), "64x64x64,128x256x64");

  shapes.addShape("96x32x16", true);  // no longer the preset's list
  EXPECT_EQ(shapes.suiteName(), "");
  r.suite = shapes.suiteName();
  EXPECT_FALSE(r.toArguments().contains("--suite"));
}
