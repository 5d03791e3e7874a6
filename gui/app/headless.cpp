// SPDX-License-Identifier: Apache-2.0
#include "app/headless.h"

#include <QApplication>
#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QImageWriter>
#include <QPixmap>
#include <QTabWidget>
#include <cstdio>
#include <memory>

#include "model/case_size.h"
#include "app/main_window.h"
#include "kwb/error.h"
#include "kwb/output_files.h"
#include "kwb/shape.h"
#include "model/output_file.h"
#include "panels/case_detail_dialog.h"

namespace kwb::gui {
namespace {

int fail(const QString& message) {
  std::fprintf(stderr, "kwb-gui: error: %s\n", message.toLocal8Bit().constData());
  return 2;
}

std::string localPath(const QString& path) { return QFile::encodeName(path).toStdString(); }

// The outputs are checked before anything is opened or drawn, by the check kwb's commands use
// (kwb/output_files.h): a device, FIFO, socket or folder, an input, or the other output is
// refused naming the option; an empty string means they may be written.
QString checkHeadlessOutputs(const HeadlessOptions& o) {
  try {
    std::vector<NamedPath> inputs{{"--open", localPath(o.open)},
                                  {"--baseline", localPath(o.baseline)},
                                  {"--source", localPath(o.source)}};
    for (const QString& run : o.compare) inputs.push_back({"a compared run", localPath(run)});
    checkOutputs(inputs,
                 {{"--report", localPath(o.report)}, {"--screenshot", localPath(o.screenshot)}});
  } catch (const InputError& e) {
    return QString::fromLocal8Bit(e.what()) + ".";
  }
  return {};
}

}  // namespace

// A failure leaves the previous file as it was.
QString saveScreenshot(const QPixmap& shot, const QString& path) {
  const QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
  if (format.isEmpty() || !QImageWriter::supportedImageFormats().contains(format)) {
    QStringList known;
    for (const QByteArray& f : QImageWriter::supportedImageFormats()) known << "." + QString(f);
    return QString("cannot write the screenshot '%1': unknown image type '%2' (use one of %3).")
        .arg(path, format.isEmpty() ? QString("(no extension)") : "." + QString(format),
             known.join(", "));
  }
  // Encoded in memory, then written as every output is (kwb/text_file.h): atomically, onto a
  // regular file only, keeping its mode.
  QByteArray bytes;
  QBuffer buffer(&bytes);
  if (!buffer.open(QIODevice::WriteOnly) || !shot.save(&buffer, format.constData()))
    return QString(
               "cannot write the screenshot '%1': the image could not be encoded; any "
               "previous file there is unchanged.")
        .arg(path);
  return writeOutputFile(path, bytes, "--screenshot");
}

namespace {

// Shows the Nsight Compute tab named `tab` (case-insensitive) of the dialog's panel.
QString showProfileTab(CaseDetailDialog& dialog, const QString& tab) {
  QTabWidget* tabs = dialog.profilePanel() ? dialog.profilePanel()->tabs() : nullptr;
  if (tab.isEmpty() || !tabs) return {};
  QStringList names;
  for (int i = 0; i < tabs->count(); ++i) {
    if (tabs->tabText(i).compare(tab, Qt::CaseInsensitive) == 0) {
      tabs->setCurrentIndex(i);
      return {};
    }
    names << tabs->tabText(i);
  }
  return QString(
             "--tab '%1' with --case: the case dialog has no such tab (its Nsight Compute "
             "tabs: %2).")
      .arg(tab, names.join(", "));
}

}  // namespace

int runHeadless(const HeadlessOptions& o) {
  if (const QString err = checkHeadlessOutputs(o); !err.isEmpty()) return fail(err);
  if (!o.source.isEmpty()) return runHeadlessSource(o);
  const std::optional<Theme> theme = parseTheme(o.theme.isEmpty() ? "system" : o.theme);
  if (!theme) return fail(QString("--theme '%1': expected system, light or dark.").arg(o.theme));
  WindowOptions wo;
  wo.engineOverride = o.engine;
  wo.probeEngine = false;  // reports show what the file holds, not this machine
  wo.persistSettings = false;
  MainWindow w(wo);
  if (*theme != Theme::kSystem) w.setTheme(*theme);
  if (o.open.isEmpty()) {
    if (!w.openBundledSample()) return fail("no results to show: give --open FILE.json.");
  } else if (const QString err = w.openResults(o.open); !err.isEmpty()) {
    return fail(err);
  }
  if (!o.baseline.isEmpty())
    if (const QString err = w.openBaseline(o.baseline); !err.isEmpty()) return fail(err);
  for (const QString& run : o.compare)
    if (const QString err = w.addCompareRun(run); !err.isEmpty()) return fail(err);
  // With --case, --tab names a tab of the case's Nsight Compute panel instead.
  if (o.caseDialog.isEmpty() && !o.tab.isEmpty() && !w.selectTab(o.tab))
    return fail(QString("there is no tab '%1' (tabs: %2).").arg(o.tab, w.tabNames().join(", ")));
  w.resize(o.size);
  w.show();
  QApplication::processEvents();
  w.rebuildAllNow();
  QApplication::processEvents();
  std::unique_ptr<CaseDetailDialog> dialog;
  if (!o.caseDialog.isEmpty()) {
    const QStringList parts = o.caseDialog.split('@');
    try {
      if (parts.size() != 2) throw InputError("expected KERNEL@SHAPE, e.g. sgemm.tiled@512");
      // A size of the kernel's family: a GEMM shape, or "reduce.warp@2^20 f32".
      dialog.reset(w.caseDialog(parts[0].toStdString(), parts[1]));
    } catch (const InputError& e) {
      return fail(QString("--case '%1': %2.").arg(o.caseDialog, e.what()));
    }
    if (!dialog)
      return fail(QString("--case '%1': the document has no such case.").arg(o.caseDialog));
    if (const QString err = showProfileTab(*dialog, o.tab); !err.isEmpty()) return fail(err);
    dialog->resize(o.size);  // the dialog is what is shot, at the size asked for
    dialog->show();
    QApplication::processEvents();
  }
  if (!o.screenshot.isEmpty()) {
    if (const QString err = saveScreenshot(dialog ? dialog->grab() : w.grab(), o.screenshot);
        !err.isEmpty())
      return fail(err);
    std::fprintf(stderr, "kwb-gui: screenshot written to %s\n",
                 o.screenshot.toLocal8Bit().constData());
  }
  if (!o.report.isEmpty()) {
    if (const QString err = w.exportReport(o.report, "--report"); !err.isEmpty()) return fail(err);
    std::fprintf(stderr, "kwb-gui: report written to %s\n", o.report.toLocal8Bit().constData());
  }
  return 0;
}

}  // namespace kwb::gui
