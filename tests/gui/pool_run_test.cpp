// SPDX-License-Identifier: Apache-2.0
// A run on every GPU of the host (Run ▸ Every GPU of the host: kwb run --devices all, a host
// pool, docs/SCALE_OUT.md) as the GUI sees it: the pool's stream, whole-run plan first, then two
// engines' events tagged with their GPU and shard, replayed by the real engine (`kwb replay`).
#include <gtest/gtest.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "app/main_window.h"
#include "gui_test_support.h"
#include "kwb/results.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

QByteArray tagged(const QByteArray& line, int gpu) {
  return "{\"gpu\":" + QByteArray::number(gpu) + ",\"shard\":" + QByteArray::number(gpu + 1) + "," +
         line.mid(1);
}

// The bundled stream as a two-GPU pool would send it: its cases split by index parity.
QString pooledStream(const QString& dir) {
  QFile in(test::sampleStream());
  if (!in.open(QIODevice::ReadOnly)) return {};
  QByteArrayList header, cases;
  QByteArray plan, done;
  for (const QByteArray& line : in.readAll().split('\n')) {
    if (line.contains("\"event\":\"plan\"")) plan = line;
    if (line.contains("\"event\":\"done\"")) done = line;
    if (line.contains("\"event\":\"hello\"") || line.contains("\"event\":\"device\""))
      header << line;
    if (line.contains("\"event\":\"case_")) cases << line;
  }
  QByteArray out = plan + "\n";  // the whole run's plan, untagged
  // Each engine's own plan lists its part only: here none of the cases, so a reader that took it
  // for the run's would refuse every case as one it did not ask for.
  QJsonObject part = QJsonDocument::fromJson(plan).object();
  part["cases"] = QJsonArray();
  const QByteArray partPlan = QJsonDocument(part).toJson(QJsonDocument::Compact);
  for (int gpu : {0, 1})
    for (const QByteArray& h : header + QByteArrayList{partPlan}) out += tagged(h, gpu) + "\n";
  const QRegularExpression index("\"index\":(\\d+)");
  for (const QByteArray& c : cases)
    out += tagged(c, index.match(QString::fromUtf8(c)).captured(1).toInt() % 2) + "\n";
  out += done + "\n";
  const QString path = dir + "/pool.jsonl";
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(out) != out.size()) return {};
  return path;
}

}  // namespace

TEST(PoolRun, ARunOnEveryGpuAsksForDevicesAllAndOneDeviceOtherwise) {
  RunRequest r;
  r.kernels = {"sgemm.tiled"};
  r.sizes = {gemmSize({64, 64, 64})};
  r.device = 1;
  EXPECT_TRUE(r.toArguments().contains("--device"));
  r.devices = "all";
  const QStringList args = r.toArguments();
  const auto at = args.indexOf("--devices");
  ASSERT_GE(at, 0) << args.join(' ').toStdString();
  EXPECT_EQ(args.value(at + 1), "all");
  EXPECT_FALSE(args.contains("--device")) << args.join(' ').toStdString();
}

TEST(PoolRun, EachCaseShowsTheGpuThatRanItAndProgressIsPerGpu) {
  QTemporaryDir dir;
  const QString stream = pooledStream(dir.path());
  ASSERT_FALSE(stream.isEmpty());
  const RunDocument recorded = readDocument(test::sampleRun().toStdString());
  auto w = std::make_unique<MainWindow>(test::quietWindow());
  bool finished = false, ok = false;
  QString message, progressSeen;
  QObject::connect(w->controller(), &RunController::runFinished, w.get(),
                   [&](const RunDocument&, bool good, const QString& m) {
                     finished = true;
                     ok = good;
                     message = m;
                   });
  QObject::connect(w->controller(), &RunController::progress, w.get(),
                   [&](int, int) { progressSeen = w->controller()->gpuProgress(); });
  w->controller()->setEngine(KWB_ENGINE);
  w->controller()->setArgumentBuilder([stream](const RunRequest&) {
    return QStringList{"replay", stream, "--speed", "0"};
  });
  RunRequest r;
  for (const auto& c : recorded.cases) {
    if (!r.kernels.contains(QString::fromStdString(c.kernel)))
      r.kernels << QString::fromStdString(c.kernel);
    if (!r.sizes.contains(c.size)) r.sizes << c.size;
  }
  r.devices = "all";
  w->controller()->start(r);
  ASSERT_TRUE(test::waitFor([&] { return finished; }, 30000));
  EXPECT_TRUE(ok) << message.toStdString();
  const RunDocument& doc = w->model()->document();
  ASSERT_EQ(doc.cases.size(), recorded.cases.size()) << message.toStdString();
  ASSERT_EQ(doc.devices.size(), 2u);
  int onGpu1 = 0;
  for (const CaseResult& c : doc.cases) {
    const DeviceInfo* d = doc.deviceOf(c);
    ASSERT_NE(d, nullptr) << c.kernel;
    onGpu1 += d->index == 1;
  }
  EXPECT_EQ(onGpu1, int(doc.cases.size()) / 2) << "the odd-indexed cases ran on GPU 1";
  EXPECT_TRUE(progressSeen.contains("GPU 0: ") && progressSeen.contains("GPU 1: "))
      << progressSeen.toStdString();
}
