// SPDX-License-Identifier: Apache-2.0
// Live runs through a real process: the fake engine (a recorded document replayed per
// request), and `kwb replay` of a recorded event stream.
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QTemporaryDir>

#include "app/main_window.h"
#include "gui_test_support.h"
#include "kwb/results.h"
#include "model/doc_queries.h"
#include "pages/scaling_page.h"
#include "panels/run_panel.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

struct LiveRun : ::testing::Test {
  void SetUp() override {
    qputenv("KWB_FAKE_DOC", test::sampleRun().toLocal8Bit());
    qunsetenv("KWB_FAKE_DELAY_MS");
    qunsetenv("KWB_FAKE_CRASH");
    doc = readDocument(test::sampleRun().toStdString());
    WindowOptions o = test::quietWindow();
    o.engineOverride = KWB_FAKE_ENGINE;
    w = std::make_unique<MainWindow>(o);
    QObject::connect(w->controller(), &RunController::runFinished, w.get(),
                     [this](const RunDocument&, bool ok, const QString& m) {
                       finished = true;
                       finishedOk = ok;
                       message = m;
                     });
  }
  RunRequest allCases() const {
    RunRequest r;
    for (const auto& c : doc.cases) {
      if (!r.kernels.contains(QString::fromStdString(c.kernel)))
        r.kernels << QString::fromStdString(c.kernel);
      if (!r.sizes.contains(c.size)) r.sizes << c.size;
    }
    return r;
  }
  RunDocument doc;
  std::unique_ptr<MainWindow> w;
  bool finished = false;
  bool finishedOk = false;
  QString message;
};

}  // namespace

TEST_F(LiveRun, AStreamDrivesTheRunTo100PercentAndFillsPlotsAsItGoes) {
  qputenv("KWB_FAKE_DELAY_MS", "5");
  // Plots fill as cases arrive: at two points mid-run the scaling plot holds a point for
  // every timed case finished so far.
  const int total = int(doc.cases.size());
  QList<int> pointsSeen, timedSeen;
  QObject::connect(w->model(), &ResultsModel::caseAppended, w.get(), [&](int index) {
    if (index == total / 3 || index == 2 * total / 3) {
      w->scalingPage()->rebuildNow();
      int points = 0;
      for (int g = 0; g < w->scalingPage()->plot()->graphCount(); ++g)
        points += w->scalingPage()->plot()->graph(g)->data()->size();
      pointsSeen << points;
      int timed = 0;
      for (const auto& c : w->model()->document().cases)
        timed += hasSpeed(w->model()->document(), c);
      timedSeen << timed;
    }
  });
  w->controller()->start(allCases());
  ASSERT_TRUE(test::waitFor([&] { return finished; }, 30000)) << "the run never finished";
  EXPECT_TRUE(finishedOk) << message.toStdString();
  ASSERT_EQ(pointsSeen.size(), 2);
  EXPECT_EQ(pointsSeen, timedSeen);
  EXPECT_GT(pointsSeen[0], 0);
  EXPECT_GT(pointsSeen[1], pointsSeen[0]);
  EXPECT_EQ(w->model()->document().cases.size(), doc.cases.size());
  EXPECT_EQ(w->runPanel()->progressBar()->value(), total);
  EXPECT_EQ(w->runPanel()->progressBar()->maximum(), total);
  EXPECT_TRUE(w->runPanel()->progressBar()->text().startsWith(QString("%1/%1").arg(total)));
  EXPECT_EQ(w->controller()->engineStarts(), 1);
  for (const auto& c : doc.cases) {
    const CaseResult* got = w->model()->document().find(c.kernel, c.shape());
    ASSERT_NE(got, nullptr) << c.kernel;
    EXPECT_EQ(got->status, c.status) << c.kernel;
  }
}

TEST_F(LiveRun, CancelStopsWithinASecondAndKeepsFinishedCases) {
  qputenv("KWB_FAKE_DELAY_MS", "200");
  w->controller()->start(allCases());
  ASSERT_TRUE(test::waitFor([&] { return w->model()->document().cases.size() >= 3; }, 20000));
  QElapsedTimer t;
  t.start();
  w->cancelRun();
  ASSERT_TRUE(test::waitFor([&] { return finished; }, 5000));
  const qint64 ms = t.elapsed();
  std::printf("cancel took %lld ms\n", static_cast<long long>(ms));
  EXPECT_LT(ms, 1000);
  EXPECT_FALSE(finishedOk);
  const auto n = w->model()->document().cases.size();
  EXPECT_GE(n, 3u);
  EXPECT_LT(n, doc.cases.size());
  EXPECT_TRUE(message.contains("cancelled")) << message.toStdString();
}

TEST_F(LiveRun, AnEngineThatDiesMarksTheCaseCrashedAndANewEngineFinishesTheRest) {
  qputenv("KWB_FAKE_CRASH", "sgemm.tiled@1024x1024x1024");
  w->controller()->start(allCases());
  ASSERT_TRUE(test::waitFor([&] { return finished; }, 30000));
  // The first engine dies; the cases left go to one engine per distinct kernel set, so no
  // finished case runs twice: 1024³ without naive and tiled, and the other shapes untouched.
  EXPECT_EQ(w->controller()->engineStarts(), 3);
  const RunDocument& got = w->model()->document();
  ASSERT_EQ(got.cases.size(), doc.cases.size());
  const CaseResult* crashed = got.find("sgemm.tiled", {1024, 1024, 1024});
  ASSERT_NE(crashed, nullptr);
  EXPECT_EQ(crashed->status, CaseStatus::kCrashed);
  EXPECT_NE(crashed->message.find("illegal memory access"), std::string::npos) << crashed->message;
  for (const auto& c : doc.cases) {
    if (c.kernel == "sgemm.tiled" && c.shape() == Shape{1024, 1024, 1024}) continue;
    const CaseResult* r = got.find(c.kernel, c.shape());
    ASSERT_NE(r, nullptr) << c.kernel << " " << toString(c.shape());
    EXPECT_EQ(r->status, c.status);
  }
}

TEST_F(LiveRun, AMissingEngineIsAClearMessageInTheWindow) {
  w->controller()->setEngine("/nonexistent/kwb");
  w->controller()->start(allCases());
  ASSERT_TRUE(test::waitFor([&] { return finished; }, 5000));
  EXPECT_FALSE(finishedOk);
  EXPECT_TRUE(message.contains("/nonexistent/kwb")) << message.toStdString();
  EXPECT_TRUE(w->messageText().contains("/nonexistent/kwb")) << w->messageText().toStdString();
}

TEST_F(LiveRun, KwbReplayDrivesALiveRun) {
  // The real engine re-emits a recorded stream: the GUI sees exactly what `kwb run --stream`
  // printed on the machine that recorded it.
  w->controller()->setEngine(KWB_ENGINE);
  w->controller()->setArgumentBuilder([](const RunRequest&) {
    return QStringList{"replay", test::sampleStream(), "--speed", "0"};
  });
  w->controller()->start(allCases());
  ASSERT_TRUE(test::waitFor([&] { return finished; }, 30000));
  // The recorded stream is the bundled run: replayed, it rebuilds every case of it.
  EXPECT_EQ(w->model()->document().cases.size(), doc.cases.size()) << message.toStdString();
  EXPECT_EQ(w->runPanel()->progressBar()->value(), int(doc.cases.size()));
  for (const auto& c : doc.cases) {
    const CaseResult* got = w->model()->document().find(c.kernel, c.shape());
    ASSERT_NE(got, nullptr) << c.kernel;
    EXPECT_EQ(got->gflops, c.gflops) << c.kernel;
  }
}

// "Every case passed." is core's allPassed over the document the run built, so a known-answer
// test that failed is no success however the cases went; and a run from a preset records it.
TEST_F(LiveRun, AFailedKnownAnswerTestIsNotEveryCasePassedAndThePresetIsRecorded) {
  // One kernel on up to three shapes where it passed: a grid of passing cases.
  RunDocument passing = doc;
  passing.cases.clear();
  RunRequest r;
  for (const auto& c : doc.cases) {
    if (c.status != CaseStatus::kPass || passing.cases.size() == 3) continue;
    if (r.kernels.isEmpty()) r.kernels << QString::fromStdString(c.kernel);
    if (r.kernels.front().toStdString() != c.kernel) continue;
    passing.cases.push_back(c);
    r.sizes << c.size;
  }
  ASSERT_FALSE(passing.cases.empty());
  r.suite = "spec-benchmark";
  QTemporaryDir dir;
  for (const bool kaPassed : {true, false}) {
    passing.knownAnswer.ran = true;
    passing.knownAnswer.passed = kaPassed;
    const QString path = dir.filePath(kaPassed ? "ka-pass.json" : "ka-fail.json");
    qputenv("KWB_FAKE_DOC", test::writeFixture(passing, path).toLocal8Bit());
    finished = false;
    w->controller()->start(r);
    ASSERT_TRUE(test::waitFor([&] { return finished; }, 30000)) << "the run never finished";
    EXPECT_TRUE(finishedOk) << message.toStdString();
    EXPECT_EQ(message,
              kaPassed ? "Every case passed." : "The run finished; some cases did not pass.");
    EXPECT_EQ(w->model()->document().settings.suite, "spec-benchmark");
    EXPECT_FALSE(w->model()->document().kernels.empty());
  }
}
