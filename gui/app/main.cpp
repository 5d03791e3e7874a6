// SPDX-License-Identifier: Apache-2.0
// kwb-gui — the Kernel Workbench window, or headless reports and screenshots.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QIcon>
#include <QTimer>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>

#include "engine/engine_location.h"
#include "app/headless.h"
#include "app/main_window.h"
#include "app/quit_signals.h"

namespace {

// Prints the time from process start to the window's first paint.
class FirstPaintProbe : public QObject {
 public:
  FirstPaintProbe(const QElapsedTimer& clock, bool quit) : m_clock(clock), m_quit(quit) {}
  bool eventFilter(QObject* o, QEvent* e) override {
    if (e->type() == QEvent::Paint && !m_done) {
      m_done = true;
      std::fprintf(stderr, "kwb-gui: first paint after %lld ms\n",
                   static_cast<long long>(m_clock.elapsed()));
      if (m_quit) QTimer::singleShot(0, qApp, &QApplication::quit);
    }
    return QObject::eventFilter(o, e);
  }

 private:
  const QElapsedTimer& m_clock;
  bool m_quit;
  bool m_done = false;
};

bool wantsHeadless(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (!std::strncmp(argv[i], "--report", 8) || !std::strncmp(argv[i], "--screenshot", 12))
      return true;
  return false;
}

// The command line's options.
struct Options {
  const QCommandLineOption open{
      "open",
      "Open a results file; given again (or with more files after it), the second is the "
      "baseline unless --baseline names one, and the rest are runs drawn over it.",
      "FILE"};
  const QCommandLineOption baseline{"baseline", "Open a second results file as baseline.", "FILE"};
  const QCommandLineOption report{"report", "Write a PDF report and exit (no display needed).",
                                  "PDF"};
  const QCommandLineOption screenshot{"screenshot", "Write a PNG of the window and exit.", "PNG"};
  const QCommandLineOption tab{"tab",
                               "Tab shown by --screenshot (Progression, Scaling, ...); with "
                               "--case, the Nsight Compute tab of the case's dialog (Roofline, "
                               "Warp stalls, ...).",
                               "NAME"};
  const QCommandLineOption engine{"engine", "Path of the engine (kwb).", "PATH"};
  const QCommandLineOption remote{
      "remote", "Run the engine on this GPU server over ssh (user@host; 'local': this machine).",
      "HOST"};
  const QCommandLineOption caseOpt{"case",
                                   "--screenshot shows this case's detail dialog (with its "
                                   "Nsight Compute profile, if one was made) instead of a tab.",
                                   "KERNEL@SHAPE"};
  const QCommandLineOption size{"size", "Window size for --screenshot, WxH.", "WxH", "1500x950"};
  const QCommandLineOption theme{
      "theme", "Colours of --screenshot: system, light or dark (the report stays light).", "NAME"};
  const QCommandLineOption source{
      "source",
      "Open this kernel source (.cu) as user.<stem>. With --screenshot: run it with --kernels "
      "and --shapes, save it again unchanged so the watcher runs it again, and shoot the "
      "window after that second run.",
      "FILE.cu"};
  const QCommandLineOption kernelsOpt{"kernels", "With --source: the kernels run beside it.",
                                      "K,...", "cublas.sgemm"};
  const QCommandLineOption shapesOpt{"shapes", "With --source: the shapes to run.", "S,..."};
  const QCommandLineOption quitAfterPaint{"quit-after-first-paint",
                                          "Print the start-to-first-paint time and exit."};
  QList<QCommandLineOption> all() const {
    return {open,    baseline, report, screenshot, tab,       engine,         remote,
            caseOpt, size,     source, kernelsOpt, shapesOpt, quitAfterPaint, theme};
  }
};

// Exit code 2 with the reason on stderr for a report not named .pdf or a bad --remote; else 0.
int checkUsage(const QCommandLineParser& parser, const Options& opt) {
  if (parser.isSet(opt.report) && !parser.value(opt.report).endsWith(".pdf", Qt::CaseInsensitive)) {
    std::fprintf(stderr, "kwb-gui: error: the report '%s' must be named .pdf (it is a PDF).\n",
                 parser.value(opt.report).toLocal8Bit().constData());
    return 2;
  }
  if (parser.isSet(opt.remote)) {
    kwb::gui::EngineLocation where;
    where.host = parser.value(opt.remote) == "local" ? QString() : parser.value(opt.remote);
    if (const QString error = kwb::gui::validateLocation(where); !error.isEmpty()) {
      std::fprintf(stderr, "kwb-gui: error: --remote: %s\n", error.toLocal8Bit().constData());
      return 2;
    }
  }
  return 0;
}

// The results files of the command line, in order: every --open, then the positional files. The
// first is opened, the second is the baseline (unless --baseline names it), the rest are runs
// compared over them, on screen, headless and in the report alike.
struct ResultFiles {
  QString open, baseline;
  QStringList compare;
};

ResultFiles resultFiles(const QCommandLineParser& parser, const Options& opt) {
  QStringList files = parser.values(opt.open) + parser.positionalArguments();
  ResultFiles r;
  r.open = files.value(0);
  if (!files.isEmpty()) files.removeFirst();
  if (parser.isSet(opt.baseline)) {
    r.baseline = parser.value(opt.baseline);
  } else {
    r.baseline = files.value(0);
    if (!files.isEmpty()) files.removeFirst();
  }
  r.compare = files;
  return r;
}

int startHeadless(const QCommandLineParser& parser, const Options& opt, const ResultFiles& files) {
  kwb::gui::HeadlessOptions o;
  o.open = files.open;
  o.baseline = files.baseline;
  o.compare = files.compare;
  o.report = parser.value(opt.report);
  o.screenshot = parser.value(opt.screenshot);
  o.tab = parser.value(opt.tab);
  o.caseDialog = parser.value(opt.caseOpt);
  o.engine = parser.value(opt.engine);
  o.source = parser.value(opt.source);
  o.kernels = parser.value(opt.kernelsOpt);
  o.shapes = parser.value(opt.shapesOpt);
  const QStringList wh = parser.value(opt.size).split('x');
  if (wh.size() == 2 && wh[0].toInt() > 0 && wh[1].toInt() > 0)
    o.size = QSize(wh[0].toInt(), wh[1].toInt());
  o.theme = parser.value(opt.theme);
  return kwb::gui::runHeadless(o);
}

// Opens the files of the command line in the window; returns what could not be opened.
// Interactive: a file that cannot be opened is said in a dialog (a user who double-clicked
// it sees no terminal) and on stderr; the window stays open on the bundled sample.
QStringList openFiles(kwb::gui::MainWindow& window, const ResultFiles& files,
                      const std::optional<QString>& source) {
  QStringList errors;
  if (!files.open.isEmpty()) {
    if (const QString err = window.openResults(files.open); !err.isEmpty()) {
      errors << err;
      window.openBundledSample();
    }
  } else {
    window.openBundledSample();
  }
  if (!files.baseline.isEmpty())
    if (const QString err = window.openBaseline(files.baseline); !err.isEmpty()) errors << err;
  for (const QString& run : files.compare)
    if (const QString err = window.addCompareRun(run); !err.isEmpty()) errors << err;
  if (source)
    if (const QString err = window.openKernelSource(*source); !err.isEmpty()) errors << err;
  for (const QString& err : errors)
    std::fprintf(stderr, "kwb-gui: error: %s\n", err.toLocal8Bit().constData());
  return errors;
}

}  // namespace

int main(int argc, char** argv) {
  // A file-size limit (ulimit -f) fails a write with EFBIG, which the writer reports (exit 2) and
  // cleans up after, instead of killing kwb-gui with its temporary file left behind.
  std::signal(SIGXFSZ, SIG_IGN);
  QElapsedTimer clock;
  clock.start();
  Q_INIT_RESOURCE(kwb_gui);  // the .qrc lives in the static kwb_gui_lib
  // Reports and screenshots need no display: use the offscreen platform when there is none.
  if (wantsHeadless(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
      qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KernelWorkbench");
  QApplication::setApplicationName("kwb-gui");
  QApplication::setApplicationVersion(KWB_GUI_VERSION);
  QApplication::setWindowIcon(QIcon(":/icons/kwb.svg"));
  kwb::gui::installQuitSignals();  // SIGTERM, SIGINT, SIGHUP stop the engines and exit

  QCommandLineParser parser;
  parser.setApplicationDescription("Kernel Workbench: verify and benchmark CUDA kernels");
  parser.addHelpOption();
  parser.addVersionOption();
  const Options opt;
  parser.addOptions(opt.all());
  parser.addPositionalArgument(
      "files",
      "Results to open after any --open: the first opened, the second the baseline (unless "
      "--baseline names one), the rest runs drawn over them, headless and in the report too.",
      "[files...]");
  // Bad usage exits 2, as the README says (QCommandLineParser::process would exit 1).
  if (!parser.parse(QApplication::arguments())) {
    std::fprintf(stderr, "kwb-gui: error: %s\n%s", parser.errorText().toLocal8Bit().constData(),
                 parser.helpText().toLocal8Bit().constData());
    return 2;
  }
  if (parser.isSet("help")) parser.showHelp(0);
  if (parser.isSet("version")) parser.showVersion();

  const ResultFiles files = resultFiles(parser, opt);
  if (const int code = checkUsage(parser, opt)) return code;
  if (parser.isSet(opt.report) || parser.isSet(opt.screenshot))
    return startHeadless(parser, opt, files);

  kwb::gui::WindowOptions wo;
  wo.engineOverride = parser.value(opt.engine);
  wo.remote = parser.value(opt.remote);
  kwb::gui::MainWindow window(wo);
  FirstPaintProbe probe(clock, parser.isSet(opt.quitAfterPaint));
  window.installEventFilter(&probe);
  const QStringList errors =
      openFiles(window, files,
                parser.isSet(opt.source) ? std::optional(parser.value(opt.source)) : std::nullopt);
  if (parser.isSet(opt.tab)) window.selectTab(parser.value(opt.tab));
  window.show();
  if (!errors.isEmpty())
    QTimer::singleShot(0, &window,
                       [&window, errors] { window.showOpenError(errors.join("\n\n")); });
  // Ask the engine about kernels and the device once the window is up, not before.
  QTimer::singleShot(0, &window, [&window] { window.probeEngine(); });
  return app.exec();
}
