// SPDX-License-Identifier: Apache-2.0
// The engine probe at start: `kwb device --json` and `kwb list --json` answered by the fake
// engine, as on a machine without a GPU (exit 3) and on one with a GPU.
#include <gtest/gtest.h>

#include <QProcess>

#include "app/main_window.h"
#include "engine/app_paths.h"
#include "gui_test_support.h"
#include "model/doc_queries.h"
#include "model/kernel_lookup.h"
#include "panels/device_panel.h"
#include "panels/run_panel.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

std::unique_ptr<MainWindow> windowWithEngine(const QString& engine) {
  WindowOptions o = test::quietWindow();
  o.engineOverride = engine;
  return std::make_unique<MainWindow>(o);
}

QString expectedBanner(const RunDocument& doc) {
  return QString("No CUDA device — showing results recorded on %1 on %2")
      .arg(QString::fromStdString(doc.device->name),
           QString::fromStdString(doc.timestamp).left(10));
}

}  // namespace

TEST(EngineProbe, NoGpuShowsTheBannerOverTheBundledSampleAndTheRegistryKernels) {
  qunsetenv("KWB_FAKE_DEVICE");
  auto w = windowWithEngine(KWB_FAKE_ENGINE);
  ASSERT_TRUE(w->openBundledSample());
  const RunDocument sample = readDocument(newestSample().toStdString());
  ASSERT_TRUE(sample.device.has_value()) << newestSample().toStdString();
  w->probeEngine();
  ASSERT_TRUE(
      test::waitFor([&] { return !w->devicePanel()->bannerText().startsWith("Results"); }, 10000));
  EXPECT_EQ(w->devicePanel()->bannerText(), expectedBanner(sample));
  EXPECT_FALSE(w->devicePanel()->hasLiveDevice());
  EXPECT_FALSE(w->runPanel()->runButton()->isEnabled());

  // `list --json` is the engine's registry: every kernel it lists is offered, in stage order.
  QProcess list;
  list.start(KWB_ENGINE, {"list", "--json"});
  ASSERT_TRUE(list.waitForFinished(10000));
  ASSERT_EQ(list.exitCode(), 0);
  const KernelLookup registry = KernelLookup::fromListJson(list.readAllStandardOutput());
  ASSERT_FALSE(registry.isEmpty());
  ASSERT_TRUE(test::waitFor(
      [&] { return w->model()->catalog().kernels().size() >= registry.kernels().size(); }, 10000));
  for (const KernelInfo& k : registry.kernels())
    EXPECT_EQ(w->model()->catalog().info(k.id).stage, k.stage) << k.id;
}

TEST(EngineProbe, AMissingEngineShowsTheBannerToo) {
  auto w = windowWithEngine("/nonexistent/kwb");
  ASSERT_EQ(w->openResults(test::sampleRun()), "");
  w->probeEngine();
  EXPECT_EQ(w->devicePanel()->bannerText(),
            expectedBanner(readDocument(test::sampleRun().toStdString())));
  EXPECT_TRUE(w->messageText().contains("/nonexistent/kwb")) << w->messageText().toStdString();
}

TEST(EngineProbe, AGpuShowsItsNameSmsClocksAndPeaks) {
  const QString deviceDoc = newestSample();
  qputenv("KWB_FAKE_DEVICE", deviceDoc.toLocal8Bit());
  const DeviceInfo d = *readDocument(deviceDoc.toStdString()).device;
  auto w = windowWithEngine(KWB_FAKE_ENGINE);
  w->probeEngine();
  ASSERT_TRUE(test::waitFor([&] { return w->devicePanel()->hasLiveDevice(); }, 10000));
  qunsetenv("KWB_FAKE_DEVICE");
  DevicePanel* p = w->devicePanel();
  EXPECT_EQ(p->bannerText(), "");
  EXPECT_TRUE(p->titleText().contains(QString::fromStdString(d.name)))
      << p->titleText().toStdString();
  EXPECT_TRUE(p->titleText().contains(QString("sm_%1%2").arg(d.ccMajor).arg(d.ccMinor)));
  const QString details = p->detailsText();
  for (const QString& part : {QString("%1 SMs").arg(d.smCount), QString("%1 MHz").arg(d.smClockMhz),
                              QString("FP32 %1").arg(d.peakFp32Tflops, 0, 'f', 1),
                              QString("FP16 %1 TFLOP/s").arg(d.peakFp16TensorTflops, 0, 'f', 0),
                              QString("%1 GB/s").arg(d.peakBandwidthGBs, 0, 'f', 0)})
    EXPECT_TRUE(details.contains(part)) << part.toStdString() << " in " << details.toStdString();
  EXPECT_TRUE(w->runPanel()->runButton()->isEnabled());
}
