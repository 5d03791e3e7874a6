// SPDX-License-Identifier: Apache-2.0
// The GUI's run controller and engine driver through a real sshd on 127.0.0.1 (ssh_fixture.h),
// running the fake engine on the "server": the same event stream, cancel, a dropped connection
// and the failures a user meets, each with its sentence.
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <memory>

#include "gui_test_support.h"
#include "kwb/events.h"
#include "kwb/results.h"
#include "engine/run_controller.h"
#include "ssh_fixture.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

// Bounds for things that take milliseconds; they only keep a broken build from hanging.
constexpr int kRunMs = 60000;
constexpr int kGoneMs = 10000;

struct RemoteRun : ::testing::Test {
  static void SetUpTestSuite() {
    server = new test::SshFixture;
    QElapsedTimer clock;
    clock.start();
    started = server->start();
    std::printf("[ sshd     ] %s in %lld ms\n",
                started ? qPrintable(QString("listening on port %1").arg(server->port()))
                        : qPrintable(server->error()),
                static_cast<long long>(clock.elapsed()));
  }
  static void TearDownTestSuite() {
    delete server;
    server = nullptr;
  }
  void SetUp() override {
    if (!server->absentReason().isEmpty())
      GTEST_SKIP() << "no real sshd to test against: " << server->absentReason().toStdString();
    ASSERT_TRUE(started) << server->error().toStdString();
    doc = readDocument(test::sampleRun().toStdString());
    QObject::connect(&controller, &RunController::runFinished,
                     [this](const RunDocument& d, bool ok, const QString& m) {
                       finished = true;
                       finishedOk = ok;
                       message = m;
                       result = d;
                     });
  }
  // An engine on the server replaying the sample, `delayMs` per case.
  QString engine(const QString& name, int delayMs, QMap<QString, QString> env = {}) {
    env["KWB_FAKE_DOC"] = test::sampleRun();
    env["KWB_FAKE_DELAY_MS"] = QString::number(delayMs);
    return server->writeEngine(name, env);
  }
  RunRequest cases(int count) const {
    RunRequest r;
    for (const auto& c : doc.cases) {
      if (r.caseCount() >= count) break;
      if (!r.sizes.contains(c.size)) r.sizes << c.size;
      if (!r.kernels.contains(QString::fromStdString(c.kernel)))
        r.kernels << QString::fromStdString(c.kernel);
    }
    return r;
  }
  void runExpectingFailure(const EngineLocation& where) {
    controller.setLocation(where);
    controller.start(cases(2));
    ASSERT_TRUE(test::waitFor([&] { return finished; }, kRunMs)) << "the run never ended";
    EXPECT_FALSE(finishedOk);
    EXPECT_TRUE(message.contains("kwb-test")) << message.toStdString();
    std::printf("[ message  ] %s\n", qPrintable(message));
  }

  static inline test::SshFixture* server = nullptr;
  static inline bool started = false;
  RunDocument doc;
  RunController controller;
  bool finished = false;
  bool finishedOk = false;
  QString message;
  RunDocument result;
};

}  // namespace

TEST_F(RemoteRun, AFullStreamedRunArrivesThroughSsh) {
  controller.setLocation(server->location(engine("full", 0)));
  const RunRequest request = cases(int(doc.cases.size()));
  controller.start(request);
  ASSERT_TRUE(test::waitFor([&] { return finished; }, kRunMs)) << "the run never finished";
  // The sample holds cases that did not pass: the run is complete, not all good.
  EXPECT_FALSE(message.contains("kwb-test")) << message.toStdString();
  EXPECT_EQ(controller.engineStarts(), 1);
  ASSERT_EQ(int(result.cases.size()), request.caseCount()) << message.toStdString();
  for (const CaseResult& c : result.cases) {
    const CaseResult* recorded = doc.find(c.kernel, c.shape());
    ASSERT_NE(recorded, nullptr) << c.kernel;
    EXPECT_EQ(c.status, recorded->status) << c.kernel << " " << toString(c.shape());
    EXPECT_EQ(c.summary.median, recorded->summary.median) << c.kernel;
  }
  ASSERT_TRUE(result.device.has_value());
  EXPECT_EQ(result.device->name, doc.device->name);
}

TEST_F(RemoteRun, CancelClosesTheChannelAndTheRemoteEngineEndsMidCase) {
  // A minute per case: only noticing its closed stdout can end the engine within kGoneMs.
  controller.setLocation(server->location(engine("cancel", 60000)));
  const QString marker = server->marker("cancel");
  bool caseRunning = false;
  QObject::connect(&controller, &RunController::caseStarted, [&] { caseRunning = true; });
  controller.start(cases(3));
  ASSERT_TRUE(test::waitFor([&] { return caseRunning; }, kRunMs)) << message.toStdString();
  ASSERT_FALSE(test::SshFixture::processesWith(marker).isEmpty()) << "no engine on the server";
  QElapsedTimer clock;
  clock.start();
  controller.cancel();
  ASSERT_TRUE(test::waitFor([&] { return finished; }, kGoneMs));
  EXPECT_TRUE(message.contains("cancelled")) << message.toStdString();
  EXPECT_TRUE(
      test::waitFor([&] { return test::SshFixture::processesWith(marker).isEmpty(); }, kGoneMs))
      << "the engine is still running on the server after cancel";
  std::printf("[ cancel   ] remote engine gone %lld ms after cancel\n",
              static_cast<long long>(clock.elapsed()));
}

TEST_F(RemoteRun, ADroppedConnectionKeepsTheFinishedCasesAndSaysSo) {
  controller.setLocation(server->location(engine("drop", 200)));
  const QString marker = server->marker("drop");
  int done = 0;
  QObject::connect(&controller, &RunController::caseFinished, [&] { ++done; });
  controller.start(cases(40));
  ASSERT_TRUE(test::waitFor([&] { return done >= 2 || finished; }, kRunMs));
  ASSERT_FALSE(finished) << "the run ended before the connection was dropped: "
                         << message.toStdString();
  ASSERT_GT(server->dropSessions(), 0) << "no sshd process served the session";
  ASSERT_TRUE(test::waitFor([&] { return finished; }, kRunMs)) << "the GUI hangs";
  std::printf("[ message  ] %s\n", qPrintable(message));
  EXPECT_FALSE(finishedOk);
  EXPECT_TRUE(message.contains("connection to kwb-test dropped during the run"))
      << message.toStdString();
  EXPECT_GE(result.cases.size(), 2u);
  EXPECT_EQ(int(result.cases.size()), done);
  EXPECT_TRUE(message.contains(QString("%1 of").arg(done))) << message.toStdString();
  for (const CaseResult& c : result.cases)
    EXPECT_NE(c.status, CaseStatus::kCrashed) << "a dropped connection is no engine crash";
  EXPECT_EQ(controller.engineStarts(), 1) << "no new engine through a dead connection";
  EXPECT_TRUE(
      test::waitFor([&] { return test::SshFixture::processesWith(marker).isEmpty(); }, kGoneMs))
      << "the engine kept running on the server after its connection dropped";
}

TEST_F(RemoteRun, AWrongHostKeyIsRefusedWithASentence) {
  runExpectingFailure(server->withForgedHostKey(engine("hostkey", 0)));
  EXPECT_TRUE(message.contains("host key of kwb-test does not match")) << message.toStdString();
}

TEST_F(RemoteRun, AKeyTheServerDoesNotAcceptIsRefusedWithoutAskingForAPassword) {
  runExpectingFailure(server->withUnknownUserKey(engine("userkey", 0)));
  EXPECT_TRUE(message.contains("kwb-test refused the login")) << message.toStdString();
}

TEST_F(RemoteRun, AnUnreachableHostIsSaid) {
  runExpectingFailure(server->withClosedPort(engine("closed", 0)));
  EXPECT_TRUE(message.contains("kwb-test cannot be reached")) << message.toStdString();
}

TEST_F(RemoteRun, AMissingRemoteKwbIsSaid) {
  runExpectingFailure(server->location(server->dir() + "/no-such-dir/kwb"));
  EXPECT_TRUE(message.contains("kwb was not found on kwb-test")) << message.toStdString();
}

TEST_F(RemoteRun, AnEngineOfAnotherProtocolVersionIsRefusedNamingBoth) {
  const int theirs = kProtocolVersion + 1;
  runExpectingFailure(
      server->location(engine("protocol", 0, {{"KWB_FAKE_PROTOCOL", QString::number(theirs)}})));
  EXPECT_TRUE(message.contains(QString("version %1").arg(theirs))) << message.toStdString();
  EXPECT_TRUE(message.contains(QString("version %1").arg(kProtocolVersion)))
      << message.toStdString();
  EXPECT_TRUE(result.cases.empty());
}
