// SPDX-License-Identifier: Apache-2.0
// The plots under the hand: legends that toggle, kernels unchecked, zoom reset, copying to
// the clipboard, and other runs drawn over this one.
#include <set>
#include <string>

#include "plots_fixture.h"

using namespace kwb;
using namespace kwb::gui;
using namespace kwb::gui::test;

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
  // One bar for each of the sample's other stages at the shape shown.
  std::set<std::string> stages;
  for (const KernelInfo& k : readDocument(test::sampleRun().toStdString()).kernels)
    if (!k.reference && k.id != "sgemm.naive") stages.insert(k.id);
  ASSERT_GE(stages.size(), 8u);
  EXPECT_EQ(std::size_t(w->progressionPage()->bars()->data()->size() +
                        w->progressionPage()->fallbackBars()->data()->size()),
            stages.size());
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
  const CaseSize s = *p->shapeCombo()->currentShape();
  const RunDocument other = readDocument(test::syntheticRun().toStdString());
  int expected = 0;
  for (const KernelInfo& k : w->model()->catalog().stages())
    if (doc.find(k.id, s))
      if (const CaseResult* c = other.find(k.id, s); c && hasSpeed(other, *c)) ++expected;
  EXPECT_EQ(p->overlayBars()[0]->data()->size(), expected);
  EXPECT_NE(w->scalingPage()->lineOf("sgemm.naive", " (gui-sample-spec-benchmark.json)"), nullptr);
  EXPECT_NE(w->scalingPage()->lineOf("sgemm.naive", " (baseline)"), nullptr);
  EXPECT_NE(w->scalingPage()->lineOf("sgemm.naive", " (gui-baseline-spec-benchmark.json)"),
            nullptr);
  w->model()->clearOverlays();
  w->rebuildAllNow();
  EXPECT_TRUE(p->overlayBars().isEmpty());
}
