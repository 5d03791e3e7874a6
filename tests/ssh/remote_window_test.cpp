// SPDX-License-Identifier: Apache-2.0
// The window at a GPU server: the Run on choice reaches the run controller, and the device
// panel and kernel list show what `kwb device --json` and `kwb list --json` say over ssh.
#include <gtest/gtest.h>

#include <QComboBox>
#include <algorithm>

#include "panels/device_panel.h"
#include "gui_test_support.h"
#include "kwb/results.h"
#include "app/main_window.h"
#include "panels/run_on_combo.h"
#include "panels/run_panel.h"
#include "ssh_fixture.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

struct RemoteWindow : ::testing::Test {
  static void SetUpTestSuite() {
    server = new test::SshFixture;
    started = server->start();
  }
  static void TearDownTestSuite() {
    delete server;
    server = nullptr;
  }
  void SetUp() override {
    if (!server->absentReason().isEmpty())
      GTEST_SKIP() << "no real sshd to test against: " << server->absentReason().toStdString();
    ASSERT_TRUE(started) << server->error().toStdString();
    WindowOptions o;
    o.persistSettings = false;
    o.engineOverride = "/nonexistent/local/kwb";  // only the server's engine can answer
    w = std::make_unique<MainWindow>(o);
  }
  static inline test::SshFixture* server = nullptr;
  static inline bool started = false;
  std::unique_ptr<MainWindow> w;
};

}  // namespace

TEST_F(RemoteWindow, TheDevicePanelAndKernelListShowTheServersGpu) {
  const QString deviceDoc = test::sampleRun();
  const DeviceInfo d = *readDocument(deviceDoc.toStdString()).device;
  const EngineLocation where =
      server->location(server->writeEngine("probe", {{"KWB_FAKE_DEVICE", deviceDoc}}));
  ASSERT_TRUE(w->model()->catalog().isEmpty());
  ASSERT_EQ(w->runOnCombo()->select(where), "");
  EXPECT_EQ(w->controller()->location(), where);
  EXPECT_EQ(w->runOnCombo()->combo()->currentText(), "kwb-test");
  ASSERT_TRUE(test::waitFor([&] { return w->devicePanel()->hasLiveDevice(); }, 30000))
      << w->messageText().toStdString();
  EXPECT_TRUE(w->devicePanel()->titleText().contains(QString::fromStdString(d.name)));
  EXPECT_TRUE(w->runPanel()->runButton()->isEnabled());
  ASSERT_TRUE(test::waitFor([&] { return !w->model()->catalog().isEmpty(); }, 30000));
  const auto& listed = w->model()->catalog().kernels();
  EXPECT_TRUE(std::any_of(listed.begin(), listed.end(),
                          [](const auto& k) { return k.id == "cublas.sgemm"; }));
}

TEST_F(RemoteWindow, AnUnreachableServerSaysSoInsteadOfNoGpu) {
  ASSERT_EQ(w->runOnCombo()->select(server->withClosedPort("kwb")), "");
  ASSERT_TRUE(test::waitFor([&] { return !w->messageText().isEmpty(); }, 30000));
  EXPECT_TRUE(w->messageText().contains("kwb-test cannot be reached"))
      << w->messageText().toStdString();
  EXPECT_FALSE(w->runPanel()->runButton()->isEnabled());
}

TEST_F(RemoteWindow, BackToLocalAsksTheLocalEngineAgain) {
  ASSERT_EQ(w->runOnCombo()->select(server->withClosedPort("kwb")), "");
  w->runOnCombo()->combo()->setCurrentIndex(0);
  EXPECT_TRUE(w->controller()->location().isLocal());
  EXPECT_TRUE(w->messageText().contains("/nonexistent/local/kwb"))
      << w->messageText().toStdString();
}
