// SPDX-License-Identifier: Apache-2.0
// Bring your own kernel in the window: opening or dropping a .cu lists user.<stem>; a save runs
// it again through the engine (the fake engine, which compiles --source with the real kwb and
// answers user.<stem> with a recorded case made `// fake-speedup: X` times as fast, and `kwb
// ab` of two versions with B / A the ratio of their speedups); the previous run becomes the
// baseline, kwb ab's verdict is shown; a failed compile keeps the last good results and lists
// its errors with their lines. tests/gui/ab_gui_test.cpp holds kwb ab's part in detail.
#include <gtest/gtest.h>

#include <QFile>
#include <QMimeData>
#include <QProcess>
#include <QTemporaryDir>
#include <QUrl>
#include <QtGui/QDropEvent>

#include "app/main_window.h"
#include "engine/editor_launch.h"
#include "gui_test_support.h"
#include "model/compile_diagnostics.h"
#include "pages/baseline_page.h"
#include "panels/kernel_list_widget.h"
#include "panels/user_kernel_panel.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

QByteArray exampleKernel() {
  QFile f(QString(KWB_SOURCE_DIR) + "/resources/examples/sgemm_tiled_user.cu");
  EXPECT_TRUE(f.open(QIODevice::ReadOnly));
  return f.readAll();
}

void save(const QString& path, const QByteArray& text) {
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(text);
}

bool listed(const KernelListWidget* list, const QString& id) {
  return list->checkedIds().contains(id) || list->uncheckedIds().contains(id);
}

struct Byok : ::testing::Test {
  void SetUp() override {
    qputenv("KWB_FAKE_DOC", test::sampleRun().toLocal8Bit());
    qputenv("KWB_FAKE_USER_AS", "sgemm.tiled");
    qputenv("KWB_NVRTC_CACHE", "0");
    qunsetenv("KWB_FAKE_DELAY_MS");
    qunsetenv("KWB_FAKE_CRASH");
    qunsetenv("KWB_FAKE_HOSTILE");
    WindowOptions o = test::quietWindow();
    o.engineOverride = KWB_FAKE_ENGINE;
    w = std::make_unique<MainWindow>(o);
    QObject::connect(w->controller(), &RunController::runFinished, w.get(),
                     [this](const RunDocument&, bool, const QString&) { ++runs; });
    path = dir.filePath("my_sgemm.cu");
    save(path, exampleKernel());
  }
  void TearDown() override { qunsetenv("KWB_FAKE_USER_AS"); }
  RunRequest request() const {
    RunRequest r;
    r.kernels << "sgemm.tiled"
              << "user.my_sgemm";
    r.sizes << Shape{1024, 1024, 1024} << Shape{2048, 2048, 2048};
    return r;
  }
  const CaseResult* userCase(const RunDocument& d, int n) const {
    return d.find("user.my_sgemm", Shape{n, n, n});
  }
  QTemporaryDir dir;
  QString path;
  std::unique_ptr<MainWindow> w;
  int runs = 0;
};

}  // namespace

TEST_F(Byok, OpenAndDropAddTheUserKernelToTheKernelList) {
  EXPECT_FALSE(listed(w->kernelList(), "user.my_sgemm"));
  EXPECT_EQ(w->openKernelSource(path), "");
  EXPECT_TRUE(listed(w->kernelList(), "user.my_sgemm"));
  EXPECT_TRUE(w->kernelList()->checkedIds().contains("user.my_sgemm"));
  EXPECT_EQ(w->userKernelSource(), QFileInfo(path).absoluteFilePath());

  // A .cu dropped on the window is opened as a kernel, not as results.
  const QString other = dir.filePath("other_gemm.cu");
  save(other, exampleKernel());
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(other)});
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  // Straight to the window's event handler: offscreen there is no drag for notify() to route.
  static_cast<QObject*>(w.get())->event(&drop);
  EXPECT_TRUE(listed(w->kernelList(), "user.other_gemm"));
  EXPECT_EQ(w->userKernelSource(), QFileInfo(other).absoluteFilePath());

  // Not a kernel source: said, and nothing listed.
  const QString notCu = dir.filePath("notes.txt");
  save(notCu, "x");
  EXPECT_TRUE(w->openKernelSource(notCu).contains("notes.txt"));
  EXPECT_TRUE(w->openKernelSource(dir.filePath("gone.cu")).contains("no such file"));
  EXPECT_FALSE(listed(w->kernelList(), "user.notes"));
  EXPECT_FALSE(listed(w->kernelList(), "user.gone"));
}

TEST_F(Byok, ASaveRerunsAndShowsTheChangeAgainstThePreviousRun) {
  ASSERT_EQ(w->openKernelSource(path), "");
  w->runRequest(request());
  ASSERT_TRUE(test::waitFor([&] { return runs == 1; }, 20000));
  ASSERT_TRUE(userCase(w->model()->document(), 1024))
      << w->userKernelPanel()->statusText().toStdString();
  const CaseResult first = *userCase(w->model()->document(), 1024);  // the document changes
  ASSERT_TRUE(first.timed());
  EXPECT_EQ(first.sourcePath, QFileInfo(path).absoluteFilePath().toStdString());
  EXPECT_FALSE(w->model()->baseline().has_value());  // no previous run yet
  EXPECT_TRUE(w->userKernelPanel()->abText().contains("first good run"));

  // The edit makes the kernel 1.25 times as fast; the save alone starts the run.
  save(path, "// fake-speedup: 1.25\n" + exampleKernel());
  ASSERT_TRUE(test::waitFor([&] { return runs == 2; }, 20000));
  const CaseResult* second = userCase(w->model()->document(), 1024);
  ASSERT_TRUE(second && second->timed());
  EXPECT_NEAR(second->gflops / first.gflops, 1.25, 1e-9);
  // The previous run is the baseline: the bars and verdicts stand next to it.
  ASSERT_TRUE(w->model()->baseline().has_value());
  const CaseResult* before = userCase(*w->model()->baseline(), 1024);
  ASSERT_TRUE(before);
  EXPECT_DOUBLE_EQ(before->gflops, first.gflops);
  const QString changes = w->userKernelPanel()->changesText();
  EXPECT_TRUE(changes.contains("1024x1024x1024: ")) << changes.toStdString();
  EXPECT_FALSE(changes.contains("FASTER")) << changes.toStdString();
  // The decision is kwb ab's: B (this save) takes 0.8 of A's time.
  ASSERT_TRUE(test::waitFor([&] { return !w->abRunner()->isRunning(); }, 20000));
  EXPECT_TRUE(w->userKernelPanel()->abText().contains(
      "1024x1024x1024: B/A 0.8000, 95% CI 0.7992 .. 0.8008: FASTER"))
      << w->userKernelPanel()->abText().toStdString();
  w->baselinePage()->rebuildNow();
  bool row = false;
  for (int i = 0; i < w->baselinePage()->table()->rowCount(); ++i)
    if (w->baselinePage()->table()->item(i, 0)->text() == "user.my_sgemm" &&
        w->baselinePage()->table()->item(i, 1)->text() == "1024x1024x1024") {
      row = true;
      // 1.25 times as fast: the time is 20% shorter, said as kwb compare says it.
      EXPECT_EQ(w->baselinePage()->table()->item(i, 4)->text(), "-20.0%");
      EXPECT_EQ(w->baselinePage()->table()->item(i, 5)->text(), "1.25× faster");
      EXPECT_EQ(w->baselinePage()->table()->item(i, 6)->text(), "FASTER");
    }
  EXPECT_TRUE(row);

  // Slower again: the change is against the run just before, not the first one.
  save(path, "// fake-speedup: 1.0\n" + exampleKernel());
  ASSERT_TRUE(test::waitFor([&] { return runs == 3; }, 20000));
  ASSERT_TRUE(test::waitFor([&] { return !w->abRunner()->isRunning(); }, 20000));
  EXPECT_TRUE(w->userKernelPanel()->abText().contains("2048x2048x2048: B/A 1.2500"))
      << w->userKernelPanel()->abText().toStdString();
  EXPECT_TRUE(w->userKernelPanel()->abText().contains("SLOWER"));
}

TEST_F(Byok, AFailedCompileKeepsTheLastGoodResultAndListsTheErrorLines) {
  ASSERT_EQ(w->openKernelSource(path), "");
  w->runRequest(request());
  ASSERT_TRUE(test::waitFor([&] { return runs == 1; }, 20000));
  const double good = userCase(w->model()->document(), 2048)->gflops;
  ASSERT_GT(good, 0);

  // Two errors planted on known lines (3 and 5 of the file).
  save(path,
       "// kwb: entry=k block=16x16 tile=16x16\n"
       "extern \"C\" __global__ void k(int M, int N, int K, float alpha,\n"
       "    const float* A, const float* B, float beta, float* C) { int x = nope_one;\n"
       "  (void)x;\n"
       "  float y = nope_two; (void)y;\n"
       "}\n");
  ASSERT_TRUE(test::waitFor([&] { return runs == 2; }, 20000));
  // The last good run is still on screen.
  const CaseResult* kept = userCase(w->model()->document(), 2048);
  ASSERT_TRUE(kept) << "the failed compile cleared the results";
  EXPECT_DOUBLE_EQ(kept->gflops, good);
  EXPECT_TRUE(w->userKernelPanel()->statusText().contains("compile failed"))
      << w->userKernelPanel()->statusText().toStdString();
  QListWidget* errors = w->userKernelPanel()->diagnostics();
  ASSERT_EQ(errors->count(), 2);
  EXPECT_EQ(errors->item(0)->data(Qt::UserRole).toInt(), 3);
  EXPECT_EQ(errors->item(1)->data(Qt::UserRole).toInt(), 5);
  EXPECT_TRUE(errors->item(0)->text().contains("nope_one"))
      << errors->item(0)->text().toStdString();
  // A click on an error asks for the editor at its line (the window's editor launch is
  // taken off first: no editor starts in a test).
  QString file;
  int line = 0;
  QObject::disconnect(w->userKernelPanel(), &UserKernelPanel::openRequested, w.get(), nullptr);
  QObject::connect(w->userKernelPanel(), &UserKernelPanel::openRequested, w.get(),
                   [&](const QString& f, int l) {
                     file = f;
                     line = l;
                   });
  emit errors->itemClicked(errors->item(1));
  EXPECT_EQ(line, 5);
  EXPECT_EQ(QFileInfo(file).fileName(), "my_sgemm.cu");

  // Fixed: it runs again, and the errors go.
  save(path, exampleKernel());
  ASSERT_TRUE(test::waitFor([&] { return runs == 3; }, 20000));
  EXPECT_EQ(errors->count(), 0);
  EXPECT_TRUE(errors->isHidden());
}

TEST(ByokParse, DiagnosticsOfTheEngineWithTheirLines) {
  const auto d = parseCompileDiagnostics(
      {"kwb: error: /k/a.cu: compilation failed",
       "/k/a.cu:4:11: error: identifier \"u\" is undefined", "--- NVRTC log ---",
       "/k/a.cu(4): error: identifier \"u\" is undefined", "/k/a.cu:9:1: error: after the log"});
  ASSERT_EQ(d.size(), 1);
  EXPECT_EQ(d[0].file, "/k/a.cu");
  EXPECT_EQ(d[0].line, 4);
  EXPECT_EQ(d[0].column, 11);
  EXPECT_EQ(d[0].message, "identifier \"u\" is undefined");
  const auto h = parseCompileDiagnostics(
      {"kwb: error: /k/b.cu:1: unknown key 'blok' in the kwb: header (known: entry)"});
  ASSERT_EQ(h.size(), 1);
  EXPECT_EQ(h[0].line, 1);
  EXPECT_EQ(h[0].column, 0);
  EXPECT_EQ(h[0].severity, "error");
  EXPECT_TRUE(parseCompileDiagnostics({"wall time 1.0 s", "no line here: x"}).isEmpty());
}

TEST(ByokEditor, TheEditorOpensAtTheLineWhereItCan) {
  EXPECT_EQ(editorCommand("vim", "/k/a.cu", 12), (QStringList{"vim", "+12", "/k/a.cu"}));
  EXPECT_EQ(editorCommand("/usr/bin/emacsclient -n", "/k/a.cu", 3),
            (QStringList{"/usr/bin/emacsclient", "-n", "+3", "/k/a.cu"}));
  EXPECT_EQ(editorCommand("code --wait", "/k/a.cu", 7),
            (QStringList{"code", "--wait", "--goto", "/k/a.cu:7"}));
  EXPECT_EQ(editorCommand("kate", "/k/a.cu", 7), (QStringList{"kate", "-l", "7", "/k/a.cu"}));
  EXPECT_EQ(editorCommand("someeditor", "/k/a.cu", 7), (QStringList{"someeditor", "/k/a.cu"}));
  EXPECT_EQ(editorCommand("vim", "/k/a.cu", 0), (QStringList{"vim", "/k/a.cu"}));
  EXPECT_TRUE(editorCommand("", "/k/a.cu", 7).isEmpty());
}

// The headless loop: run, save, the watcher's run, the shot after it.
TEST_F(Byok, HeadlessSourceShootsTheWindowAfterTheWatchersRun) {
  const QString png = dir.filePath("byok.png");
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");
  p.setProcessEnvironment(env);
  p.start(KWB_GUI_EXE, {"--source", path, "--engine", KWB_FAKE_ENGINE, "--kernels", "sgemm.tiled",
                        "--shapes", "1024,2048", "--screenshot", png});
  ASSERT_TRUE(p.waitForFinished(60000));
  const QString err = QString::fromLocal8Bit(p.readAllStandardError());
  EXPECT_EQ(p.exitCode(), 0) << err.toStdString();
  EXPECT_TRUE(err.contains("run 2 ended")) << err.toStdString();
  EXPECT_TRUE(err.contains("after run 2: 1024x1024x1024: ")) << err.toStdString();
  EXPECT_TRUE(err.contains("timed interleaved (kwb ab)")) << err.toStdString();
  EXPECT_TRUE(err.contains("1024x1024x1024: B/A 1.0000, 95% CI 0.9990 .. 1.0010: SAME"))
      << err.toStdString();
  EXPECT_GT(QFileInfo(png).size(), 10000);

  // No shapes: a usage error naming the option, and no run.
  p.start(KWB_GUI_EXE, {"--source", path, "--engine", KWB_FAKE_ENGINE, "--screenshot", png});
  ASSERT_TRUE(p.waitForFinished(60000));
  EXPECT_EQ(p.exitCode(), 2);
  EXPECT_TRUE(QString::fromLocal8Bit(p.readAllStandardError()).contains("--shapes"));
}

// Saves during a run: one run more when it ends, not one per save.
TEST_F(Byok, SavesDuringARunStartOneRunMoreWhenItEnds) {
  qputenv("KWB_FAKE_DELAY_MS", "400");
  ASSERT_EQ(w->openKernelSource(path), "");
  w->runRequest(request());
  // Saved once the engine has compiled the file and is running its cases.
  ASSERT_TRUE(test::waitFor([&] { return w->controller()->finishedCases() >= 1; }, 10000));
  save(path, "// fake-speedup: 2\n" + exampleKernel());
  ASSERT_TRUE(test::waitFor(
      [&] { return w->userKernelPanel()->statusText().contains("runs again when this run ends"); },
      5000));
  save(path, "// fake-speedup: 2.0\n" + exampleKernel());
  ASSERT_TRUE(test::waitFor([&] { return runs == 2; }, 30000));
  qunsetenv("KWB_FAKE_DELAY_MS");
  ASSERT_TRUE(test::waitFor([&] { return !w->abRunner()->isRunning(); }, 20000));
  EXPECT_TRUE(w->userKernelPanel()->abText().contains("1024x1024x1024: B/A 0.5000"))
      << w->userKernelPanel()->abText().toStdString();
  // No third run follows (each save was taken up by the second run).
  EXPECT_FALSE(test::waitFor([&] { return runs == 3 || w->controller()->isRunning(); }, 1000));
}

// Finding: after a crash the new engine for the user kernel's cases left was started without
// --kernels, so kwb run --source added cublas.sgemm, a case not asked for: a protocol error
// stopped the run at 2 of 6 cases. The cases left are now asked for exactly.
TEST_F(Byok, AfterACrashTheNewEngineRunsExactlyTheUserKernelsCasesLeft) {
  qputenv("KWB_FAKE_CRASH", "sgemm.tiled@1024x1024x1024");
  bool ok = true;
  QString message;
  QObject::connect(w->controller(), &RunController::runFinished, w.get(),
                   [&](const RunDocument&, bool o, const QString& m) {
                     ok = o;
                     message = m;
                   });
  ASSERT_EQ(w->openKernelSource(path), "");
  RunRequest r = request();
  r.sizes << Shape{4096, 4096, 4096};
  w->runRequest(r);
  ASSERT_TRUE(test::waitFor([&] { return runs == 1; }, 30000));
  qunsetenv("KWB_FAKE_CRASH");
  EXPECT_FALSE(ok);
  EXPECT_EQ(message, "The run finished, but 1 of 6 cases crashed the engine.");
  // The crashed engine, one for user.my_sgemm at 1024³ alone, one for both at the others.
  EXPECT_EQ(w->controller()->engineStarts(), 3);
  const RunDocument& got = w->controller()->document();
  EXPECT_EQ(got.cases.size(), 6u);
  EXPECT_EQ(got.find("cublas.sgemm", Shape{1024, 1024, 1024}), nullptr);
  for (const int n : {1024, 2048, 4096}) EXPECT_NE(userCase(got, n), nullptr) << n;
  const CaseResult* crashed = got.find("sgemm.tiled", Shape{1024, 1024, 1024});
  ASSERT_NE(crashed, nullptr);
  EXPECT_EQ(crashed->status, CaseStatus::kCrashed);

  // The arguments: the user case alone is named in --kernels; without it, no --source.
  RunRequest alone;
  alone.kernels << "user.my_sgemm";
  alone.sizes << Shape{64, 64, 64};
  alone.source = "/k/my_sgemm.cu";
  EXPECT_EQ(alone.toArguments(),
            (QStringList{"run", "--stream", "--kernels", "user.my_sgemm", "--shapes", "64x64x64",
                         "--source", "/k/my_sgemm.cu"}));
  alone.kernels = QStringList{"sgemm.tiled"};
  EXPECT_EQ(alone.toArguments(),
            (QStringList{"run", "--stream", "--kernels", "sgemm.tiled", "--shapes", "64x64x64"}));
}
