// SPDX-License-Identifier: Apache-2.0
// kwb-gui supervises its engine (docs/RELIABILITY.md, "When the engine breaks"): an engine that
// floods stderr, hangs, is stopped, closes its stdout, lives on after `done` or leaves a planned
// case unreported ends the run with a message within 10 s (the silence limit set to 2 s by
// KWB_GUI_ENGINE_SILENCE_S), and no engine outlives kwb-gui.
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <csignal>

#include "engine/run_controller.h"
#include "gui_test_support.h"
#include "kwb/results.h"
#include "model/case_size.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

struct Supervision : ::testing::Test {
  void SetUp() override {
    qputenv("KWB_FAKE_DOC", test::sampleRun().toLocal8Bit());
    qputenv("KWB_GUI_ENGINE_SILENCE_S", "2");
    qunsetenv("KWB_FAKE_DELAY_MS");
    qunsetenv("KWB_FAKE_CRASH");
    doc = readDocument(test::sampleRun().toStdString());
    for (const auto& c : doc.cases) {
      if (!request.kernels.contains(QString::fromStdString(c.kernel)))
        request.kernels << QString::fromStdString(c.kernel);
      if (!request.sizes.contains(c.size)) request.sizes << c.size;
    }
    controller.setEngine(KWB_FAKE_ENGINE);
    QObject::connect(&controller, &RunController::runFinished, &controller,
                     [this](const RunDocument& d, bool ok, const QString& m) {
                       ++finishedCount;
                       finishedOk = ok;
                       message = m;
                       result = d;
                     });
    QObject::connect(&controller, &RunController::logLine, &controller,
                     [this](const QString& level, const QString& line) {
                       if (level == "engine") loggedBytes += line.size();
                       log << line.left(100) + line.right(100);
                     });
  }
  void TearDown() override {
    qunsetenv("KWB_FAKE_HOSTILE");
    qunsetenv("KWB_GUI_ENGINE_SILENCE_S");
  }
  // Runs every case against the engine `mode`; true when the run ended within 10 s.
  bool runWith(const char* mode) {
    qputenv("KWB_FAKE_HOSTILE", mode);
    QElapsedTimer t;
    t.start();
    controller.start(request);
    const bool ended = test::waitFor([&] { return finishedCount > 0; }, 10000);
    std::printf("%s: ended after %lld ms, %d engine(s): %s\n", mode,
                static_cast<long long>(t.elapsed()), controller.engineStarts(),
                message.toStdString().c_str());
    return ended;
  }
  // The case the fake engine's hostile modes stop on: the second of its plan.
  QString secondCase() const { return request.kernels[1] + " at " + sizeName(request.sizes[0]); }
  RunDocument doc;
  RunRequest request;
  RunController controller;
  int finishedCount = 0;
  bool finishedOk = true;
  QString message;
  RunDocument result;
  qsizetype loggedBytes = 0;
  QStringList log;
};

// Whether process `pid` still runs (a zombie no parent reaped yet does not).
bool running(qint64 pid) {
  QFile stat(QString("/proc/%1/stat").arg(pid));
  if (!stat.open(QIODevice::ReadOnly)) return false;
  const QByteArray text = stat.readAll();
  const qsizetype close = text.lastIndexOf(')');
  return close < 0 || close + 2 >= text.size() || text[close + 2] != 'Z';
}

}  // namespace

// Finding: 26 MB/s of stderr without a newline grew kwb-gui without bound.
TEST_F(Supervision, StderrWithoutNewlinesIsLoggedWithinABound) {
  qputenv("KWB_GUI_ENGINE_SILENCE_S", "8");  // the flood itself sends no event for a while
  ASSERT_TRUE(runWith("stderr-flood")) << "the run never ended";
  EXPECT_TRUE(finishedOk) << message.toStdString();
  EXPECT_EQ(int(result.cases.size()), int(doc.cases.size()));
  // 64 MiB written; at most 4 MiB of it (one line cut at 64 KiB) reaches the log.
  EXPECT_LT(loggedBytes, qsizetype(1) << 20);
  EXPECT_TRUE(log.join('\n').contains("more bytes of this line left out")) << loggedBytes;
}

TEST_F(Supervision, AnEngineSilentMidCaseIsEndedNamingTheSilenceAndTheCase) {
  ASSERT_TRUE(runWith("hang")) << "the run never ended";
  EXPECT_FALSE(finishedOk);
  EXPECT_TRUE(message.contains("sent no event for 2 s while running " + secondCase()))
      << message.toStdString();
  EXPECT_EQ(controller.engineStarts(), 1);
  ASSERT_EQ(result.cases.size(), 2u);
  EXPECT_EQ(result.cases[1].status, CaseStatus::kCrashed);
}

TEST_F(Supervision, AStoppedEngineIsEndedAndSaidToBeStopped) {
  ASSERT_TRUE(runWith("sigstop")) << "the run never ended";
  EXPECT_FALSE(finishedOk);
  EXPECT_TRUE(message.contains("sent no event for 2 s while running " + secondCase()))
      << message.toStdString();
  EXPECT_TRUE(message.contains("stopped (SIGSTOP)")) << message.toStdString();
}

// Ended at once: with the silence limit at a minute, the run still ends within the 10 s.
TEST_F(Supervision, AnEngineThatClosesItsStdoutAndLivesOnIsEnded) {
  qputenv("KWB_GUI_ENGINE_SILENCE_S", "60");
  ASSERT_TRUE(runWith("close-stdout")) << "the run never ended";
  EXPECT_FALSE(finishedOk);
  EXPECT_TRUE(message.contains("while running " + secondCase())) << message.toStdString();
  EXPECT_TRUE(message.contains("closed its stdout")) << message.toStdString();
  EXPECT_FALSE(message.contains("no event for")) << message.toStdString();
}

TEST_F(Supervision, AnEngineAliveAfterDoneIsEndedAndTheRunKept) {
  ASSERT_TRUE(runWith("linger")) << "the run never ended";
  EXPECT_TRUE(finishedOk) << message.toStdString();
  EXPECT_EQ(int(result.cases.size()), int(doc.cases.size()));
  EXPECT_TRUE(message.contains("still running 2 s after it said it was done"))
      << message.toStdString();
}

// Finding: a plan listing a case that never reports still ended with "Every case passed."
TEST_F(Supervision, APlannedCaseNeverReportedIsNotOk) {
  ASSERT_TRUE(runWith("skip-case")) << "the run never ended";
  EXPECT_FALSE(finishedOk);
  EXPECT_TRUE(message.contains(QString("1 of %1 cases were never reported").arg(doc.cases.size())))
      << message.toStdString();
  EXPECT_FALSE(message.contains("Every case passed")) << message.toStdString();
}

namespace {

// kwb-gui headless on a user kernel, its engine hung mid-case (SIGTERM ignored); `signal` is
// sent to kwb-gui once the engine runs. Returns kwb-gui's exit status and the engine's pid.
struct GuiAndEngine {
  QProcess gui;
  qint64 engine = 0;
  QTemporaryDir dir;
  void start() {
    const QString source = dir.filePath("my_sgemm.cu");
    ASSERT_TRUE(
        QFile::copy(QString(KWB_SOURCE_DIR) + "/resources/examples/sgemm_tiled_user.cu", source));
    const QString pidFile = dir.filePath("engine.pid");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("DISPLAY");
    env.insert("KWB_FAKE_DOC", test::sampleRun());
    env.insert("KWB_FAKE_HOSTILE", "hang");
    env.insert("KWB_FAKE_PIDFILE", pidFile);
    env.insert("KWB_NVRTC_CACHE", "0");
    gui.setProcessEnvironment(env);
    gui.start(KWB_GUI_EXE,
              {"--source", source, "--engine", KWB_FAKE_ENGINE, "--kernels", "sgemm.tiled",
               "--shapes", "1024,2048", "--screenshot", dir.filePath("x.png")});
    ASSERT_TRUE(gui.waitForStarted(10000));
    // The engine writes its pid as it starts, once it has compiled the kernel.
    ASSERT_TRUE(test::waitFor(
        [&] {
          QFile f(pidFile);
          return f.open(QIODevice::ReadOnly) && (engine = f.readAll().trimmed().toLongLong()) > 0;
        },
        60000))
        << gui.readAllStandardError().toStdString();
    ASSERT_TRUE(running(engine));
  }
};

}  // namespace

// Finding: SIGTERM, SIGINT or SIGHUP to kwb-gui left the engine running under PID 1.
TEST(GuiSupervision, OnSigtermTheGuiStopsItsEngineAndExits) {
  for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
    GuiAndEngine g;
    ASSERT_NO_FATAL_FAILURE(g.start());
    ::kill(pid_t(g.gui.processId()), signal);
    ASSERT_TRUE(g.gui.waitForFinished(10000)) << "kwb-gui did not exit on signal " << signal;
    EXPECT_EQ(g.gui.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(g.gui.exitCode(), 128 + signal) << g.gui.readAllStandardError().toStdString();
    EXPECT_TRUE(test::waitFor([&] { return !running(g.engine); }, 10000))
        << "the engine " << g.engine << " outlived kwb-gui (signal " << signal << ")";
  }
}

// However kwb-gui dies, the kernel ends its engine (PR_SET_PDEATHSIG).
TEST(GuiSupervision, OnSigkillTheEngineDiesWithTheGui) {
  GuiAndEngine g;
  ASSERT_NO_FATAL_FAILURE(g.start());
  g.gui.kill();
  ASSERT_TRUE(g.gui.waitForFinished(10000));
  EXPECT_TRUE(test::waitFor([&] { return !running(g.engine); }, 10000))
      << "the engine " << g.engine << " outlived kwb-gui";
}
