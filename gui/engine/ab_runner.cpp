// SPDX-License-Identifier: Apache-2.0
#include "engine/ab_runner.h"

#include <QFile>

#include "engine/run_controller.h"

namespace kwb::gui {
namespace {

// The engine's own message: its last "kwb: ..." line ("kwb: error: ...", "kwb: no CUDA
// device: ..."), else its last line.
QString engineMessage(const QString& stderrText) {
  const QStringList lines = stderrText.split('\n', Qt::SkipEmptyParts);
  for (qsizetype i = lines.size(); i-- > 0;)  // the last first (clang-14 has no ranges of QList)
    if (lines[i].startsWith("kwb: ")) return lines[i].trimmed();
  return lines.isEmpty() ? QString() : lines.last().trimmed();
}

}  // namespace

QStringList AbRequest::toArguments(const QString& json) const {
  QStringList shapeList;
  for (const Shape& s : shapes) shapeList << QString::fromStdString(toString(s));
  QStringList args{"ab", "--against", against, "--source", source};
  if (!entry.isEmpty()) args << "--entry" << entry;
  args << "--shapes" << shapeList.join(',');
  if (seed) args << "--seed" << QString::number(*seed);
  if (device != 0) args << "--device" << QString::number(device);
  return args << "--json" << json;
}

AbRunner::AbRunner(QObject* parent) : QObject(parent) {}

AbRunner::~AbRunner() {
  if (m_driver) m_driver->disconnect(this);  // its destructor kills a process still running
}

QString AbRunner::start(const AbRequest& request) {
  cancel();
  if (!m_location.isLocal())
    return QString(
               "kwb ab over ssh is not available: the two versions it compares are copies "
               "on this machine, and kwb on %1 reads its sources from the server's disk.")
        .arg(m_location.label());
  if (m_program.isEmpty()) return "kwb ab cannot run: the engine kwb was not found.";
  if (request.shapes.isEmpty()) return "kwb ab cannot run: the run timed no shape of the kernel.";
  if (!m_dir.isValid())
    return QString("kwb ab cannot run: no temporary folder for its report (%1).")
        .arg(m_dir.errorString());
  m_json = m_dir.filePath(QString("ab-%1.json").arg(++m_started));
  QFile::remove(m_json);
  m_arguments = request.toArguments(m_json);
  m_driver = new EngineDriver(this);
  m_driver->setLocation(m_location);
  connect(
      m_driver, &EngineDriver::queryFinished, this,
      [this](int exitCode, const QByteArray&, const QString& err) { onFinished(exitCode, err); });
  emit logLine("info", QString("Starting kwb ab: %1 %2").arg(m_program, m_arguments.join(' ')));
  m_driver->query(m_program, m_arguments);
  return {};
}

void AbRunner::cancel() {
  if (!m_driver) return;
  EngineDriver* d = m_driver;
  m_driver.clear();
  d->disconnect(this);
  if (d->isRunning()) {
    connect(d, &EngineDriver::queryFinished, d, &QObject::deleteLater);
    d->stop();
    emit logLine("info", "kwb ab was stopped.");
  } else {
    d->deleteLater();
  }
}

void AbRunner::onFinished(int exitCode, const QString& stderrText) {
  if (m_driver) m_driver->deleteLater();
  m_driver.clear();
  for (const QString& line : stderrText.split('\n', Qt::SkipEmptyParts))
    emit logLine("engine", line);
  const QString said = engineMessage(stderrText);
  if (exitCode != 0 && exitCode != 1) {
    // -1: it could not start (`said` is why) or a signal killed it.
    const QString how =
        exitCode < 0 ? QString("did not run to its end") : describeExit(exitCode, false);
    const QString message = said.isEmpty() ? QString("kwb ab %1 and said nothing.").arg(how)
                                           : QString("kwb ab %1: %2").arg(how, said);
    emit logLine("error", message);
    emit failed(message);
    return;
  }
  try {
    AbReport report = readAbReport(m_json.toStdString());
    QFile::remove(m_json);
    emit logLine("info", QString("kwb ab ended (%1 sizes).").arg(report.results.size()));
    emit finished(report);
  } catch (const std::exception& e) {
    const QString message =
        QString("kwb ab %1, but its report could not be read: %2")
            .arg(describeExit(exitCode, false), QString::fromStdString(e.what())) +
        (said.isEmpty() ? QString() : QString(" (it said: %1)").arg(said));
    emit logLine("error", message);
    emit failed(message);
  }
}

}  // namespace kwb::gui
