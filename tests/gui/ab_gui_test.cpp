// SPDX-License-Identifier: Apache-2.0
// `kwb ab` in the bring-your-own loop (docs/BRING_YOUR_OWN.md, "In the GUI"): each good run
// keeps a copy of the file as it compiled it; after the next good run, kwb ab times the two
// copies interleaved and the "Your kernel" box shows its B/A, 95% CI and verdict per size. The
// engine here is a script: `ab` records its arguments and the two files it was given, then
// answers with a report written by the test, fails as told, or stays until it is killed; every
// other command goes to the fake engine (fake_engine.cpp).
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <cerrno>
#include <csignal>

#include "app/main_window.h"
#include "engine/ab_runner.h"
#include "engine/source_snapshots.h"
#include "gui_test_support.h"
#include "model/ab_lines.h"
#include "panels/user_kernel_panel.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll()
                                     : QByteArray("<cannot read " + path.toUtf8() + ">");
}

void save(const QString& path, const QByteArray& text) {
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(text);
}

QByteArray exampleKernel() {
  return readAll(KWB_SOURCE_DIR "/resources/examples/sgemm_tiled_user.cu");
}

// What the test's engine answers: B (this save) faster at 1024³, undecided at 2048³.
AbReport sampleReport() {
  AbReport r;
  r.a = "user.my_sgemm";
  r.b = "user.my_sgemm#b";
  r.document = readDocument(test::sampleRun().toStdString());
  r.document.cases.clear();
  r.device = r.document.device;
  AbResult x;
  x.size = "1024x1024x1024";
  x.aMs = 0.0910;
  x.bMs = 0.0820;
  x.ratio = 0.9012;
  x.ci95 = {0.8990, 0.9034};
  x.pairs = 240;
  x.rounds = 10;
  x.verdict = Verdict::kFaster;
  x.reason = "B / A 0.9012, 95% CI 0.8990 .. 0.9034, wholly below 0.99";
  r.results.push_back(x);
  x.size = "2048x2048x2048";
  x.ratio = 1.0031;
  x.ci95 = {0.9950, 1.0110};
  x.verdict = Verdict::kUncertain;
  x.reason = "the CI crosses the margin";
  r.results.push_back(x);
  return r;
}

// The engine: in `rec`, `ab` call n writes args-n (one argument a line), against-n.cu and
// source-n.cu (copies of what --against and --source named when it ran), then: with a file
// `block` there, removes it, writes blocked.pid and sleeps until killed; with `fail`, prints
// its text as kwb's error and exits 2; else copies report.json to --json.
QString writeEngine(const QString& rec) {
  const QString path = rec + "/kwb-ab-engine.sh";
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(QString(R"sh(#!/bin/sh
if [ "$1" != ab ]; then exec '%1' "$@"; fi
rec='%2'
n=$(( $(cat "$rec/count" 2>/dev/null || echo 0) + 1 ))
printf '%s\n' "$@" > "$rec/args-$n"
while [ $# -gt 1 ]; do
  case "$1" in --against) against=$2 ;; --source) source=$2 ;; --json) json=$2 ;; esac
  shift
done
cp "$against" "$rec/against-$n.cu"; cp "$source" "$rec/source-$n.cu"
echo $n > "$rec/count"
if [ -e "$rec/block" ]; then rm -f "$rec/block"; echo $$ > "$rec/blocked.pid"; exec sleep 120; fi
if [ -e "$rec/fail" ]; then echo "kwb: error: $(cat "$rec/fail")" >&2; exit 2; fi
cp "$rec/report.json" "$json"
)sh")
              .arg(KWB_FAKE_ENGINE, rec)
              .toUtf8());
  f.close();
  f.setPermissions(f.permissions() | QFile::ExeOwner);
  save(rec + "/report.json", QByteArray::fromStdString(toJsonText(sampleReport())));
  return path;
}

bool gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

}  // namespace

TEST(AbLines, RatioCiAndVerdictAsTheReportHasThem) {
  const AbReport r = sampleReport();
  EXPECT_EQ(abLine(r.results[0]), "1024x1024x1024: B/A 0.9012, 95% CI 0.8990 .. 0.9034: FASTER");
  AbResult none;
  none.size = "512x512x512";
  none.reason = "no paired samples (a side was not timed)";
  EXPECT_EQ(abLine(none),
            "512x512x512: not compared (no paired samples (a side was not timed)): UNCERTAIN");
  EXPECT_EQ(abLines(r).size(), 2);
  // CUPTI's ratio is shown where it parts from the timer's by more than 5%, not otherwise.
  AbResult checked = r.results[0];
  checked.cuptiRatio = 0.99;
  EXPECT_EQ(abLine(checked),
            "1024x1024x1024: B/A 0.9012, 95% CI 0.8990 .. 0.9034: FASTER (CUPTI's kernel times "
            "read B/A 0.9900: not the kernels' alone)");
  checked.cuptiRatio = 0.92;
  EXPECT_EQ(abLine(checked), abLine(r.results[0]));
}

TEST(AbRequestArgs, AgainstTheOldCopySourceTheNewShapesSeedDevice) {
  AbRequest q;
  q.against = "/t/1/k.cu";
  q.source = "/t/2/k.cu";
  q.shapes = {Shape{1024, 1024, 1024}, Shape{511, 513, 1025}};
  EXPECT_EQ(q.toArguments("/t/r.json"),
            (QStringList{"ab", "--against", "/t/1/k.cu", "--source", "/t/2/k.cu", "--shapes",
                         "1024x1024x1024,511x513x1025", "--json", "/t/r.json"}));
  q.entry = "k";
  q.seed = 7;
  q.device = 1;
  EXPECT_EQ(q.toArguments("r").mid(5),
            (QStringList{"--entry", "k", "--shapes", "1024x1024x1024,511x513x1025", "--seed", "7",
                         "--device", "1", "--json", "r"}));
}

TEST(SourceSnapshotsTest, EachGoodVersionIsKeptAsItWasWhenItsRunStarted) {
  QTemporaryDir dir;
  const QString file = dir.filePath("my_sgemm.cu");
  save(file, "one");
  SourceSnapshots s;
  EXPECT_EQ(s.take(file), "");
  save(file, "one, edited after the run started");
  s.accept();
  const SourceCopy first = s.lastGood();
  EXPECT_NE(first.path, file);
  EXPECT_EQ(readAll(first.path).toStdString(), "one");
  EXPECT_EQ(first.entry, "my_sgemm");  // no header: the entry is the file's stem
  EXPECT_TRUE(s.previousGood().path.isEmpty());

  save(file, "// kwb: entry=renamed block=16x16\ntwo");
  EXPECT_EQ(s.take(file), "");
  save(file, "three, saved while two's run went on");
  s.accept();
  EXPECT_EQ(s.previousGood().path, first.path);
  EXPECT_EQ(readAll(s.previousGood().path).toStdString(), "one");
  EXPECT_EQ(readAll(s.lastGood().path).toStdString(), "// kwb: entry=renamed block=16x16\ntwo");
  EXPECT_EQ(s.lastGood().entry, "renamed");
  // Two copies never share a stem: the engine would run them as one kernel.
  EXPECT_NE(QFileInfo(s.lastGood().path).completeBaseName(),
            QFileInfo(s.previousGood().path).completeBaseName());
  EXPECT_TRUE(s.lastGood().path.endsWith(".cu"));
  // A version that did not compile leaves the good ones as they were.
  EXPECT_EQ(s.take(file), "");
  const QString bad = s.pending().path;
  s.discard();
  EXPECT_FALSE(QFile::exists(bad));
  EXPECT_EQ(readAll(s.previousGood().path).toStdString(), "one");
  // The oldest copy goes once no version names it.
  save(file, "four");
  EXPECT_EQ(s.take(file), "");
  s.accept();
  EXPECT_FALSE(QFile::exists(first.path));
  EXPECT_EQ(s.previousGood().entry, "renamed");
  EXPECT_EQ(readAll(s.lastGood().path).toStdString(), "four");
  EXPECT_TRUE(s.take(dir.filePath("gone.cu")).contains("gone.cu"));
  EXPECT_TRUE(s.pending().path.isEmpty());
}

struct AbRunnerTest : ::testing::Test {
  void SetUp() override {
    engine = writeEngine(rec.path());
    runner.setEngine(engine);
    request.against = rec.filePath("a/k.cu");
    request.source = rec.filePath("b/k.cu");
    QDir().mkpath(rec.filePath("a"));
    QDir().mkpath(rec.filePath("b"));
    save(request.against, "old");
    save(request.source, "new");
    request.shapes = {Shape{1024, 1024, 1024}, Shape{2048, 2048, 2048}};
  }
  QTemporaryDir rec;
  QString engine;
  AbRunner runner;
  AbRequest request;
};

TEST_F(AbRunnerTest, ReadsTheReportTheEngineWrote) {
  QSignalSpy done(&runner, &AbRunner::finished);
  QSignalSpy failed(&runner, &AbRunner::failed);
  ASSERT_EQ(runner.start(request), "");
  EXPECT_TRUE(runner.isRunning());
  ASSERT_TRUE(done.wait(20000)) << failed.count();
  const auto report = done.takeFirst().at(0).value<AbReport>();
  ASSERT_EQ(report.results.size(), 2u);
  EXPECT_DOUBLE_EQ(report.results[0].ratio, 0.9012);
  EXPECT_EQ(report.results[1].verdict, Verdict::kUncertain);
  EXPECT_EQ(failed.count(), 0);
  EXPECT_EQ(readAll(rec.filePath("against-1.cu")).toStdString(), "old");
  EXPECT_EQ(readAll(rec.filePath("source-1.cu")).toStdString(), "new");
}

TEST_F(AbRunnerTest, AnEngineThatFailsIsReportedWithItsMessage) {
  save(rec.filePath("fail"), "no CUDA device: cudaErrorNoDevice (simulated)");
  QSignalSpy done(&runner, &AbRunner::finished);
  QSignalSpy failed(&runner, &AbRunner::failed);
  ASSERT_EQ(runner.start(request), "");
  ASSERT_TRUE(failed.wait(20000));
  const QString why = failed.takeFirst().at(0).toString();
  EXPECT_TRUE(why.contains("exited with code 2")) << why.toStdString();
  EXPECT_TRUE(why.contains("kwb: error: no CUDA device: cudaErrorNoDevice (simulated)"))
      << why.toStdString();
  EXPECT_EQ(done.count(), 0);
}

TEST_F(AbRunnerTest, OverSshItIsNotAvailableAndStartsNothing) {
  EngineLocation remote;
  remote.host = "user@gpu-box";
  runner.setLocation(remote);
  const QString why = runner.start(request);
  EXPECT_TRUE(why.contains("over ssh is not available")) << why.toStdString();
  EXPECT_TRUE(why.contains("user@gpu-box")) << why.toStdString();
  EXPECT_FALSE(runner.isRunning());
  EXPECT_FALSE(QFile::exists(rec.filePath("count")));
}

TEST_F(AbRunnerTest, CancelKillsTheEngineAndReportsNothing) {
  save(rec.filePath("block"), "");
  QSignalSpy done(&runner, &AbRunner::finished);
  QSignalSpy failed(&runner, &AbRunner::failed);
  ASSERT_EQ(runner.start(request), "");
  ASSERT_TRUE(test::waitFor([&] { return QFile::exists(rec.filePath("blocked.pid")); }, 20000));
  const pid_t pid = readAll(rec.filePath("blocked.pid")).trimmed().toInt();
  ASSERT_GT(pid, 0);
  runner.cancel();
  EXPECT_FALSE(runner.isRunning());
  EXPECT_TRUE(test::waitFor([&] { return gone(pid); }, 5000));
  EXPECT_EQ(done.count() + failed.count(), 0);
}

namespace {

// The window with the script as its engine, and a user kernel opened.
struct AbLoop : ::testing::Test {
  void SetUp() override {
    qputenv("KWB_FAKE_DOC", test::sampleRun().toLocal8Bit());
    qputenv("KWB_FAKE_USER_AS", "sgemm.tiled");
    qputenv("KWB_NVRTC_CACHE", "0");
    qunsetenv("KWB_FAKE_DELAY_MS");
    WindowOptions o = test::quietWindow();
    o.engineOverride = writeEngine(rec.path());
    w = std::make_unique<MainWindow>(o);
    QObject::connect(w->controller(), &RunController::runFinished, w.get(),
                     [this](const RunDocument&, bool, const QString&) { ++runs; });
    path = dir.filePath("my_sgemm.cu");
    save(path, v1);
    ASSERT_EQ(w->openKernelSource(path), "");
  }
  void TearDown() override { qunsetenv("KWB_FAKE_USER_AS"); }
  void run() {
    RunRequest r;
    r.kernels << "sgemm.tiled"
              << "user.my_sgemm";
    r.sizes << Shape{1024, 1024, 1024} << Shape{2048, 2048, 2048};
    w->runRequest(r);
  }
  int abCalls() const { return readAll(rec.filePath("count")).trimmed().toInt(); }
  // Saved as `text`; true when the run it starts has ended within the time limit.
  bool saveAndRun(const QByteArray& text) {
    const int before = runs;
    save(path, text);
    return test::waitFor([&] { return runs > before; }, 30000);
  }
  bool abSettled(int calls) {
    return test::waitFor([&] { return abCalls() >= calls && !w->abRunner()->isRunning(); }, 30000);
  }
  QStringList args(int call) const {
    return QString::fromUtf8(readAll(rec.filePath(QString("args-%1").arg(call))))
        .split('\n', Qt::SkipEmptyParts);
  }
  UserKernelPanel* panel() const { return w->userKernelPanel(); }

  const QByteArray v1 = exampleKernel();
  const QByteArray v2 = "// fake-speedup: 1.25\n" + exampleKernel();
  QTemporaryDir dir, rec;
  QString path;
  std::unique_ptr<MainWindow> w;
  int runs = 0;
};

QString valueAfter(const QStringList& args, const QString& option) {
  const qsizetype i = args.indexOf(option);
  return i >= 0 && i + 1 < args.size() ? args[i + 1] : QString();
}

}  // namespace

TEST_F(AbLoop, ASaveIsDecidedByKwbAbOfTheCopiesOfThisSaveAndTheLastGoodOne) {
  run();
  ASSERT_TRUE(test::waitFor([&] { return runs == 1; }, 30000));
  EXPECT_TRUE(panel()->abText().contains("first good run")) << panel()->abText().toStdString();
  EXPECT_EQ(abCalls(), 0);

  // The runs differ by +25% (fake-speedup); kwb ab's report says otherwise at 2048, and decides.
  ASSERT_TRUE(saveAndRun(v2));
  ASSERT_TRUE(abSettled(1));
  const QStringList a = args(1);
  EXPECT_EQ(a.value(0), "ab");
  const QString against = valueAfter(a, "--against"), source = valueAfter(a, "--source");
  EXPECT_NE(against, QFileInfo(path).absoluteFilePath());  // copies, not the file being edited
  EXPECT_NE(QFileInfo(against).completeBaseName(), QFileInfo(source).completeBaseName());
  EXPECT_EQ(valueAfter(a, "--entry"), "sgemm_tiled_user");  // the example's // kwb: entry=
  EXPECT_EQ(readAll(rec.filePath("against-1.cu")).toStdString(),
            v1.toStdString());  // the old text, after the re-save
  EXPECT_EQ(readAll(rec.filePath("source-1.cu")).toStdString(), v2.toStdString());
  EXPECT_EQ(valueAfter(a, "--shapes"), "1024x1024x1024,2048x2048x2048");
  EXPECT_FALSE(valueAfter(a, "--json").isEmpty());
  const QString ab = panel()->abText();
  EXPECT_TRUE(ab.startsWith(UserKernelPanel::kAbHeader)) << ab.toStdString();
  EXPECT_TRUE(ab.contains("1024x1024x1024: B/A 0.9012, 95% CI 0.8990 .. 0.9034: FASTER"))
      << ab.toStdString();
  EXPECT_TRUE(ab.contains("2048x2048x2048: B/A 1.0031, 95% CI 0.9950 .. 1.0110: UNCERTAIN"))
      << ab.toStdString();
  // The separate runs' change is no verdict, and not shown while kwb ab decides.
  EXPECT_FALSE(panel()->changesText().contains("vs the previous run"))
      << panel()->changesText().toStdString();

  // A save that does not compile is no version to time against: the next good save is timed
  // against the last good one (v2), not against the broken text.
  ASSERT_TRUE(saveAndRun("this does not compile\n"));
  EXPECT_EQ(abCalls(), 1);
  const QByteArray v4 = "// fake-speedup: 1.5\n" + exampleKernel();
  ASSERT_TRUE(saveAndRun(v4));
  ASSERT_TRUE(abSettled(2));
  EXPECT_EQ(readAll(rec.filePath("against-2.cu")).toStdString(), v2.toStdString());
  EXPECT_EQ(readAll(rec.filePath("source-2.cu")).toStdString(), v4.toStdString());
}

TEST_F(AbLoop, AFailedAbSaysWhyAndLabelsTheSeparateRunsAsNoDecision) {
  save(rec.filePath("fail"), "no CUDA device: cudaErrorNoDevice (simulated)");
  run();
  ASSERT_TRUE(test::waitFor([&] { return runs == 1; }, 30000));
  ASSERT_TRUE(saveAndRun(v2));
  ASSERT_TRUE(abSettled(1));
  const QString ab = panel()->abText();
  EXPECT_TRUE(ab.contains("kwb: error: no CUDA device: cudaErrorNoDevice (simulated)"))
      << ab.toStdString();
  EXPECT_FALSE(ab.contains("B/A")) << ab.toStdString();
  const QString changes = panel()->changesText();
  EXPECT_TRUE(changes.startsWith("Separate runs (not a decision")) << changes.toStdString();
  EXPECT_TRUE(changes.contains("1024x1024x1024: ") &&
              changes.contains("+25.0% vs the previous run"))
      << changes.toStdString();
  for (const char* verdict : {"FASTER", "SLOWER", "SAME", "UNCERTAIN"})
    EXPECT_FALSE(changes.contains(verdict)) << changes.toStdString();

  // The window goes on: the next save runs, and kwb ab decides once it can.
  QFile::remove(rec.filePath("fail"));
  ASSERT_TRUE(saveAndRun("// fake-speedup: 1.5\n" + exampleKernel()));
  ASSERT_TRUE(abSettled(2));
  EXPECT_TRUE(panel()->abText().contains("B/A 0.9012")) << panel()->abText().toStdString();
  EXPECT_FALSE(panel()->changesText().contains("Separate runs"));
}

TEST_F(AbLoop, ASaveWhileKwbAbTimesStopsItAndRunsAgain) {
  run();
  ASSERT_TRUE(test::waitFor([&] { return runs == 1; }, 30000));
  save(rec.filePath("block"), "");
  ASSERT_TRUE(saveAndRun(v2));
  ASSERT_TRUE(test::waitFor([&] { return QFile::exists(rec.filePath("blocked.pid")); }, 20000));
  const pid_t pid = readAll(rec.filePath("blocked.pid")).trimmed().toInt();
  ASSERT_GT(pid, 0);
  EXPECT_TRUE(w->abRunner()->isRunning());
  EXPECT_TRUE(panel()->abText().contains("timing")) << panel()->abText().toStdString();

  // The save stops it before the new run starts (two processes would share the GPU).
  bool abAtRunStart = true;
  QString noteAtRunStart;
  QObject::connect(w->controller(), &RunController::runStarted, w.get(), [&] {
    abAtRunStart = w->abRunner()->isRunning();
    noteAtRunStart = panel()->abText();
  });
  const QByteArray v3 = "// fake-speedup: 2\n" + exampleKernel();
  ASSERT_TRUE(saveAndRun(v3));
  EXPECT_FALSE(abAtRunStart);
  EXPECT_TRUE(noteAtRunStart.contains("stopped")) << noteAtRunStart.toStdString();
  EXPECT_TRUE(test::waitFor([&] { return gone(pid); }, 5000)) << "kwb ab was not stopped";
  ASSERT_TRUE(abSettled(2));
  EXPECT_EQ(readAll(rec.filePath("against-2.cu")).toStdString(), v2.toStdString());
  EXPECT_EQ(readAll(rec.filePath("source-2.cu")).toStdString(), v3.toStdString());
  EXPECT_TRUE(panel()->abText().contains("B/A 0.9012")) << panel()->abText().toStdString();
}

TEST_F(AbLoop, AnEntryRenamedBetweenSavesIsSaidInsteadOfTimed) {
  run();
  ASSERT_TRUE(test::waitFor([&] { return runs == 1; }, 30000));
  QByteArray renamed = v2;
  renamed.replace("sgemm_tiled_user", "sgemm_renamed");
  ASSERT_TRUE(saveAndRun(renamed));
  EXPECT_EQ(abCalls(), 0);
  EXPECT_TRUE(panel()->abText().contains("renamed (sgemm_tiled_user, then sgemm_renamed)"))
      << panel()->abText().toStdString();
  EXPECT_TRUE(panel()->changesText().startsWith("Separate runs (not a decision"));
}
