// SPDX-License-Identifier: Apache-2.0
// Documents of `kwb conformance` and `kwb tune`: the conformance section of the Correctness
// tab and the Tuning tab's heat map.
#include <gtest/gtest.h>

#include <QTemporaryDir>
#include <cmath>

#include "app/main_window.h"
#include "gui_test_support.h"
#include "app/main_window.h"
#include "kwb/tune_buckets.h"
#include "kwb/tuning.h"
#include "pages/correctness_page.h"
#include "pages/tuning_page.h"
#include "panels/conformance_view.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

struct Sections : ::testing::Test {
  void SetUp() override {
    WindowOptions o = test::quietWindow();
    w = std::make_unique<MainWindow>(o);
    w->resize(1400, 900);
    w->show();
  }
  void open(const RunDocument& d, const QString& name) {
    doc = d;
    ASSERT_EQ(w->openResults(test::writeFixture(d, dir.filePath(name))), "");
    w->rebuildAllNow();
  }
  QTemporaryDir dir;
  RunDocument doc;
  std::unique_ptr<MainWindow> w;
};

}  // namespace

TEST_F(Sections, ConformanceShowsEveryTileSizeItsLaunchAndEveryCheck) {
  open(test::conformanceDocument(false), "conformance.json");
  EXPECT_EQ(w->tabs()->currentWidget(), w->correctnessPage());
  ConformanceView* v = w->correctnessPage()->conformance();
  EXPECT_TRUE(v->isVisibleTo(w.get()));
  EXPECT_FALSE(w->correctnessPage()->table()->isVisibleTo(w.get()));  // no cases to grid
  EXPECT_TRUE(v->summary()->text().contains("PASSED")) << v->summary()->text().toStdString();
  const auto& runs = doc.conformance->runs;
  ASSERT_EQ(v->launches()->rowCount(), int(runs.size()));
  for (int r = 0; r < int(runs.size()); ++r) {
    const SubgroupRun& run = runs[std::size_t(r)];
    EXPECT_EQ(v->launches()->item(r, 0)->text().toInt(), run.tileSize);
    EXPECT_EQ(v->launches()->item(r, 1)->text(), QString("%1×%2×%3")
                                                     .arg(run.launch.block[0])
                                                     .arg(run.launch.block[1])
                                                     .arg(run.launch.block[2]));
    EXPECT_EQ(v->launches()->item(r, 6)->text().toLongLong(), run.incompleteTiles);
    EXPECT_EQ(v->launches()->item(r, 7)->text(), "PASS");
  }
  ASSERT_EQ(v->checks()->columnCount(), int(runs.size()) + 1);  // and the description
  ASSERT_EQ(v->checks()->rowCount(), int(runs.front().checks.size()));
  for (int r = 0; r < v->checks()->rowCount(); ++r) {
    EXPECT_EQ(v->checks()->item(r, int(runs.size()))->text().toStdString(),
              runs.front().checks[std::size_t(r)].description);
    for (int c = 0; c < int(runs.size()); ++c) {
      EXPECT_EQ(v->checks()->verticalHeaderItem(r)->text().toStdString(),
                runs[std::size_t(c)].checks[std::size_t(r)].id);
      EXPECT_TRUE(v->checks()->item(r, c)->data(ConformanceView::kPassedRole).toBool());
      EXPECT_EQ(v->checks()->item(r, c)->text(), "PASS");
    }
  }
}

TEST_F(Sections, AFailingConformanceCheckIsMarkedAndNamesItsOffenders) {
  open(test::conformanceDocument(true), "conformance-fail.json");
  ConformanceView* v = w->correctnessPage()->conformance();
  EXPECT_TRUE(v->summary()->text().contains("FAILED"));
  int failed = 0;
  for (int r = 0; r < v->checks()->rowCount(); ++r)
    for (int c = 0; c < int(doc.conformance->runs.size()); ++c) {
      const ConformanceCheck& check = doc.conformance->runs[std::size_t(c)].checks[std::size_t(r)];
      QTableWidgetItem* item = v->checks()->item(r, c);
      EXPECT_EQ(item->data(ConformanceView::kPassedRole).toBool(), check.passed) << check.id;
      if (check.passed) continue;
      ++failed;
      EXPECT_TRUE(item->text().startsWith("FAIL"));
      EXPECT_EQ(v->launches()->item(c, 7)->text(), "FAIL");
      ASSERT_TRUE(v->showCheck(r, c));
      for (const std::string& o : check.offenders) {
        EXPECT_TRUE(item->toolTip().contains(QString::fromStdString(o))) << o;
        EXPECT_TRUE(v->detail()->text().contains(QString::fromStdString(o).toHtmlEscaped())) << o;
      }
    }
  EXPECT_EQ(failed, 1);
}

TEST_F(Sections, TuningHeatMapHasACellPerConfigurationAndMarksFailures) {
  ASSERT_EQ(w->openResults(test::sampleRun()), "");
  EXPECT_FALSE(w->tabNames().contains("Tuning"));  // a run holds no sweep: no tab
  open(test::tuningDocument(), "tune.json");
  ASSERT_TRUE(w->tabNames().contains("Tuning"));
  TuningPage* t = w->tuningPage();
  EXPECT_EQ(w->tabs()->currentWidget(), t);
  const TuneGrid& grid = *doc.tuning;
  int failed = 0;
  QSet<QPair<int, int>> cells;
  for (const CaseResult& r : grid.results) {
    const QPoint cell = t->cellOf(QString::fromStdString(r.config->name));
    ASSERT_GE(cell.x(), 0) << r.config->name;
    cells.insert({cell.x(), cell.y()});
    const double value = t->colorMap()->data()->cell(cell.x(), cell.y());
    if (r.gflops > 0) {
      EXPECT_DOUBLE_EQ(value, r.gflops) << r.config->name;
    } else {
      EXPECT_TRUE(std::isnan(value)) << r.config->name;
      ++failed;
    }
    const QPointF at(t->plot()->xAxis->coordToPixel(cell.x()),
                     t->plot()->yAxis->coordToPixel(cell.y()));
    EXPECT_TRUE(t->tooltips()->textAt(at).contains(QString::fromStdString(r.config->name)));
  }
  EXPECT_EQ(cells.size(), qsizetype(grid.results.size()));  // no two share a cell
  EXPECT_EQ(t->failedMarks(), failed);
  EXPECT_GT(failed, 0);
  EXPECT_EQ(t->bestConfig().toStdString(), grid.best);
  EXPECT_DOUBLE_EQ(t->colorScale()->dataRange().upper, grid.results[*fastest(grid.results)].gflops);
}

// kwb tune --shapes: a row per configuration and shape, each named after both.
TEST_F(Sections, TuningOfSeveralShapesHasARowPerConfigurationAndShape) {
  RunDocument d = test::tuningDocument();
  TuneGrid& grid = *d.tuning;
  const std::size_t perShape = grid.results.size();
  for (std::size_t i = 0; i < perShape; ++i) {
    CaseResult r = grid.results[i];
    r.size = kwb::gemmSize({512, 512, 512});
    grid.results.push_back(r);
  }
  const std::vector<Shape> tuned = {grid.shape, {512, 512, 512}};
  grid.choices = chooseByBucket(grid.results, tuned);
  open(d, "tune-shapes.json");
  TuningPage* t = w->tuningPage();
  QSet<QPair<int, int>> cells;
  for (const CaseResult& r : grid.results) {
    const QString row = QString::fromStdString(shapeText(r.shape())) + " · " +
                        QString::fromStdString(r.config->name);
    const QPoint cell = t->cellOf(row);
    ASSERT_GE(cell.x(), 0) << row.toStdString();
    cells.insert({cell.x(), cell.y()});
  }
  EXPECT_EQ(cells.size(), qsizetype(grid.results.size()));
  EXPECT_EQ(t->cellOf(QString::fromStdString(grid.results[0].config->name)), QPoint(-1, -1));
}
