// SPDX-License-Identifier: Apache-2.0
// A live run's document is built once, by RunController's DocumentBuilder (core), and the
// window's ResultsModel reads that document in place: the pages draw from what the builder
// made, derived figures of older-schema streams included.
#include <gtest/gtest.h>

#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <memory>

#include "app/main_window.h"
#include "gui_test_support.h"
#include "kwb/events.h"
#include "kwb/family.h"
#include "kwb/results_json.h"
#include "model/results_model.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

// tests/data/gui-sample-spec-benchmark.jsonl: a schema-1 stream, whose cases carry no
// "figures" map; % of peak is derived from the device's peaks as they arrive.
QString olderSchemaStream() { return test::fixture("gui-sample-spec-benchmark.jsonl"); }

std::vector<StreamEvent> readEvents(const QString& path) {
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << path.toStdString();
  std::vector<StreamEvent> out;
  int n = 0;
  while (!f.atEnd()) {
    const QByteArray line = f.readLine().trimmed();
    ++n;
    if (!line.isEmpty()) out.push_back(parseEventLine(line.toStdString(), "stream", n));
  }
  return out;
}

RunRequest requestFor(const RunDocument& doc) {
  RunRequest r;
  for (const auto& c : doc.cases) {
    if (!r.kernels.contains(QString::fromStdString(c.kernel)))
      r.kernels << QString::fromStdString(c.kernel);
    if (!r.sizes.contains(c.size)) r.sizes << c.size;
  }
  return r;
}

std::unique_ptr<MainWindow> window(const QString& engine) {
  WindowOptions o = test::quietWindow();
  o.engineOverride = engine;
  return std::make_unique<MainWindow>(o);
}

// The status bar's case counts ("● 12 cases · 11 PASS …").
QString statusLine(MainWindow& w) {
  for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
    if (l->text().startsWith("●")) return l->text();
  return {};
}

bool waitForFinish(MainWindow& w) {
  bool finished = false;
  QObject::connect(w.controller(), &RunController::runFinished, &w, [&] { finished = true; });
  return test::waitFor([&] { return finished; }, 30000);
}

}  // namespace

TEST(LiveDocument, TheModelReadsTheBuildersDocumentInPlaceAndAnnouncesEachCase) {
  const std::vector<StreamEvent> events = readEvents(olderSchemaStream());
  auto keeper = std::make_unique<QObject>();
  DocumentBuilder builder;
  ResultsModel model;
  QSignalSpy appended(&model, &ResultsModel::caseAppended);
  QSignalSpy reset(&model, &ResultsModel::documentReset);
  model.followLive(builder.document(), "live run", keeper.get());
  EXPECT_TRUE(model.isLive());
  for (const StreamEvent& e : events) {
    if (e.type == EventType::kDone) break;
    builder.apply(e);
    if (e.type == EventType::kCaseFinished || e.type == EventType::kCaseFailed)
      model.liveCasesAdded();
    else if (e.type == EventType::kHello || e.type == EventType::kDevice ||
             e.type == EventType::kPlan)
      model.liveHeaderChanged();
  }
  EXPECT_EQ(&model.document(), &builder.document()) << "the model copied the document";
  const auto n = builder.document().cases.size();
  ASSERT_GT(n, 10u);
  ASSERT_EQ(std::size_t(appended.size()), n);
  for (int i = 0; i < appended.size(); ++i) EXPECT_EQ(appended[i][0].toInt(), i);
  EXPECT_EQ(reset.size(), 1 + 3);  // followLive, then hello, device, plan
  for (const auto& c : builder.document().cases) EXPECT_TRUE(model.catalog().contains(c.kernel));

  // A case the engine died on, marked crashed by the builder, is announced as the next case.
  StreamEvent started(EventType::kCaseStarted);
  started.index = 0;
  builder.apply(started);
  ASSERT_TRUE(builder.markCrashed("killed by SIGKILL"));
  model.liveCasesAdded();
  ASSERT_EQ(std::size_t(appended.size()), n + 1);
  EXPECT_EQ(appended.back()[0].toInt(), int(n));
  EXPECT_EQ(model.document().cases.back().status, CaseStatus::kCrashed);
  model.liveCasesAdded();  // nothing new: nothing announced
  EXPECT_EQ(std::size_t(appended.size()), n + 1);

  // Another document opened: the live run's news no longer reaches the pages.
  RunDocument opened;
  opened.cases.push_back(builder.document().cases.front());
  model.setDocument(opened, "opened.json");
  const int resets = int(reset.size());
  builder.apply(started);
  ASSERT_TRUE(builder.markCrashed("killed by SIGKILL"));
  model.liveCasesAdded();
  model.liveHeaderChanged();
  EXPECT_EQ(model.document().cases.size(), 1u);
  EXPECT_EQ(std::size_t(appended.size()), n + 1);
  EXPECT_EQ(reset.size(), resets);

  // The document's keeper gone: the model holds no dangling document.
  model.followLive(builder.document(), "live run", keeper.get());
  keeper.reset();
  EXPECT_TRUE(model.document().cases.empty());
}

// The builder derives % of peak for a stream of schema 1-3 (deriveOlderSchemaFigures); the
// model's own assembly of old did not, so a live run's pages lacked it until the run ended.
TEST(LiveDocument, AnOlderSchemaStreamHasTheBuildersDerivedFiguresWhileItRuns) {
  const std::vector<StreamEvent> events = readEvents(olderSchemaStream());
  ASSERT_EQ(events.front().schemaVersion, 1);
  std::vector<CaseResult> expected;  // as received, then derived the builder's way
  const DeviceInfo* device = nullptr;
  for (const StreamEvent& e : events) {
    if (e.device) device = &*e.device;
    if (!e.result) continue;
    ASSERT_FALSE(e.result->figures.contains("pct_of_peak")) << "the stream carries it already";
    expected.push_back(*e.result);
    deriveOlderSchemaFigures(expected.back(), legacyFamilyInfo(expected.back().problem()), 1,
                             device);
  }
  const auto derived = std::count_if(expected.begin(), expected.end(), [](const auto& c) {
    return c.figures.contains("pct_of_peak");
  });
  ASSERT_GT(derived, 30);

  auto w = window(KWB_ENGINE);
  w->controller()->setArgumentBuilder([](const RunRequest&) {
    return QStringList{"replay", olderSchemaStream(), "--speed", "0"};
  });
  int checked = 0;
  QObject::connect(w->model(), &ResultsModel::caseAppended, w.get(), [&](int i) {
    const RunDocument& doc = w->model()->document();
    EXPECT_EQ(&doc, &w->controller()->document()) << "case " << i << ": a copy";
    ASSERT_LT(std::size_t(i), expected.size());
    const CaseResult& got = doc.cases[std::size_t(i)];
    EXPECT_EQ(got.kernel, expected[std::size_t(i)].kernel);
    EXPECT_EQ(got.figures, expected[std::size_t(i)].figures) << got.kernel;
    EXPECT_TRUE(statusLine(*w).startsWith(QString("● %1 cases").arg(i + 1)))
        << statusLine(*w).toStdString();
    ++checked;
  });
  w->controller()->start(requestFor(readDocument(test::syntheticRun().toStdString())));
  ASSERT_TRUE(waitForFinish(*w)) << "the run never finished";
  EXPECT_EQ(checked, int(expected.size()));
  EXPECT_FALSE(w->model()->isLive());
  ASSERT_EQ(w->model()->document().cases.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(w->model()->document().cases[i].figures, expected[i].figures);
}

// After a run that crashed an engine and went on with new ones, what the window shows is the
// controller's document: the same cases in the same order, the same settings and kernels.
TEST(LiveDocument, AfterARestartedRunTheModelHoldsTheControllersDocument) {
  qputenv("KWB_FAKE_DOC", test::sampleRun().toLocal8Bit());
  qputenv("KWB_FAKE_CRASH", "sgemm.tiled@1024x1024x1024");
  qunsetenv("KWB_FAKE_DELAY_MS");
  auto w = window(KWB_FAKE_ENGINE);
  int copies = 0, announced = 0;
  QObject::connect(w->model(), &ResultsModel::caseAppended, w.get(), [&](int i) {
    copies += &w->model()->document() != &w->controller()->document();
    EXPECT_EQ(i, announced++);
  });
  const RunDocument sample = readDocument(test::sampleRun().toStdString());
  w->controller()->start(requestFor(sample));
  ASSERT_TRUE(waitForFinish(*w)) << "the run never finished";
  qunsetenv("KWB_FAKE_CRASH");
  EXPECT_EQ(w->controller()->engineStarts(), 3);
  EXPECT_EQ(copies, 0);
  const RunDocument& shown = w->model()->document();
  const RunDocument& built = w->controller()->document();
  EXPECT_EQ(announced, int(built.cases.size()));
  ASSERT_EQ(shown.cases.size(), sample.cases.size());
  EXPECT_EQ(nlohmann::json(shown.cases), nlohmann::json(built.cases));
  EXPECT_EQ(nlohmann::json(shown.settings), nlohmann::json(built.settings));
  EXPECT_EQ(nlohmann::json(shown.kernels), nlohmann::json(built.kernels));
  ASSERT_TRUE(shown.device && built.device);
  EXPECT_EQ(nlohmann::json(*shown.device), nlohmann::json(*built.device));
  const CaseResult* crashed = shown.find("sgemm.tiled", {1024, 1024, 1024});
  ASSERT_NE(crashed, nullptr);
  EXPECT_EQ(crashed->status, CaseStatus::kCrashed);
  EXPECT_TRUE(statusLine(*w).contains("1 CRASHED")) << statusLine(*w).toStdString();
}
