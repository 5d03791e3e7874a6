// SPDX-License-Identifier: Apache-2.0
// The engine's families (`kwb list --families --json`): the GUI links no kernels and knows only
// gemm, reduce and scan by itself, so the presets of the engine's other families (histogram,
// sort) wait for the engine's answer, and are offered once it is in.
#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <sys/stat.h>

#include "app/main_window.h"
#include "engine/engine_families.h"
#include "gui_test_support.h"
#include "kwb/error.h"
#include "kwb/family.h"
#include "pages/log_page.h"
#include "panels/shape_list_widget.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

QByteArray engineFamilies() {
  QProcess p;
  p.start(KWB_ENGINE, {"list", "--families", "--json"});
  EXPECT_TRUE(p.waitForFinished(10000));
  EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
  return p.readAllStandardOutput();
}

std::unique_ptr<MainWindow> windowWithEngine(const QString& engine) {
  WindowOptions o = test::quietWindow();
  o.engineOverride = engine;
  return std::make_unique<MainWindow>(o);
}

}  // namespace

TEST(EngineFamilies, TheEnginesDeclarationsAreRegisteredAndParseItsSizes) {
  ASSERT_EQ(tryFindFamily("histogram"), nullptr);  // the GUI alone does not know it
  const std::vector<FamilyInfo> declared = registerEngineFamilies(engineFamilies());
  QStringList ids;
  for (const FamilyInfo& f : declared) ids << QString::fromStdString(f.id);
  for (const char* id : {"gemm", "reduce", "scan", "histogram", "sort"})
    EXPECT_TRUE(ids.contains(id)) << id << " not in " << ids.join(", ").toStdString();
  const Family* histogram = tryFindFamily("histogram");
  ASSERT_NE(histogram, nullptr);
  // A size of it parses as the engine parses it: its axes came with the declaration.
  const CaseSize s = parseSize(*histogram, "2^20 u8 256 bins uniform");
  EXPECT_EQ(s.family, "histogram");
  EXPECT_THROW(parseSize(*histogram, "2^20 f64"), InputError);
}

TEST(EngineFamilies, ABadAnswerRegistersNothingAndSaysWhy) {
  for (const QByteArray& bad : {QByteArray("not json"), QByteArray("[]"), QByteArray("{}"),
                                QByteArray(R"([{"id": "histogram"}, 7])")}) {
    try {
      registerEngineFamilies(bad);
      ADD_FAILURE() << "accepted " << bad.toStdString();
    } catch (const InputError& e) {
      EXPECT_TRUE(std::string(e.what()).find("kwb list --families --json") != std::string::npos)
          << e.what();
    }
    EXPECT_EQ(tryFindFamily("histogram"), nullptr) << bad.toStdString();
  }
}

TEST(EngineFamilies, PresetsOfTheEnginesFamiliesAreOfferedOnceItAnswers) {
  auto w = windowWithEngine(KWB_FAKE_ENGINE);  // answers `list` with the real engine
  const QStringList before = w->shapeList()->presetNames();
  EXPECT_TRUE(before.contains("reduce-benchmark"));
  EXPECT_FALSE(before.contains("histogram-benchmark"));
  EXPECT_FALSE(before.contains("sort-benchmark"));
  EXPECT_TRUE(w->logPage()->toPlainText().contains("histogram-benchmark (histogram)"))
      << w->logPage()->toPlainText().toStdString();
  EXPECT_FALSE(w->logPage()->toPlainText().contains("bad preset"));
  const QString chosen = w->shapeList()->presetName();

  w->probeEngine();
  ASSERT_TRUE(test::waitFor(
      [&] { return w->shapeList()->presetNames().contains("histogram-benchmark"); }, 10000))
      << w->logPage()->toPlainText().toStdString();
  EXPECT_TRUE(w->shapeList()->presetNames().contains("sort-benchmark"));
  EXPECT_EQ(w->shapeList()->presetName(), chosen);  // the choice is left as it was
  EXPECT_TRUE(w->logPage()->toPlainText().contains("The engine declares the families"));
  w->shapeList()->choosePreset("histogram-benchmark");
  EXPECT_FALSE(w->shapeList()->checkedShapes().isEmpty());
}

TEST(EngineFamilies, AnEngineThatCannotListItsFamiliesIsSaidAndChangesNothing) {
  QTemporaryDir dir;
  const QString engine = dir.filePath("kwb");
  {
    QFile f(engine);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    // An older kwb: no --families (CLI11's exit code for an unknown option).
    f.write(
        "#!/bin/sh\ncase \"$*\" in *--families*) echo 'The following argument was not "
        "expected: --families' >&2; exit 109;; esac\nexit 3\n");
  }
  ::chmod(engine.toLocal8Bit().constData(), 0755);
  auto w = windowWithEngine(engine);
  const QStringList before = w->shapeList()->presetNames();
  w->probeEngine();
  ASSERT_TRUE(test::waitFor(
      [&] { return w->logPage()->toPlainText().contains("list --families --json` exited"); },
      10000))
      << w->logPage()->toPlainText().toStdString();
  EXPECT_TRUE(w->logPage()->toPlainText().contains("109"));
  EXPECT_EQ(w->shapeList()->presetNames(), before);
  EXPECT_EQ(tryFindFamily("histogram"), nullptr);
}
