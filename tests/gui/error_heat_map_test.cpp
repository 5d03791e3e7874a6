// SPDX-License-Identifier: Apache-2.0
// The case detail's heat map of |C − C_ref|. The synthetic fixture's failing case
// (sgemm.tiled at 511×513×1025, make_gui_fixtures) was compared for real: its ragged
// bottom-right tile (rows 480–510, columns 480–512) is unwritten in both runs and C[37][100]
// is NaN in the canary run only. With 16 cells, row cell 15 is rows 480–510, column cell 14
// is columns 449–480 and 15 is 481–512, so the block gives 31 and 31·32 = 992 mismatches
// there; the NaN is in row cell 37·16/511 = 1, column cell 100·16/513 = 3.
#include <gtest/gtest.h>

#include <QImage>
#include <QRadioButton>
#include <cmath>

#include "gui_test_support.h"
#include "kwb/results.h"
#include "panels/case_detail_dialog.h"
#include "plots/error_heat_map.h"
#include "plots/error_map_plot.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

const Shape kFailing{511, 513, 1025};

struct HeatMap : ::testing::Test {
  void open(const QString& path, const std::string& kernel, const Shape& s) {
    doc = readDocument(path.toStdString());
    c = doc.find(kernel, s);
    ASSERT_NE(c, nullptr) << kernel;
    dialog = std::make_unique<CaseDetailDialog>(*c, doc);
    dialog->show();
    map = dialog->heatMap();
    plot = map->plot();
    plot->replot();
  }
  double shown(int row, int col) const { return plot->colorMap()->data()->cell(col, row); }
  std::size_t at(int row, int col) const { return std::size_t(row * 16 + col); }
  RunDocument doc;
  const CaseResult* c = nullptr;
  std::unique_ptr<CaseDetailDialog> dialog;
  ErrorHeatMap* map = nullptr;
  ErrorMapPlot* plot = nullptr;
};

int redOutlines(QCustomPlot* p) {
  int n = 0;
  for (int i = 0; i < p->itemCount(); ++i)
    if (auto* r = qobject_cast<QCPItemRect*>(p->item(i)))
      n += r->pen().style() != Qt::NoPen && r->pen().color().red() > 200 &&
           r->pen().color().green() < 50;
  return n;
}

}  // namespace

TEST(CellSpan, IsTheInverseOfCellOf) {
  for (std::int64_t extent : {1, 5, 16, 17, 511, 513, 2048}) {
    const int cells = int(std::min<std::int64_t>(extent, kErrorGridCells));
    for (std::int64_t i = 0; i < extent; ++i) {
      const int cell = ErrorGrid::cellOf(i, extent, cells);
      const CellSpan s = cellSpan(cell, extent, cells);
      EXPECT_LE(s.first, i) << extent << " " << i;
      EXPECT_GE(s.last, i) << extent << " " << i;
    }
    EXPECT_EQ(cellSpan(0, extent, cells).first, 0);
    EXPECT_EQ(cellSpan(cells - 1, extent, cells).last, extent - 1);
  }
}

TEST_F(HeatMap, FailingCaseHasOneCellPerGridCellWithTheRecordedErrors) {
  open(test::syntheticRun(), "sgemm.tiled", kFailing);
  ASSERT_NE(map->shownGrid(), nullptr);
  const ErrorGrid& g = c->verification->compare.grid;
  ASSERT_EQ(g.rows, 16);
  ASSERT_EQ(g.cols, 16);
  EXPECT_EQ(plot->colorMap()->data()->keySize(), 16);
  EXPECT_EQ(plot->colorMap()->data()->valueSize(), 16);
  EXPECT_EQ(g.mismatches[at(15, 15)], 992);
  EXPECT_EQ(g.mismatches[at(15, 14)], 31);
  EXPECT_EQ(g.mismatches[at(1, 3)], 1);
  EXPECT_EQ(c->verification->compare.mismatches, 992 + 31 + 1);
  // Rounding-sized errors where C was written, the unwritten tile's far beyond them.
  for (auto [r, col] : {std::pair{0, 0}, {7, 9}, {15, 13}}) {
    EXPECT_DOUBLE_EQ(shown(r, col), g.maxAbs[at(r, col)]) << r << "," << col;
    EXPECT_GT(shown(r, col), 0.0);
    EXPECT_LT(shown(r, col), 1e-4);
  }
  EXPECT_DOUBLE_EQ(shown(15, 15), g.maxAbs[at(15, 15)]);
  EXPECT_GT(shown(15, 15), 1.0);
  EXPECT_EQ(plot->colorMap()->dataScaleType(), QCPAxis::stLogarithmic);
  EXPECT_GE(plot->colorMap()->dataRange().upper, shown(15, 15));
  EXPECT_LE(plot->colorMap()->dataRange().lower, shown(0, 0));
}

TEST_F(HeatMap, MismatchCellsAreOutlinedAndNanCellHatched) {
  open(test::syntheticRun(), "sgemm.tiled", kFailing);
  const QList<QPoint> marked = plot->markedCells();  // (column, row)
  EXPECT_EQ(marked.size(), 3);
  EXPECT_TRUE(marked.contains(QPoint(15, 15)));
  EXPECT_TRUE(marked.contains(QPoint(14, 15)));
  EXPECT_TRUE(marked.contains(QPoint(3, 1)));
  EXPECT_EQ(redOutlines(plot), 3);
  ASSERT_EQ(plot->nanCells(), QList<QPoint>{QPoint(3, 1)});
  EXPECT_TRUE(std::isnan(c->verification->compare.grid.maxAbs[at(1, 3)]));
  EXPECT_TRUE(std::isnan(shown(1, 3)));
  const QString nanTip = plot->cellToolTip(1, 3);
  EXPECT_TRUE(nanTip.contains("rows 32–63, columns 97–128")) << nanTip.toStdString();
  EXPECT_TRUE(nanTip.contains("NaN")) << nanTip.toStdString();
  EXPECT_TRUE(nanTip.contains("1 of 1024 elements mismatch")) << nanTip.toStdString();
  const QString blockTip = plot->cellToolTip(15, 15);
  EXPECT_TRUE(blockTip.contains("rows 480–510, columns 481–512")) << blockTip.toStdString();
  EXPECT_TRUE(blockTip.contains("992 of 992 elements mismatch")) << blockTip.toStdString();
  EXPECT_TRUE(plot->cellToolTip(0, 0).contains("no mismatches"));
  // Hovering finds the cell under the pointer: row 0 at the top, column 0 at the left.
  const QPointF bottomRight(plot->xAxis2->coordToPixel(15.5), plot->yAxis->coordToPixel(15.5));
  EXPECT_EQ(plot->cellAt(bottomRight), QPoint(15, 15));
  EXPECT_LT(plot->yAxis->coordToPixel(0.5), plot->yAxis->coordToPixel(15.5));
  EXPECT_TRUE(map->message().contains("1024 mismatches in 3 of 256 cells"))
      << map->message().toStdString();
}

TEST_F(HeatMap, ToggleSwitchesToTheAlphaBetaRun) {
  open(test::syntheticRun(), "sgemm.tiled", kFailing);
  const ErrorGrid& canary = c->verification->compare.grid;
  const ErrorGrid& ab = c->verification->alphaBeta->grid;
  ASSERT_TRUE(map->alphaBetaButton()->isEnabled());
  map->alphaBetaButton()->click();
  EXPECT_EQ(map->run(), ErrorHeatMap::Run::kAlphaBeta);
  ASSERT_NE(map->shownGrid(), nullptr);
  EXPECT_EQ(map->shownGrid()->maxAbs, ab.maxAbs);
  EXPECT_DOUBLE_EQ(shown(0, 0), ab.maxAbs[at(0, 0)]);
  EXPECT_NE(shown(0, 0), canary.maxAbs[at(0, 0)]);
  EXPECT_DOUBLE_EQ(shown(1, 3), ab.maxAbs[at(1, 3)]);  // the NaN was in the canary run only
  EXPECT_TRUE(plot->nanCells().isEmpty());
  EXPECT_EQ(plot->markedCells().size(), 2);
  EXPECT_TRUE(map->message().contains("α/β run")) << map->message().toStdString();
  map->canaryButton()->click();
  EXPECT_EQ(map->run(), ErrorHeatMap::Run::kCanary);
  EXPECT_TRUE(std::isnan(shown(1, 3)));
  EXPECT_EQ(plot->markedCells().size(), 3);
}

TEST_F(HeatMap, PassingCaseShowsTinyErrorsAndNoMarks) {
  open(test::syntheticRun(), "sgemm.bank_free", {1024, 1024, 1024});
  const CompareReport& r = c->verification->compare;
  ASSERT_EQ(r.mismatches, 0);
  EXPECT_TRUE(plot->markedCells().isEmpty());
  EXPECT_TRUE(plot->nanCells().isEmpty());
  EXPECT_EQ(redOutlines(plot), 0);
  double largest = 0;
  for (int row = 0; row < 16; ++row)
    for (int col = 0; col < 16; ++col) {
      EXPECT_DOUBLE_EQ(shown(row, col), r.grid.maxAbs[at(row, col)]);
      largest = std::max(largest, shown(row, col));
    }
  EXPECT_DOUBLE_EQ(largest, r.maxAbsError);
  EXPECT_DOUBLE_EQ(plot->colorMap()->dataRange().upper, r.maxAbsError);
  EXPECT_TRUE(map->message().contains("no mismatches")) << map->message().toStdString();
}

TEST_F(HeatMap, DocumentWithoutGridSaysSo) {
  // The baseline fixture is written as kwb wrote documents before error grids existed.
  open(test::syntheticBaseline(), "sgemm.tiled", kFailing);
  EXPECT_EQ(map->shownGrid(), nullptr);
  EXPECT_EQ(map->message(), ErrorHeatMap::noGridText());
  EXPECT_TRUE(map->message().contains("recorded by an older kwb"));
  EXPECT_TRUE(plot->isHidden());
  map->alphaBetaButton()->click();
  EXPECT_EQ(map->message(), ErrorHeatMap::noGridText());
}

TEST_F(HeatMap, CaseWithoutVerificationExplainsTheMissingMap) {
  open(test::syntheticRun(), "sgemm.double_buffer", {256, 384, 640});
  ASSERT_FALSE(c->verification.has_value());
  EXPECT_TRUE(plot->isHidden());
  EXPECT_TRUE(map->message().contains("No verification")) << map->message().toStdString();
}

TEST_F(HeatMap, RecordedSampleHasAGridPerCase) {
  open(test::sampleRun(), "sgemm.naive", {1024, 1024, 1024});
  ASSERT_NE(map->shownGrid(), nullptr);
  EXPECT_EQ(plot->colorMap()->data()->keySize(), 16);
  EXPECT_FALSE(plot->isHidden());
  // Cells where C equals C_ref exactly (sgemm.naive matched cuBLAS bit for bit on the H200)
  // have no place on a log scale: they are NaN in the map (drawn white) and say so.
  const ErrorGrid& g = c->verification->compare.grid;
  for (int row = 0; row < g.rows; ++row)
    for (int col = 0; col < g.cols; ++col) {
      const double v = g.maxAbs[at(row, col)];
      if (v == 0) {
        EXPECT_TRUE(std::isnan(shown(row, col)));
        EXPECT_TRUE(plot->cellToolTip(row, col).contains("exactly"));
      } else {
        EXPECT_DOUBLE_EQ(shown(row, col), v);
      }
    }
}

TEST_F(HeatMap, DialogRendersReadably) {
  open(test::syntheticRun(), "sgemm.tiled", kFailing);
  const QImage img = dialog->grab().toImage();
  EXPECT_EQ(img.size(), dialog->size());
  EXPECT_GE(plot->width(), 360);
  EXPECT_GE(plot->height(), 320);
  // Set KWB_GUI_SHOTS to a folder to look at the dialog.
  if (const QString dir = qEnvironmentVariable("KWB_GUI_SHOTS"); !dir.isEmpty()) {
    EXPECT_TRUE(img.save(dir + "/case_detail_failing.png"));
    map->alphaBetaButton()->click();
    EXPECT_TRUE(dialog->grab().save(dir + "/case_detail_failing_ab.png"));
    open(test::syntheticRun(), "sgemm.bank_free", {1024, 1024, 1024});
    EXPECT_TRUE(dialog->grab().save(dir + "/case_detail_passing.png"));
    open(test::syntheticBaseline(), "sgemm.tiled", kFailing);
    EXPECT_TRUE(dialog->grab().save(dir + "/case_detail_nogrid.png"));
  }
}
