// SPDX-License-Identifier: Apache-2.0
// kwb-gui against broken engines and hostile files (docs/RELIABILITY.md): every run ends with a
// clear message within 10 s, nothing aborts, and a failed report or screenshot leaves the old
// file whole.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <csignal>

#include "app/main_window.h"
#include "engine/run_controller.h"
#include "gui_test_support.h"
#include "kwb/results.h"
#include "panels/shape_list_widget.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

struct HostileEngine : ::testing::Test {
  void SetUp() override {
    qputenv("KWB_FAKE_DOC", test::sampleRun().toLocal8Bit());
    qunsetenv("KWB_FAKE_DELAY_MS");
    qunsetenv("KWB_FAKE_CRASH");
    doc = readDocument(test::sampleRun().toStdString());
    controller.setEngine(KWB_FAKE_ENGINE);
    QObject::connect(&controller, &RunController::runFinished, &controller,
                     [this](const RunDocument& d, bool ok, const QString& m) {
                       ++finishedCount;
                       finishedOk = ok;
                       message = m;
                       result = d;
                     });
  }
  void TearDown() override { qunsetenv("KWB_FAKE_HOSTILE"); }
  RunRequest allCases() const {
    RunRequest r;
    for (const auto& c : doc.cases) {
      if (!r.kernels.contains(QString::fromStdString(c.kernel)))
        r.kernels << QString::fromStdString(c.kernel);
      if (!r.sizes.contains(c.size)) r.sizes << c.size;
    }
    return r;
  }
  // Runs every case against the engine `mode`; true when the run ended within 10 s.
  bool runWith(const char* mode) {
    qputenv("KWB_FAKE_HOSTILE", mode);
    QElapsedTimer t;
    t.start();
    controller.start(allCases());
    const bool ended = test::waitFor([&] { return finishedCount > 0; }, 10000);
    std::printf("%s: ended after %lld ms, %d engine(s): %s\n", mode,
                static_cast<long long>(t.elapsed()), controller.engineStarts(),
                message.toStdString().c_str());
    return ended;
  }
  RunDocument doc;
  RunController controller;
  int finishedCount = 0;
  bool finishedOk = true;
  QString message;
  RunDocument result;
};

}  // namespace

// Finding 1: one stdout line holding 1e400 escaped EngineDriver's slot and aborted kwb-gui.
TEST_F(HostileEngine, AnOutOfRangeNumberEndsTheRunWithAProtocolError) {
  ASSERT_TRUE(runWith("range")) << "the run never ended";
  EXPECT_FALSE(finishedOk);
  EXPECT_TRUE(message.contains("protocol")) << message.toStdString();
  EXPECT_TRUE(message.contains("engine stdout:4")) << message.toStdString();
  EXPECT_FALSE(controller.isRunning());
}

// Finding 4: an engine that ignores its arguments was restarted 1094 times in 10 s.
TEST_F(HostileEngine, AnEngineThatIgnoresItsArgumentsIsStoppedNotRestartedForever) {
  ASSERT_TRUE(runWith("ignore-args")) << "the run never ended";
  EXPECT_FALSE(finishedOk);
  EXPECT_LE(controller.engineStarts(), 2);
  EXPECT_TRUE(message.contains("already finished")) << message.toStdString();
  EXPECT_LE(result.cases.size(), 3u) << "cases no one asked for were added";
}

// Finding 4: runFinished said ok although cases crashed; a signal was named as "exit 11".
TEST_F(HostileEngine, AnEngineThatDiesOnEveryCaseEndsNotOkNamingTheSignal) {
  ASSERT_TRUE(runWith("die-always")) << "the run never ended";
  EXPECT_FALSE(finishedOk) << message.toStdString();
  EXPECT_TRUE(message.contains("crashed")) << message.toStdString();
  // One engine per case at most: each settles the case it died on.
  EXPECT_LE(controller.engineStarts(), int(doc.cases.size()));
  ASSERT_FALSE(result.cases.empty());
  EXPECT_EQ(result.cases[0].status, CaseStatus::kCrashed);
  EXPECT_NE(result.cases[0].message.find("SIGSEGV"), std::string::npos) << result.cases[0].message;
}

TEST_F(HostileEngine, AnEndlessLineIsAProtocolErrorNotUnboundedMemory) {
  ASSERT_TRUE(runWith("long-line")) << "the run never ended";
  EXPECT_FALSE(finishedOk);
  EXPECT_TRUE(message.contains("MiB")) << message.toStdString();
}

TEST(GuiReliability, SignalsAreNamedAsSignals) {
  EXPECT_EQ(describeExit(11, true), "was killed by SIGSEGV");
  EXPECT_EQ(describeExit(9, true), "was killed by SIGKILL");
  EXPECT_EQ(describeExit(2, false), "exited with code 2");
  EXPECT_TRUE(describeExit(139, false).contains("SIGSEGV"));
}

// Finding 7: the shape list was de-duplicated in quadratic time (20k shapes took 28 s).
TEST(GuiReliability, ALargePresetFillsTheShapeListQuickly) {
  ShapeListWidget w;
  Suite p;
  p.name = "huge";
  for (int i = 1; i <= 20000; ++i) p.shapes.push_back(Shape{i, i % 7 + 1, 3});
  p.shapes.push_back(Shape{1, 2, 3});  // a duplicate: dropped
  Suite small;
  small.name = "small";
  small.shapes = {Shape{64, 64, 64}};
  QElapsedTimer t;
  t.start();
  w.setPresets({small, p});
  w.choosePreset("huge");
  const qint64 ms = t.elapsed();
  std::printf("20000 shapes listed in %lld ms\n", static_cast<long long>(ms));
  EXPECT_EQ(w.checkedShapes().size(), 20000);
  EXPECT_LT(ms, 5000);
}

namespace {

// kwb-gui headless under a file-size limit (ulimit -f), SIGXFSZ left at its default as a shell
// leaves it: kwb-gui must ignore it itself so that a write fails with EFBIG instead of killing it.
struct GuiRun {
  int exitCode;
  QString err;
};
GuiRun runGuiLimited(const QStringList& args, rlim_t fileSizeLimit) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");
  p.setProcessEnvironment(env);
  p.setChildProcessModifier([fileSizeLimit] {
    std::signal(SIGXFSZ, SIG_DFL);
    if (fileSizeLimit == RLIM_INFINITY) return;
    rlimit r{fileSizeLimit, fileSizeLimit};
    ::setrlimit(RLIMIT_FSIZE, &r);
  });
  p.start(KWB_GUI_EXE, args);
  if (!p.waitForFinished(60000)) return {-1, "timed out"};
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
          QString::fromLocal8Bit(p.readAllStandardError())};
}

QByteArray slurp(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void spit(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(bytes);
}

}  // namespace

// Finding 3: --report wrote straight to its target and exited 0 with a truncated PDF; the
// screenshot destroyed the old PNG before failing.
TEST(GuiReliability, AReportOrScreenshotThatCannotBeWrittenWholeFailsAndKeepsTheOldFile) {
  QTemporaryDir dir;
  const QString pdf = dir.filePath("r.pdf"), png = dir.filePath("s.png");
  spit(pdf, "old report");
  spit(png, "old screenshot");
  GuiRun r = runGuiLimited({"--open", test::sampleRun(), "--report", pdf}, 20000);
  EXPECT_EQ(r.exitCode, 2) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("'" + pdf + "' (--report)")) << r.err.toStdString();
  EXPECT_EQ(slurp(pdf), QByteArray("old report"));
  r = runGuiLimited({"--open", test::sampleRun(), "--screenshot", png}, 20000);
  EXPECT_EQ(r.exitCode, 2) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("'" + png + "' (--screenshot)")) << r.err.toStdString();
  EXPECT_EQ(slurp(png), QByteArray("old screenshot"));
  EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2)
      << "a temporary file was left";
  // With room to write, both succeed and replace the old files.
  r = runGuiLimited({"--open", test::sampleRun(), "--report", pdf, "--screenshot", png},
                    RLIM_INFINITY);
  EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
  EXPECT_TRUE(slurp(pdf).startsWith("%PDF"));
  EXPECT_TRUE(slurp(png).startsWith("\x89PNG"));
}

// Finding 9: a wrong --screenshot extension said only "could not write".
TEST(GuiReliability, AnUnknownScreenshotTypeIsNamed) {
  QTemporaryDir dir;
  const GuiRun r = runGuiLimited(
      {"--open", test::sampleRun(), "--screenshot", dir.filePath("s.xyz")}, RLIM_INFINITY);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(r.err.contains(".xyz")) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains(".png")) << r.err.toStdString();
}

namespace {

// A file of the kind `kind` at `path`: "fifo", "socket" or "device" (a character device of the
// test's own folder, where mknod is allowed). False when it cannot be made here.
bool makeSpecial(const QString& kind, const QString& path, std::vector<int>& sockets) {
  const QByteArray p = QFile::encodeName(path);
  if (kind == "fifo") return ::mkfifo(p.constData(), 0600) == 0;
  if (kind == "device") return ::mknod(p.constData(), S_IFCHR | 0666, makedev(1, 3)) == 0;
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", p.constData());
  sockets.push_back(s);
  return ::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
}

bool isRegular(const QString& path) {
  struct stat st {};
  return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISREG(st.st_mode);
}

mode_t modeOf(const QString& path) {
  struct stat st {};
  ::stat(QFile::encodeName(path).constData(), &st);
  return st.st_mode & 07777;
}

// Exit 2 naming the path and the option, and stderr saying `why`.
void expectRefused(const QStringList& args, const QString& option, const QString& path,
                   const QString& why) {
  const GuiRun r = runGuiLimited(args, RLIM_INFINITY);
  EXPECT_EQ(r.exitCode, 2) << args.join(' ').toStdString() << ": " << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("'" + path + "' (" + option + ")")) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains(why)) << r.err.toStdString();
}

}  // namespace

// Issue #33: --report and --screenshot replaced a device, FIFO or socket (directly or through a
// link) with a file and exited 0.
TEST(GuiReliability, ReportAndScreenshotRefuseDevicesFifosAndSocketsEvenThroughALink) {
  QTemporaryDir dir;
  std::vector<int> sockets;
  for (const QString kind : {"fifo", "socket", "device"})
    for (const QString ext : {".pdf", ".png"}) {
      const QString target = dir.filePath(kind + ext), link = dir.filePath(kind + "-link" + ext);
      if (!makeSpecial(kind, target, sockets)) {
        ASSERT_EQ(kind.toStdString(), "device") << "cannot make a " << kind.toStdString();
        continue;  // mknod not allowed here
      }
      ASSERT_TRUE(QFile::link(target, link));
      const QString option = ext == ".pdf" ? "--report" : "--screenshot";
      for (const QString& path : {target, link})
        expectRefused({"--open", test::sampleRun(), option, path}, option, path,
                      "not a regular file");
      EXPECT_FALSE(isRegular(target)) << target.toStdString() << " was replaced";
      EXPECT_TRUE(QFileInfo(link).isSymLink());
    }
  for (int s : sockets) ::close(s);
}

// Issue #33: the GUI wrote over its own inputs, and over its other output through a link.
TEST(GuiReliability, AnInputOrTheOtherOutputIsNeverReplaced) {
  QTemporaryDir dir;
  const QByteArray run = slurp(test::sampleRun());
  const QString png = dir.filePath("x.png"), pdf = dir.filePath("b.pdf");
  spit(png, run);
  spit(pdf, run);
  expectRefused({"--open", png, "--screenshot", png}, "--screenshot", png,
                "it is the input file (--open");
  expectRefused({"--open", test::sampleRun(), "--baseline", pdf, "--report", pdf}, "--report", pdf,
                "it is the input file (--baseline");
  const QString soft = dir.filePath("soft.pdf"), hard = dir.filePath("hard.png");
  ASSERT_TRUE(QFile::link(png, soft));
  ASSERT_EQ(::link(QFile::encodeName(png).constData(), QFile::encodeName(hard).constData()), 0);
  expectRefused({"--open", png, "--report", soft}, "--report", soft, "it is the input file");
  expectRefused({"--open", png, "--screenshot", hard}, "--screenshot", hard,
                "it is the input file");
  EXPECT_EQ(slurp(png), run);
  EXPECT_EQ(slurp(pdf), run);
  // s.png is a link to s.pdf, which is not written yet: one of the two would be lost.
  const QString spdf = dir.filePath("s.pdf"), spng = dir.filePath("s.png");
  ASSERT_TRUE(QFile::link("s.pdf", spng));
  const GuiRun r = runGuiLimited(
      {"--open", test::sampleRun(), "--report", spdf, "--screenshot", spng}, RLIM_INFINITY);
  EXPECT_EQ(r.exitCode, 2) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("name the same file")) << r.err.toStdString();
  EXPECT_FALSE(QFile::exists(spdf));
}

// Issue #33: a 444 screenshot became 644, and a dangling link was replaced by a file.
TEST(GuiReliability, AReadOnlyTargetStaysReadOnlyAndADanglingLinkStaysALink) {
  QTemporaryDir dir;
  const QString png = dir.filePath("s.png");
  spit(png, "old screenshot");
  ASSERT_EQ(::chmod(QFile::encodeName(png).constData(), 0444), 0);
  GuiRun r = runGuiLimited({"--open", test::sampleRun(), "--screenshot", png}, RLIM_INFINITY);
  if (::geteuid() == 0) {  // root may write it: it keeps its mode
    EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_TRUE(slurp(png).startsWith("\x89PNG"));
  } else {
    EXPECT_EQ(r.exitCode, 2) << r.err.toStdString();
    EXPECT_TRUE(r.err.contains("not writable")) << r.err.toStdString();
    EXPECT_EQ(slurp(png), QByteArray("old screenshot"));
  }
  EXPECT_EQ(modeOf(png), mode_t(0444));

  ASSERT_TRUE(QDir(dir.path()).mkdir("sub"));
  const QString link = dir.filePath("link.pdf");
  ASSERT_TRUE(QFile::link("sub/new.pdf", link));  // dangling, relative to its folder
  r = runGuiLimited({"--open", test::sampleRun(), "--report", link}, RLIM_INFINITY);
  EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
  EXPECT_TRUE(QFileInfo(link).isSymLink()) << "the link was replaced by a file";
  EXPECT_TRUE(slurp(dir.filePath("sub/new.pdf")).startsWith("%PDF"));
}
