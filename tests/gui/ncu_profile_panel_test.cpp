// SPDX-License-Identifier: Apache-2.0
// "Profile with Nsight Compute" in the case dialog, against stand-ins: an engine script that
// answers `kwb profile` and an `ncu` beside it (so the panel offers profiling).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>

#include "panels/case_detail_dialog.h"
#include "gui_test_support.h"
#include "panels/ncu_profile_panel.h"

namespace kwb::gui {
namespace {

void writeExecutable(const QString& path, const QByteArray& text) {
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(text);
  f.close();
  ::chmod(path.toLocal8Bit().constData(), 0755);
}

NcuProfile profileOf(const std::string& stall, double us) {
  NcuProfile p;
  p.kernel = "sgemm.tiled";
  p.size = kwb::gemmSize({512, 512, 512});
  p.config = "default";
  p.gitRevision = "abc123";
  p.ncuPath = "ncu";
  p.reportPath = "/nowhere/sgemm.tiled-512x512x512.ncu-rep";
  NcuKernelFigures k;
  k.name = "sgemmTiled";
  k.durationUs = us;
  k.smThroughputPct = 71.5;
  k.memoryThroughputPct = 48.25;
  k.achievedOccupancyPct = 66.0;
  k.dramBytes = 3.1e6;
  k.topStall = stall;
  k.topStallCyclesPerIssue = 2.5;
  p.kernels = {k};
  return p;
}

struct Stand {
  QTemporaryDir dir;
  QString engine;
  CaseResult c;
  // The engine writes `answer` to the --json path it is given and exits `exit`.
  explicit Stand(const NcuProfile& answer, int exit = 0) {
    engine = dir.filePath("kwb");
    writeExecutable(dir.filePath("ncu"), "#!/bin/sh\nexit 0\n");
    QFile a(dir.filePath("answer.json"));
    EXPECT_TRUE(a.open(QIODevice::WriteOnly));
    a.write(QByteArray::fromStdString(ncuProfileToJson(answer)));
    a.close();
    writeExecutable(
        engine, QByteArray("#!/bin/sh\n") + "printf '%s\\n' \"$@\" > '" +
                    dir.filePath("engine-args").toLocal8Bit() + "'\n" +
                    "prev=; for a in \"$@\"; do\n" + "  [ \"$prev\" = --json ] && cp '" +
                    dir.filePath("answer.json").toLocal8Bit() + "' \"$a\"\n" + "  prev=$a; done\n" +
                    "echo 'ncu said something' >&2\n" + "exit " + QByteArray::number(exit) + "\n");
    c.kernel = "sgemm.tiled";
    c.size = kwb::gemmSize({512, 512, 512});
    c.status = CaseStatus::kPass;
  }
  ProfileContext ctx() { return {engine, dir.path(), "abc123"}; }
  // The arguments the engine was last run with, one each.
  QStringList engineArgs() {
    QFile f(dir.filePath("engine-args"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
  }
};

NcuProfile reduceProfile(const std::string& type) {
  NcuProfile p = profileOf("long_scoreboard", 41.5);
  p.kernel = "reduce.vectorized";
  p.size = kwb::vectorSize("reduce", 1 << 20, type);
  p.reportPath = "/nowhere/reduce.vectorized-2^20-" + type + ".ncu-rep";
  return p;
}

TEST(NcuProfilePanel, ProfilesTheCaseAndShowsItsFigures) {
  Stand s(profileOf("barrier", 27.94));
  CaseDetailDialog dialog(s.c, RunDocument{});
  NcuProfilePanel* panel = dialog.enableProfiling(s.ctx());
  ASSERT_TRUE(panel->canProfile()) << panel->statusText().toStdString();
  EXPECT_EQ(panel->table()->rowCount(), 0);
  bool done = false, ok = false;
  QObject::connect(panel, &NcuProfilePanel::finished, [&](bool good) {
    done = true;
    ok = good;
  });
  panel->findChild<QPushButton*>()->click();
  ASSERT_TRUE(test::waitFor([&] { return done; }, 10000));
  EXPECT_TRUE(ok) << panel->statusText().toStdString();
  ASSERT_EQ(panel->table()->rowCount(), 1);
  EXPECT_EQ(panel->table()->item(0, 1)->text(), "27.94");
  EXPECT_EQ(panel->table()->item(0, 3)->text(), "48.3");
  EXPECT_EQ(panel->table()->item(0, 6)->text(), "barrier (2.50 cycles/issue)");
  EXPECT_FALSE(panel->isStale()) << panel->statusText().toStdString();
  EXPECT_TRUE(QFile::exists(panel->profileJsonPath()));

  // A second dialog for the same case shows the profile kept beside the results.
  CaseDetailDialog again(s.c, RunDocument{});
  EXPECT_EQ(again.enableProfiling(s.ctx())->table()->rowCount(), 1);
  EXPECT_TRUE(again.profilePanel()->statusText().contains("Profiled earlier"));
}

TEST(NcuProfilePanel, AFailedProfileSaysWhyAndKeepsTheEarlierFigures) {
  Stand first(profileOf("barrier", 27.94));
  {
    NcuProfilePanel panel(first.c, first.ctx());
    bool done = false;
    QObject::connect(&panel, &NcuProfilePanel::finished, [&](bool) { done = true; });
    panel.startProfile();
    ASSERT_TRUE(test::waitFor([&] { return done; }, 10000));
  }
  // Same folder, now an engine that fails.
  writeExecutable(first.engine, "#!/bin/sh\necho 'ncu: ERR_NVGPUCTRPERM' >&2\nexit 1\n");
  NcuProfilePanel panel(first.c, first.ctx());
  ASSERT_EQ(panel.table()->rowCount(), 1);
  bool done = false, ok = true;
  QObject::connect(&panel, &NcuProfilePanel::finished, [&](bool good) {
    done = true;
    ok = good;
  });
  panel.startProfile();
  ASSERT_TRUE(test::waitFor([&] { return done; }, 10000));
  EXPECT_FALSE(ok);
  EXPECT_TRUE(panel.statusText().contains("exit 1")) << panel.statusText().toStdString();
  EXPECT_TRUE(panel.statusText().contains("ERR_NVGPUCTRPERM"));
  EXPECT_EQ(panel.table()->rowCount(), 1);
  EXPECT_EQ(panel.table()->item(0, 1)->text(), "27.94");
}

TEST(NcuProfilePanel, AnUnreadableEarlierProfileIsNamedNotShown) {
  Stand s(profileOf("barrier", 27.94));
  NcuProfilePanel probe(s.c, s.ctx());
  QFile bad(probe.profileJsonPath());
  ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
  bad.write("{ not json");
  bad.close();
  NcuProfilePanel panel(s.c, s.ctx());
  EXPECT_EQ(panel.table()->rowCount(), 0);
  EXPECT_TRUE(panel.statusText().contains("could not be read")) << panel.statusText().toStdString();
}

// A profile kept beside the results names the case, configuration and revision it belongs to;
// one that does not match (or does not say) is marked stale, never shown as this case's figures.
TEST(NcuProfilePanel, AProfileOfAnotherRevisionOrOneThatDoesNotSayIsMarkedStale) {
  for (const std::string& revision : {std::string("0ld5eed"), std::string()}) {
    NcuProfile old = profileOf("barrier", 27.94);
    old.gitRevision = revision;
    Stand s(old);
    NcuProfilePanel probe(s.c, s.ctx());
    QFile f(probe.profileJsonPath());
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(ncuProfileToJson(old)));
    f.close();
    NcuProfilePanel panel(s.c, s.ctx());
    EXPECT_TRUE(panel.isStale()) << revision;
    EXPECT_TRUE(panel.statusText().contains("Stale profile")) << panel.statusText().toStdString();
    EXPECT_TRUE(panel.statusText().contains("revision")) << panel.statusText().toStdString();
    EXPECT_TRUE(panel.title().contains("STALE"));
    EXPECT_FALSE(panel.table()->isEnabled());
  }
  // Another configuration of the kernel is stale too; the same one at the same revision is not.
  NcuProfile tuned = profileOf("barrier", 27.94);
  tuned.config = "bm128_bn64";
  Stand s(tuned);
  EXPECT_FALSE(profileMismatches(tuned, s.c, "abc123").isEmpty());
  EXPECT_TRUE(profileMismatches(profileOf("barrier", 1), s.c, "abc123").isEmpty());
  CaseResult other = s.c;
  other.size = kwb::gemmSize({1024, 1024, 1024});
  EXPECT_FALSE(profileMismatches(profileOf("barrier", 1), other, "abc123").isEmpty());
}

// A reduce case is profiled as kwb profile takes it (its family and whole size, no --shape), its
// profile kept under a name of its size and shown as this case's.
TEST(NcuProfilePanel, AOneDimensionalCaseIsProfiledByItsFamilyAndSize) {
  Stand s(reduceProfile("f32"));
  s.c.kernel = "reduce.vectorized";
  s.c.size = kwb::vectorSize("reduce", 1 << 20, "f32");
  CaseDetailDialog dialog(s.c, RunDocument{});
  NcuProfilePanel* panel = dialog.enableProfiling(s.ctx());
  ASSERT_TRUE(panel->canProfile()) << panel->statusText().toStdString();
  EXPECT_TRUE(panel->profileJsonPath().endsWith("/reduce.vectorized-2^20-f32.profile.json"))
      << panel->profileJsonPath().toStdString();
  bool done = false, ok = false;
  QObject::connect(panel, &NcuProfilePanel::finished, [&](bool good) {
    done = true;
    ok = good;
  });
  panel->startProfile();
  ASSERT_TRUE(test::waitFor([&] { return done; }, 10000));
  EXPECT_TRUE(ok) << panel->statusText().toStdString();
  const QStringList args = s.engineArgs();
  EXPECT_EQ(args.mid(0, 7), (QStringList{"profile", "--kernel", "reduce.vectorized", "--family",
                                         "reduce", "--sizes", "2^20 f32"}))
      << args.join(' ').toStdString();
  EXPECT_FALSE(args.contains("--shape"));
  EXPECT_FALSE(panel->isStale()) << panel->statusText().toStdString();
  ASSERT_EQ(panel->table()->rowCount(), 1);
  EXPECT_EQ(panel->table()->item(0, 1)->text(), "41.50");
}

// A profile of the same reduce kernel at another element type, or of a GEMM size, is not this
// case's: stale, saying which size it is of.
TEST(NcuProfilePanel, AOneDimensionalProfileOfAnotherSizeIsStale) {
  Stand s(reduceProfile("i32"));
  s.c.kernel = "reduce.vectorized";
  s.c.size = kwb::vectorSize("reduce", 1 << 20, "f32");
  NcuProfilePanel probe(s.c, s.ctx());
  QFile f(probe.profileJsonPath());
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(QByteArray::fromStdString(ncuProfileToJson(reduceProfile("i32"))));
  f.close();
  NcuProfilePanel panel(s.c, s.ctx());
  EXPECT_TRUE(panel.isStale());
  EXPECT_TRUE(panel.statusText().contains("it is at 2^20 i32, not 2^20 f32"))
      << panel.statusText().toStdString();
  EXPECT_TRUE(profileMismatches(reduceProfile("f32"), s.c, "abc123").isEmpty());
  NcuProfile gemm = reduceProfile("f32");
  gemm.size = kwb::gemmSize({512, 512, 512});
  EXPECT_EQ(profileMismatches(gemm, s.c, "abc123"),
            QStringList{"it is at gemm 512x512x512, not reduce 2^20 f32"});
}

// ncu's text for an anonymous namespace, with or without its '<', and mangled names read as C++.
TEST(NcuProfilePanel, KernelNamesAreReadable) {
  EXPECT_EQ(readableKernelName("unnamed>::splitKReduce(long, int, const float *)"),
            "(anonymous namespace)::splitKReduce(long, int, const float *)");
  EXPECT_EQ(readableKernelName("void <unnamed>::k<float>(int)"),
            "void (anonymous namespace)::k<float>(int)");
  EXPECT_EQ(readableKernelName("_ZN12_GLOBAL__N_112splitKReduceElif"),
            "(anonymous namespace)::splitKReduce(long, int, float)");
  EXPECT_EQ(readableKernelName("sgemmTiled"), "sgemmTiled");
  EXPECT_EQ(readableKernelName("myunnamed>::x"), "myunnamed>::x");
}

}  // namespace
}  // namespace kwb::gui
