#include "headless.h"

#include <QApplication>
#include <QPixmap>
#include <cstdio>

#include "main_window.h"

namespace kwb::gui {
namespace {

int fail(const QString& message) {
  std::fprintf(stderr, "kwb-gui: error: %s\n", message.toLocal8Bit().constData());
  return 2;
}

}  // namespace

int runHeadless(const HeadlessOptions& o) {
  WindowOptions wo;
  wo.engineOverride = o.engine;
  wo.probeEngine = false;  // reports show what the file holds, not this machine
  wo.persistSettings = false;
  MainWindow w(wo);
  if (o.open.isEmpty()) {
    if (!w.openBundledSample()) return fail("no results to show: give --open FILE.json.");
  } else if (const QString err = w.openResults(o.open); !err.isEmpty()) {
    return fail(err);
  }
  if (!o.baseline.isEmpty())
    if (const QString err = w.openBaseline(o.baseline); !err.isEmpty()) return fail(err);
  if (!o.tab.isEmpty() && !w.selectTab(o.tab))
    return fail(QString("there is no tab '%1' (tabs: %2).").arg(o.tab, w.tabNames().join(", ")));
  w.resize(o.size);
  w.show();
  QApplication::processEvents();
  w.rebuildAllNow();
  QApplication::processEvents();
  if (!o.screenshot.isEmpty()) {
    const QPixmap shot = w.grab();
    if (!shot.save(o.screenshot))
      return fail(QString("could not write the screenshot '%1'.").arg(o.screenshot));
    std::fprintf(stderr, "kwb-gui: screenshot written to %s\n",
                 o.screenshot.toLocal8Bit().constData());
  }
  if (!o.report.isEmpty()) {
    if (const QString err = w.exportReport(o.report); !err.isEmpty()) return fail(err);
    std::fprintf(stderr, "kwb-gui: report written to %s\n", o.report.toLocal8Bit().constData());
  }
  return 0;
}

}  // namespace kwb::gui
