// SPDX-License-Identifier: Apache-2.0
// Hot reload of a user kernel: every save of the watched .cu re-runs the request through the
// engine with --source (here the fake engine, which replays recorded cases).
#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

#include "engine/run_controller.h"
#include "engine/user_kernel_watcher.h"
#include "gui_test_support.h"
#include "kwb/results_json.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

void save(const QString& path, const QByteArray& text) {
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(text);
}

}  // namespace

TEST(UserKernelWatcher, EverySaveRerunsTheRequestWithTheSource) {
  qputenv("KWB_FAKE_DOC", test::sampleRun().toLocal8Bit());
  qunsetenv("KWB_FAKE_DELAY_MS");
  qunsetenv("KWB_FAKE_CRASH");
  const RunDocument doc = readDocument(test::sampleRun().toStdString());
  QTemporaryDir dir;
  const QString path = dir.filePath("my_sgemm.cu");
  save(path, "// v1\n");

  RunController controller;
  controller.setEngine(KWB_FAKE_ENGINE);
  QStringList lastArgs;
  controller.setArgumentBuilder([&](const RunRequest& r) {
    lastArgs = r.toArguments();
    return lastArgs;
  });
  int finished = 0;
  QObject::connect(&controller, &RunController::runFinished, &controller,
                   [&](const RunDocument&, bool, const QString&) { ++finished; });
  RunRequest request;
  request.kernels << QString::fromStdString(doc.cases.front().kernel)
                  << UserKernelWatcher::caseId(path);
  request.sizes << doc.cases.front().size;

  UserKernelWatcher watcher;
  ASSERT_TRUE(watcher.setSource(path));
  EXPECT_EQ(UserKernelWatcher::caseId(path), "user.my_sgemm");
  int saves = 0;
  QObject::connect(&watcher, &UserKernelWatcher::saved, &controller, [&](const QString& p) {
    ++saves;
    RunRequest r = request;
    r.source = p;
    controller.start(r);
  });

  EXPECT_EQ(finished, 0);  // nothing runs before a save
  save(path, "// v2\n");
  ASSERT_TRUE(test::waitFor([&] { return finished == 1; }, 10000));
  EXPECT_EQ(saves, 1);
  EXPECT_TRUE(lastArgs.contains("--source")) << lastArgs.join(' ').toStdString();
  EXPECT_EQ(lastArgs.at(lastArgs.indexOf("--source") + 1), watcher.source());
  // The user case is not a registry id: it is left out of --kernels.
  EXPECT_FALSE(lastArgs.join(' ').contains("user.my_sgemm")) << lastArgs.join(' ').toStdString();

  // An editor that replaces the file (write a new one, rename it over) still triggers.
  const QString tmp = dir.filePath("my_sgemm.cu.new");
  save(tmp, "// v3\n");
  QFile::remove(path);
  ASSERT_TRUE(QFile::rename(tmp, path));
  ASSERT_TRUE(test::waitFor([&] { return finished == 2; }, 10000));
  EXPECT_EQ(saves, 2);
}

TEST(UserKernelWatcher, ArgumentsWithoutSourceAreUnchanged) {
  RunRequest r;
  r.kernels << "sgemm.tiled"
            << "cublas.sgemm";
  r.sizes << Shape{64, 64, 64};
  EXPECT_EQ(r.toArguments(), (QStringList{"run", "--stream", "--kernels",
                                          "sgemm.tiled,cublas.sgemm", "--shapes", "64x64x64"}));
  r.source = "/x/k.cu";
  r.kernels << "user.k";
  EXPECT_EQ(r.toArguments(),
            (QStringList{"run", "--stream", "--kernels", "sgemm.tiled,cublas.sgemm", "--shapes",
                         "64x64x64", "--source", "/x/k.cu"}));
}
