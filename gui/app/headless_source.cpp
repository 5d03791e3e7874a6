// SPDX-License-Identifier: Apache-2.0
// `kwb-gui --source F.cu --engine KWB --kernels K,... --shapes S,... --screenshot out.png`:
// the hot-reload loop of a user kernel, headless. The kernel runs once through the engine,
// the file is saved again unchanged (what an editor's save does to the watcher), the watcher's
// re-run goes through the engine a second time, `kwb ab` times the copy of the second run's file
// against the first's, and the window is shot after it, with the kernel next to its previous
// run and kwb ab's verdict, or why there is none (docs/BRING_YOUR_OWN.md).
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTimer>
#include <cstdio>

#include "app/headless.h"
#include "app/main_window.h"
#include "app/quit_signals.h"
#include "kwb/error.h"
#include "kwb/shape.h"
#include "panels/user_kernel_panel.h"

namespace kwb::gui {
namespace {

// Exit 2 with `message`; 128 + the signal, without it, where a signal asked kwb-gui to quit.
int fail(const QString& message) {
  if (const int signal = quitSignal()) return 128 + signal;
  std::fprintf(stderr, "kwb-gui: error: %s\n", message.toLocal8Bit().constData());
  return 2;
}

void say(const QString& text) {
  std::fprintf(stderr, "kwb-gui: %s\n", text.toLocal8Bit().constData());
}

// Runs the event loop until `done` or `seconds` pass, or a signal asks kwb-gui to quit
// (quit_signals.h); false on the time limit or the signal.
template <class Done>
bool waitUntil(Done done, int seconds) {
  QElapsedTimer clock;
  clock.start();
  while (!done()) {
    if (clock.elapsed() > seconds * 1000LL || quitSignal() != 0) return false;
    QEventLoop loop;
    QTimer::singleShot(50, &loop, &QEventLoop::quit);
    loop.exec();
  }
  return true;
}

}  // namespace

int runHeadlessSource(const HeadlessOptions& o) {
  constexpr int kRunLimitS = 900;
  WindowOptions wo;
  wo.engineOverride = o.engine;
  wo.probeEngine = false;
  wo.persistSettings = false;
  MainWindow w(wo);
  if (const QString err = w.openKernelSource(o.source); !err.isEmpty()) return fail(err);
  RunRequest r;
  for (const QString& k : o.kernels.split(',', Qt::SkipEmptyParts)) r.kernels << k.trimmed();
  r.kernels << UserKernelWatcher::caseId(o.source);
  try {
    for (const QString& s : o.shapes.split(',', Qt::SkipEmptyParts))
      r.sizes << CaseSize(parseShape(s.trimmed().toStdString()));
  } catch (const InputError& e) {
    return fail(QString("--shapes '%1': %2.").arg(o.shapes, e.what()));
  }
  if (r.sizes.isEmpty()) return fail("--source needs --shapes (e.g. --shapes 1024,2048).");
  w.resize(o.size);
  w.show();
  int runs = 0;
  bool allOk = true;
  QObject::connect(w.controller(), &RunController::runFinished, &w,
                   [&](const RunDocument&, bool ok, const QString& message) {
                     ++runs;
                     allOk = allOk && ok;
                     say(QString("run %1 ended: %2").arg(runs).arg(message));
                   });
  w.runRequest(r);
  if (!waitUntil([&] { return runs >= 1; }, kRunLimitS))
    return fail(QString("the first run did not end within %1 s.").arg(kRunLimitS));
  say("after run 1: " + w.userKernelPanel()->changesText().replace('\n', "; "));

  // The save: the same text written again, as an editor writes it.
  QFile file(o.source);
  if (!file.open(QIODevice::ReadOnly)) return fail(QString("cannot read '%1'.").arg(o.source));
  const QByteArray text = file.readAll();
  file.close();
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text) != text.size())
    return fail(QString("cannot save '%1' again: %2.").arg(o.source, file.errorString()));
  file.close();
  say("saved " + o.source + " again; waiting for the watcher's run");
  if (!waitUntil([&] { return runs >= 2; }, kRunLimitS))
    return fail(QString("saving '%1' did not start a run that ended within %2 s.")
                    .arg(o.source)
                    .arg(kRunLimitS));
  if (!waitUntil([&] { return !w.abRunner()->isRunning(); }, kRunLimitS))
    return fail(QString("kwb ab did not end within %1 s.").arg(kRunLimitS));
  say("after run 2: " + w.userKernelPanel()->changesText().replace('\n', "; "));
  say("status: " + w.userKernelPanel()->statusText());
  say(w.userKernelPanel()->abText().replace('\n', "; "));

  const QString tab = o.tab.isEmpty() ? QString("Progression") : o.tab;
  if (!w.selectTab(tab))
    return fail(QString("there is no tab '%1' (tabs: %2).").arg(tab, w.tabNames().join(", ")));
  QApplication::processEvents();
  w.rebuildAllNow();
  QApplication::processEvents();
  if (!o.screenshot.isEmpty()) {
    if (const QString err = saveScreenshot(w.grab(), o.screenshot); !err.isEmpty())
      return fail(err);
    say("screenshot written to " + o.screenshot);
  }
  return allOk ? 0 : 1;
}

}  // namespace kwb::gui
