// SPDX-License-Identifier: Apache-2.0
// Running a 1-D problem family from the GUI: a reduce or scan suite fills the shape list with
// its sizes, a size can be typed, and Run asks the engine for that family alone.
#include <gtest/gtest.h>

#include "families_fixture.h"
#include "model/case_size.h"
#include "model/run_request.h"
#include "panels/run_panel.h"
#include "panels/shape_list_widget.h"
#include "plots_fixture.h"

using namespace kwb;
using namespace kwb::gui;
using namespace kwb::gui::test;

namespace {

constexpr std::int64_t k20 = std::int64_t{1} << 20;

Suite reduceSuite() {
  Suite s;
  s.name = "small-reduce";
  s.family = "reduce";
  for (const std::int64_t n : {k20, std::int64_t{1000003}})
    for (const char* t : {"f32", "i32"}) s.sizes.push_back(vectorSize("reduce", n, t));
  return s;
}

QString valueAfter(const QStringList& args, const QString& flag) {
  const qsizetype at = args.indexOf(flag);
  return at >= 0 ? args.value(at + 1) : QString("(no %1)").arg(flag);
}

}  // namespace

TEST(FamilyRun, TheFamilyOfARunIsTheFamilyOfItsShapes) {
  QString error;
  EXPECT_EQ(runFamily({Shape{512, 512, 512}}, {"gemm", "reduce"}, &error), "gemm");
  EXPECT_EQ(runFamily({vectorSize("scan", k20, "f32")}, {"gemm", "reduce"}, &error), "scan");
  // A size typed before any family was known names none: the checked 1-D kernels' one family.
  EXPECT_EQ(runFamily({vectorSize("", k20, "i32")}, {"gemm", "scan"}, &error), "scan");
  EXPECT_EQ(inFamily({vectorSize("", k20, "i32")}, "scan"),
            QList<CaseSize>{vectorSize("scan", k20, "i32")});

  error.clear();
  EXPECT_EQ(runFamily({vectorSize("", k20, "f32")}, {"reduce", "scan"}, &error), "");
  EXPECT_TRUE(error.contains("reduce") && error.contains("scan")) << error.toStdString();
  error.clear();
  EXPECT_EQ(runFamily({vectorSize("", k20, "f32")}, {"gemm"}, &error), "");
  EXPECT_FALSE(error.isEmpty());
  error.clear();
  EXPECT_EQ(runFamily({Shape{64, 64, 64}, vectorSize("reduce", k20, "f32")}, {"gemm"}, &error), "");
  EXPECT_TRUE(error.contains("cannot run together")) << error.toStdString();
}

TEST(FamilyRun, AOneDimensionalSuiteFillsItsSizesAndRunsItsFamily) {
  ShapeListWidget shapes;
  shapes.setPresets({reduceSuite()});
  shapes.choosePreset("small-reduce");
  const QList<CaseSize> keys = shapes.checkedShapes();
  ASSERT_EQ(keys.size(), 4) << "two counts in two types";
  for (const CaseSize& k : keys) EXPECT_EQ(k.family, "reduce");
  EXPECT_EQ(sizeName(keys[0]), "2^20 f32");
  EXPECT_EQ(sizeName(keys[3]), "1,000,003 i32");

  RunRequest r;
  r.kernels = {"reduce.vectorized", "cub.reduce_sum"};
  r.sizes = keys;
  EXPECT_EQ(r.family(), "reduce") << "the family of its sizes";
  r.suite = shapes.suiteName();
  const QStringList args = r.toArguments();
  EXPECT_EQ(valueAfter(args, "--family"), "reduce");
  QStringList texts;
  for (const CaseSize& k : keys) texts << QString::fromStdString(sizeLabel(k));
  EXPECT_EQ(valueAfter(args, "--sizes"), texts.join(',')) << "each checked size whole";
  EXPECT_TRUE(texts.contains("1000003 i32")) << texts.join(',').toStdString();
  EXPECT_FALSE(args.contains("--types"));
  EXPECT_EQ(valueAfter(args, "--suite"), "small-reduce");
  EXPECT_FALSE(args.contains("--shapes"));
  EXPECT_EQ(r.caseCount(), 2 * 4);

  // A typed size joins the listed sizes' family, and the list is no longer the suite's.
  EXPECT_EQ(ShapeListWidget::validate("2^24 i32"), "");
  EXPECT_NE(ShapeListWidget::validate("2^24 f64"), "");
  shapes.addShape("2^24 i32", true);
  ASSERT_EQ(shapes.checkedShapes().size(), 5);
  EXPECT_EQ(shapes.checkedShapes().back(), vectorSize("reduce", std::int64_t{1} << 24, "i32"));
  EXPECT_EQ(shapes.customShapes(), QStringList{"2^24 i32"}) << "saved as it is typed";
  EXPECT_EQ(shapes.suiteName(), "");
}

// A family with more axes than a count and a type (a histogram's bins and distribution) runs
// the sizes checked, each sent whole: a count list crossed with a type list lost the bins and
// the input, and ran uniform 256-bin cases whatever was checked.
TEST(FamilyRun, AHistogramRunSendsEachCheckedSizeWhole) {
  auto histogramSize = [](std::int64_t count, const char* type, std::int64_t bins,
                          const char* distribution) {
    CaseSize s = vectorSize("histogram", count, type);
    s.axes.push_back({"bins", AxisKind::kDimension, bins, "", "bins"});
    s.axes.push_back({"distribution", AxisKind::kWord, 0, distribution});
    return s;
  };
  RunRequest r;
  r.kernels = {"histogram.byte_counters", "cub.histogram_even"};
  r.sizes = {histogramSize(k20, "u8", 4096, "zipf"), histogramSize(k20 << 4, "f32", 32, "one-bin")};
  EXPECT_EQ(r.family(), "histogram");
  const QStringList args = r.toArguments();
  EXPECT_EQ(valueAfter(args, "--family"), "histogram");
  EXPECT_EQ(valueAfter(args, "--sizes"), "2^20 u8 4096 bins zipf,2^24 f32 32 bins one-bin");
  EXPECT_FALSE(args.contains("--types"));
  EXPECT_EQ(r.caseCount(), 2 * 2) << "the two sizes checked, not every count in every type";
}

// Run with a reduce suite chosen runs the checked reduce kernels only, as a reduce run; with
// GEMM shapes, the GEMM kernels only.
TEST_F(Plots, RunAsksTheEngineForTheFamilyOfTheCheckedShapes) {
  const RunDocument gemmOnly = doc;
  open(merged(gemmOnly, vectorDocument("reduce")));
  std::optional<RunRequest> asked;
  w->controller()->setArgumentBuilder([&](const RunRequest& r) {
    asked = r;
    return QStringList{"--version"};  // the request is what is tested, not the run
  });
  w->shapeList()->setPresets({reduceSuite()});
  w->shapeList()->choosePreset("small-reduce");
  emit w->runPanel()->runRequested();
  ASSERT_TRUE(asked.has_value()) << w->runPanel()->statusLabel()->text().toStdString();
  EXPECT_EQ(asked->family(), "reduce");
  ASSERT_FALSE(asked->kernels.isEmpty());
  for (const QString& k : asked->kernels)
    EXPECT_TRUE(k.startsWith("reduce.") || k == "cub.reduce_sum") << k.toStdString();
  EXPECT_EQ(valueAfter(asked->toArguments(), "--family"), "reduce");
  ASSERT_TRUE(test::waitFor([&] { return !w->controller()->isRunning(); }, 10000));

  asked.reset();
  open(merged(gemmOnly, vectorDocument("reduce")));  // the failed run above left its own document
  Suite gemm;
  gemm.name = "one-gemm";
  gemm.shapes = {Shape{512, 512, 512}};
  w->shapeList()->setPresets({gemm});
  w->shapeList()->choosePreset("one-gemm");
  emit w->runPanel()->runRequested();
  ASSERT_TRUE(asked.has_value()) << w->runPanel()->statusLabel()->text().toStdString();
  EXPECT_TRUE(asked->family().isEmpty());
  for (const QString& k : asked->kernels)
    EXPECT_FALSE(k.startsWith("reduce.") || k.startsWith("cub.")) << k.toStdString();
  EXPECT_TRUE(asked->toArguments().contains("--shapes"));
}

// Opening a run offers its suite again in the run panel, so Run repeats it; shapes added by
// hand are never dropped for it.
TEST_F(Plots, OpeningARunChoosesItsSuiteUnlessShapesWereAddedByHand) {
  ASSERT_EQ(w->openResults(test::bundled("reduce-benchmark-h100.json")), "");
  EXPECT_EQ(w->shapeList()->presetName(), "reduce-benchmark");
  EXPECT_EQ(w->shapeList()->checkedShapes().size(), 8) << "four counts in two types";

  w->shapeList()->addShape("2^26 f32", true);
  ASSERT_EQ(w->openResults(test::sampleRun()), "");
  EXPECT_EQ(w->shapeList()->presetName(), "reduce-benchmark");
  EXPECT_EQ(w->shapeList()->customShapes(), QStringList{"2^26 f32"});
}
