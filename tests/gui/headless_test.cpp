// SPDX-License-Identifier: Apache-2.0
// kwb-gui as a command: --report and --screenshot with no display, exit 2 on bad files.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QElapsedTimer>
#include <algorithm>

#include "gui_test_support.h"
#include "model/case_size.h"
#include "model/doc_queries.h"

using namespace kwb::gui;

namespace {

struct Result {
  int exitCode;
  QString err;
};

Result runGui(const QStringList& args) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");
  env.remove("QT_QPA_PLATFORM");  // the program must choose offscreen itself
  p.setProcessEnvironment(env);
  p.start(KWB_GUI_EXE, args);
  if (!p.waitForFinished(60000)) return {-1, "timed out"};
  return {p.exitCode(), QString::fromLocal8Bit(p.readAllStandardError())};
}

QString tool(const QString& program, const QStringList& args, int* exitCode = nullptr) {
  QProcess p;
  p.start(program, args);
  p.waitForFinished(30000);
  if (exitCode) *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  return QString::fromUtf8(p.readAllStandardOutput());
}

}  // namespace

TEST(GuiHeadless, ReportOfTheBundledSampleHasItsPagesAndNamesEveryKernel) {
  QTemporaryDir dir;
  const QString pdf = dir.filePath("r.pdf");
  QElapsedTimer clock;
  clock.start();
  const Result r = runGui({"--open", test::sampleRun(), "--report", pdf});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  EXPECT_LT(clock.elapsed(), 10000);
  const kwb::RunDocument doc = kwb::readDocument(test::sampleRun().toStdString());
  int rc = 0;
  const QString info = tool("pdfinfo", {pdf}, &rc);
  ASSERT_EQ(rc, 0) << "pdfinfo is needed (poppler-utils)";
  const QString pages = info.section("Pages:", 1).trimmed().section('\n', 0, 0);
  // Title, Progression at each shape, Scaling, Timing, Roofline, the correctness grid and at
  // least one page of the case table.
  const QList<kwb::CaseSize> shapes = sizesOf(doc);
  EXPECT_GE(pages.toInt(), 1 + int(shapes.size()) + 3 + 1 + 1) << info.toStdString();
  const QString text = tool("pdftotext", {"-layout", pdf, "-"});
  for (const auto& c : doc.cases)
    EXPECT_TRUE(text.contains(QString::fromStdString(c.kernel))) << c.kernel;
  for (const kwb::CaseSize& s : shapes)
    EXPECT_TRUE(text.contains("Progression at " + QString::fromStdString(kwb::sizeLabel(s))))
        << kwb::sizeLabel(s);
  for (const QString& s : {QString::fromStdString(doc.device->name), QString("Correctness"),
                           QString("Roofline"), QString("Scaling"), QString("Timing")})
    EXPECT_TRUE(text.contains(s)) << s.toStdString();
}

TEST(GuiHeadless, ReportNamesFailuresErrorsAndFallbacks) {
  QTemporaryDir dir;
  const QString pdf = dir.filePath("r.pdf");
  const Result r = runGui({"--open", test::syntheticRun(), "--report", pdf});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  const QString text = tool("pdftotext", {"-layout", pdf, "-"});
  for (const char* s : {"FAIL", "FALLBACK", "ERROR", "Progression violation"})
    EXPECT_TRUE(text.contains(s)) << s;
}

TEST(GuiHeadless, ReportHasAnErrorMapPerFailingCaseOnly) {
  QTemporaryDir dir;
  const QString pdf = dir.filePath("r.pdf");
  Result r = runGui({"--open", test::syntheticRun(), "--report", pdf});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  QString text = tool("pdftotext", {"-layout", pdf, "-"});
  EXPECT_TRUE(text.contains("Where the failing cases are wrong")) << text.toStdString();
  EXPECT_TRUE(text.contains("sgemm.tiled at 511x513x1025")) << text.toStdString();
  EXPECT_TRUE(text.contains("canary run (β = 0): 1024 mismatches")) << text.toStdString();
  EXPECT_TRUE(text.contains("column of C"));
  // The bundled run has no failing case, so no map.
  r = runGui({"--open", test::sampleRun(), "--report", pdf});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  text = tool("pdftotext", {"-layout", pdf, "-"});
  EXPECT_FALSE(text.contains("Where the failing cases are wrong"));
  // A document from an older kwb names its failing case instead of drawing it.
  r = runGui({"--open", test::syntheticBaseline(), "--report", pdf});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  text = tool("pdftotext", {"-layout", pdf, "-"});
  EXPECT_TRUE(text.contains("No error grid in this results file")) << text.toStdString();
}

// Three results files headless: the first opened, the second the baseline, the third drawn over
// them, in the report as on screen. A third file that cannot be read is refused, not ignored.
TEST(GuiHeadless, AThirdResultsFileIsOverlaidInTheReport) {
  QTemporaryDir dir;
  const QString third = dir.filePath("third-run.json");
  ASSERT_TRUE(QFile::copy(test::sampleRun(), third));
  const QString pdf = dir.filePath("r.pdf");
  const Result r =
      runGui({"--open", test::sampleRun(), test::baselineRun(), third, "--report", pdf});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  const QString text = tool("pdftotext", {"-raw", pdf, "-"});
  EXPECT_TRUE(text.contains("compared runs")) << text.left(600).toStdString();
  // Named in the title, and in the legend of every Progression page (it shares every shape).
  const int pages = int(sizesOf(kwb::readDocument(test::sampleRun().toStdString())).size());
  EXPECT_GE(text.count("third-run.json"), 1 + std::min(pages, 12)) << text.toStdString();
  EXPECT_TRUE(text.contains("baseline: scaling-h100.json"));

  const QString png = dir.filePath("s.png");
  const Result bad = runGui({"--open", test::sampleRun(), test::baselineRun(),
                             dir.filePath("missing.json"), "--screenshot", png});
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_TRUE(bad.err.contains("missing.json")) << bad.err.toStdString();
  EXPECT_FALSE(QFile::exists(png));
}

// A document of 1200 shapes of three kernels (as scripts/bench-gui-open.py makes them): the
// correctness grid wraps its columns into bands down the page instead of 7 shapes a page, and
// the report stays within 40 pages (it ran to 230, most holding one row of the grid).
TEST(GuiHeadless, AReportOf1200ShapesStaysWithin40Pages) {
  const kwb::RunDocument sample = kwb::readDocument(test::sampleRun().toStdString());
  kwb::RunDocument big = sample;
  big.cases.clear();
  big.progression = {};
  std::vector<const kwb::CaseResult*> templates;
  for (const auto& c : sample.cases)
    if (templates.size() < 3 &&
        std::none_of(templates.begin(), templates.end(),
                     [&](const kwb::CaseResult* t) { return t->kernel == c.kernel; }))
      templates.push_back(&c);
  ASSERT_EQ(templates.size(), 3u);
  for (int i = 0; i < 1200; ++i)
    for (const kwb::CaseResult* t : templates) {
      kwb::CaseResult c = *t;
      c.size = kwb::gemmSize({256 + i, 384 + (i * 7) % 512, 640 + (i * 13) % 1024});
      c.samplesMs.resize(std::min<std::size_t>(c.samplesMs.size(), 50));
      if (!c.sampleRounds.empty()) c.sampleRounds.resize(c.samplesMs.size());
      c.kernels.clear();  // CUPTI's records and the error maps: kept small, as the script does
      if (c.verification) {
        c.verification->compare.grid = {};
        if (c.verification->alphaBeta) c.verification->alphaBeta->grid = {};
      }
      big.cases.push_back(c);
    }
  QTemporaryDir dir;
  const QString path = test::writeFixture(big, dir.filePath("shapes-1200.json"));
  const QString pdf = dir.filePath("r.pdf");
  const Result r = runGui({"--open", path, "--report", pdf});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  int rc = 0;
  const QString info = tool("pdfinfo", {pdf}, &rc);
  ASSERT_EQ(rc, 0) << "pdfinfo is needed (poppler-utils)";
  const int pages = info.section("Pages:", 1).trimmed().section('\n', 0, 0).toInt();
  EXPECT_LE(pages, 40) << info.toStdString();
  // No page holds a stub: one row of a band (its heading, two title lines and the row: 4
  // lines) or a sentence alone (the case table's "No other case to list" had a page of its
  // own). A whole band of the three kernels may end the grid on a page.
  for (int page = 1; page <= pages; ++page) {
    const QString one = tool("pdftotext", {"-f", QString::number(page), "-l", QString::number(page),
                                           "-layout", pdf, "-"});
    EXPECT_GE(one.split('\n', Qt::SkipEmptyParts).size(), 5)
        << "page " << page << " of " << pages << ":\n"
        << one.toStdString();
  }
  const QString text = tool("pdftotext", {"-raw", pdf, "-"});
  EXPECT_TRUE(text.contains("Correctness summary"));
  // Every shape is in the grid, the last one too (its title on two lines: "1455×895", "×1663").
  const QString last = sizeName(big.cases.back().size);
  EXPECT_TRUE(text.contains(last.left(last.lastIndexOf(QChar(0x00D7)))))
      << last.toStdString() << "\n"
      << text.right(2000).toStdString();
}

// --case takes every size form the CLI takes (the family's parseSize): 512 is 512³, as the
// README and the tool's own message write it.
TEST(GuiHeadless, CaseTakesEverySizeFormTheCliTakes) {
  QTemporaryDir dir;
  for (const QString& size : {QString("512"), QString("512x512x512"), QString("512×512×512")}) {
    const QString png = dir.filePath("c.png");
    const Result r =
        runGui({"--open", test::sampleRun(), "--case", "sgemm.tiled@" + size, "--screenshot", png});
    EXPECT_EQ(r.exitCode, 0) << size.toStdString() << ": " << r.err.toStdString();
    EXPECT_TRUE(QFile::exists(png)) << size.toStdString();
    QFile::remove(png);
  }
  const Result none = runGui({"--open", test::sampleRun(), "--case", "sgemm.tiled@3x5x7",
                              "--screenshot", dir.filePath("c.png")});
  EXPECT_EQ(none.exitCode, 2);
  EXPECT_TRUE(none.err.contains("sgemm.tiled@3x5x7")) << none.err.toStdString();
}

// The case dialog is shot at --size, on the Nsight Compute tab --tab names, in --theme.
TEST(GuiHeadless, ACaseDialogIsShotAtItsSizeOnItsProfileTabInItsTheme) {
  QTemporaryDir dir;
  const QString png = dir.filePath("case.png");
  const QStringList base{"--open", test::bundled("h200/spec-benchmark-h200.json"),
                         "--case", "sgemm.warp_tiled@512",
                         "--size", "1280x720"};
  Result r = runGui(base + QStringList{"--tab", "Roofline", "--screenshot", png});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  const QImage light(png);
  EXPECT_EQ(light.size(), QSize(1280, 720));
  r = runGui(base + QStringList{"--tab", "Nope", "--screenshot", png});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(r.err.contains("Nope") && r.err.contains("Roofline")) << r.err.toStdString();
  r = runGui(base + QStringList{"--theme", "purple", "--screenshot", png});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(r.err.contains("purple")) << r.err.toStdString();
  r = runGui(base + QStringList{"--tab", "Roofline", "--theme", "dark", "--screenshot", png});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  auto meanLightness = [](const QImage& img) {
    double sum = 0;
    int n = 0;
    for (int y = 0; y < img.height(); y += 7)
      for (int x = 0; x < img.width(); x += 7, ++n) sum += img.pixelColor(x, y).lightness();
    return sum / n;
  };
  EXPECT_LT(meanLightness(QImage(png)), 100);
  EXPECT_GT(meanLightness(light), 170);
}

// A reduce report: each kernel's best row gives the element type of its best size as its
// precision (i32 at an i32 size, not the kernel's declared fp32), and the footnote speaks of
// CUB, not of tensor-core fallbacks and cuBLAS.
TEST(GuiHeadless, AReduceReportSaysItsElementTypesAndNoGemmFootnote) {
  QTemporaryDir dir;
  const QString pdf = dir.filePath("r.pdf");
  const Result r = runGui({"--open", test::bundled("reduce-benchmark-h100.json"), "--report", pdf});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  const QString text = tool("pdftotext", {"-layout", pdf, "-"});
  int rows = 0;
  for (const QString& line : text.split('\n')) {
    if (!line.contains(QString::fromUtf8(" — ")) || !line.contains("% of CUB")) continue;
    ++rows;
    // "reduce.atomic — Global atomics   i32   166   2^24 i32   6.2% of CUB ...": the type
    // of the size, once as the precision and once in the size.
    const QStringList words = line.simplified().split(' ');
    const QString type = words.count("i32") ? "i32" : "f32";
    EXPECT_EQ(words.count(type), 2) << line.toStdString();
    EXPECT_FALSE(words.contains("fp32")) << line.toStdString();
  }
  EXPECT_GE(rows, 5) << text.left(3000).toStdString();
  EXPECT_FALSE(text.contains("tensor-core stages")) << text.left(3000).toStdString();
  EXPECT_TRUE(text.contains("reduce against cub.reduce_sum")) << text.left(3000).toStdString();
}

// Histogram and sort reports the same way: each best row's precision is its size's element
// type (u8, f32, u32), and the footnote names the family's own reference, not cuBLAS.
TEST(GuiHeadless, HistogramAndSortReportsSayTheirElementTypes) {
  QTemporaryDir dir;
  for (const QString family : {"histogram", "sort"}) {
    const QString pdf = dir.filePath(family + ".pdf");
    const Result r = runGui(
        {"--open", test::bundled("h200/" + family + "-benchmark-h200.json"), "--report", pdf});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QString text = tool("pdftotext", {"-layout", pdf, "-"});
    int rows = 0;
    for (const QString& line : text.split('\n')) {
      if (!line.contains(QString::fromUtf8(" — ")) || !line.contains("% of")) continue;
      ++rows;
      const QStringList words = line.simplified().split(' ');
      EXPECT_TRUE(words.contains("u8") || words.contains("u32") || words.contains("f32"))
          << line.toStdString();
      EXPECT_FALSE(words.contains("fp32")) << line.toStdString();
    }
    EXPECT_GE(rows, 3) << family.toStdString() << "\n" << text.left(3000).toStdString();
    EXPECT_FALSE(text.contains("tensor-core stages")) << family.toStdString();
    EXPECT_TRUE(text.contains(family + " against cub.")) << text.left(4000).toStdString();
  }
}

TEST(GuiHeadless, ScreenshotOfEveryTab) {
  QTemporaryDir dir;
  for (const char* tab :
       {"Progression", "Scaling", "Timing", "Roofline", "Correctness", "Baseline", "Log"}) {
    const QString png = dir.filePath(QString(tab) + ".png");
    const Result r = runGui({"--open", test::sampleRun(), "--baseline", test::baselineRun(),
                             "--screenshot", png, "--tab", tab, "--size", "1400x900"});
    ASSERT_EQ(r.exitCode, 0) << tab << ": " << r.err.toStdString();
    const QImage img(png);
    EXPECT_EQ(img.size(), QSize(1400, 900)) << tab;
  }
}

TEST(GuiHeadless, BadFilesExitWith2NamingTheFileAndTheProblem) {
  QTemporaryDir dir;
  const QString bad = dir.filePath("truncated.json");
  QFile f(bad);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("{\"schemaVersion\": 1, \"cases\": [");
  f.close();
  Result r = runGui({"--open", bad, "--report", dir.filePath("x.pdf")});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(r.err.contains(bad)) << r.err.toStdString();
  EXPECT_FALSE(QFile::exists(dir.filePath("x.pdf")));
  r = runGui({"--open", dir.filePath("nope.json"), "--screenshot", dir.filePath("x.png")});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(r.err.contains("nope.json")) << r.err.toStdString();
  r = runGui({"--open", test::sampleRun(), "--screenshot", dir.filePath("x.png"), "--tab", "Nope"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(r.err.contains("Nope")) << r.err.toStdString();
  r = runGui({"--open", test::sampleRun(), "--report", "/nonexistent-dir/r.pdf"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(r.err.contains("/nonexistent-dir/r.pdf")) << r.err.toStdString();
}

TEST(GuiHeadless, ReportCarriesConformanceAndTuning) {
  QTemporaryDir dir;
  const kwb::RunDocument conformance = test::conformanceDocument(true);
  const QString pdf = dir.filePath("c.pdf");
  Result r =
      runGui({"--open", test::writeFixture(conformance, dir.filePath("c.json")), "--report", pdf});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  QString text = tool("pdftotext", {"-layout", pdf, "-"});
  EXPECT_TRUE(text.contains("Sub-group conformance"));
  for (const auto& check : conformance.conformance->runs.front().checks)
    EXPECT_TRUE(text.contains(QString::fromStdString(check.id))) << check.id;
  for (const auto& run : conformance.conformance->runs)
    for (const auto& check : run.checks)
      for (const auto& o : check.offenders)
        EXPECT_TRUE(text.contains(QString::fromStdString(o).section(':', 0, 0))) << o;
  EXPECT_TRUE(text.contains("FAIL (2)"));

  const kwb::RunDocument tune = test::tuningDocument();
  r = runGui({"--open", test::writeFixture(tune, dir.filePath("t.json")), "--report", pdf});
  ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
  text = tool("pdftotext", {"-layout", pdf, "-"});
  EXPECT_TRUE(text.contains("Tuning sgemm.warp_tiled")) << text.toStdString();
  EXPECT_TRUE(text.contains(QString::fromStdString(tune.tuning->best)));
  const QString png = dir.filePath("t.png");
  r = runGui({"--open", dir.filePath("t.json"), "--screenshot", png, "--tab", "Tuning"});
  EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
}

TEST(GuiHeadless, BadUsageExits2) {
  QTemporaryDir dir;
  // An unknown option with a report asked for (so with no display needed), and without.
  Result r = runGui({"--open", test::sampleRun(), "--report", dir.filePath("r.pdf"), "--bogus"});
  EXPECT_EQ(r.exitCode, 2) << r.err.toStdString();
  EXPECT_TRUE(r.err.contains("bogus")) << r.err.toStdString();
  EXPECT_FALSE(QFile::exists(dir.filePath("r.pdf")));
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("QT_QPA_PLATFORM", "offscreen");
  p.setProcessEnvironment(env);
  p.start(KWB_GUI_EXE, {"--no-such-option"});
  ASSERT_TRUE(p.waitForFinished(30000));
  EXPECT_EQ(p.exitCode(), 2);
  EXPECT_TRUE(QString::fromLocal8Bit(p.readAllStandardError()).contains("no-such-option"));
  // A report is a PDF: another name is refused, and nothing is written.
  r = runGui({"--open", test::sampleRun(), "--report", dir.filePath("r.txt")});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(r.err.contains("r.txt")) << r.err.toStdString();
  EXPECT_FALSE(QFile::exists(dir.filePath("r.txt")));
}

// Interactive, a file that cannot be opened does not end the program with a line on a
// terminal the user may not have: the window opens (on the sample) and says it.
TEST(GuiHeadless, InteractiveOpenOfABadFileKeepsTheWindowAndSaysWhy) {
  QTemporaryDir dir;
  const QString bad = dir.filePath("bad.json");
  QFile f(bad);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("not json");
  f.close();
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("QT_QPA_PLATFORM", "offscreen");
  p.setProcessEnvironment(env);
  p.start(KWB_GUI_EXE, {"--open", bad, "--quit-after-first-paint", "--engine", "/nonexistent"});
  ASSERT_TRUE(p.waitForFinished(60000));
  const QString err = QString::fromLocal8Bit(p.readAllStandardError());
  EXPECT_EQ(p.exitCode(), 0) << err.toStdString();
  EXPECT_TRUE(err.contains("bad.json")) << err.toStdString();
  EXPECT_TRUE(err.contains("first paint")) << err.toStdString();
}
