// SPDX-License-Identifier: Apache-2.0
#include "engine/engine_watchdog.h"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <cmath>

namespace kwb::gui {

namespace {

// KWB_GUI_ENGINE_SILENCE_S as seconds; 0 when unset or not a positive number.
double environmentLimit() {
  bool ok = false;
  const double s = qEnvironmentVariable(EngineWatchdog::kEnvironmentVariable).toDouble(&ok);
  return ok && std::isfinite(s) && s > 0 ? s : 0;
}

}  // namespace

EngineWatchdog::EngineWatchdog(QObject* parent) : QObject(parent) {
  m_timer.setSingleShot(true);
  connect(&m_timer, &QTimer::timeout, this, [this] { emit expired(m_reason, m_armedS); });
}

double EngineWatchdog::limitFor(const RunSettings& settings, int cases) {
  const double perCase =
      std::max(settings.maxTimeS, settings.minTimeS) * std::max(1, settings.replicates);
  const double planned = 60 + 3 * perCase * std::max(0, cases);
  // At most a week: a timer's milliseconds must fit an int.
  return std::clamp(std::isfinite(planned) ? planned : kFloorS, kFloorS, 7 * 86400.0);
}

double EngineWatchdog::limitS() const {
  if (m_override > 0) return m_override;
  if (const double env = environmentLimit(); env > 0) return env;
  return m_limit;
}

double EngineWatchdog::graceS() const { return std::min(kAfterDoneS, limitS()); }

void EngineWatchdog::arm(Reason reason, double seconds) {
  m_reason = reason;
  m_armedS = seconds;
  m_timer.start(int(std::min(seconds, 7 * 86400.0) * 1000));
}

void EngineWatchdog::engineStarted() {
  m_limit = kFloorS;
  arm(Reason::kSilent, limitS());
}

void EngineWatchdog::planReceived(const RunSettings& settings, int cases) {
  m_limit = limitFor(settings, cases);
  arm(Reason::kSilent, limitS());
}

void EngineWatchdog::eventReceived() {
  if (m_timer.isActive() && m_reason == Reason::kSilent) arm(Reason::kSilent, limitS());
}

void EngineWatchdog::doneReceived() { arm(Reason::kAliveAfterDone, graceS()); }

void EngineWatchdog::stop() { m_timer.stop(); }

namespace {
// The state letter /proc gives process `pid` ('R', 'S', 'T', 'Z', ...); 0 when it cannot be read.
char processState(qint64 pid) {
  QFile stat(QString("/proc/%1/stat").arg(pid));
  if (pid <= 0 || !stat.open(QIODevice::ReadOnly)) return 0;
  // "pid (comm) S ...": the state follows the last ')', as comm may hold one.
  const QByteArray text = stat.read(4096);
  const qsizetype close = text.lastIndexOf(')');
  return close >= 0 && close + 2 < text.size() ? text[close + 2] : char(0);
}
}  // namespace

QString silentProcessCondition(qint64 pid) {
  if (processState(pid) == 'T') return ", and it was stopped (SIGSTOP)";
  if (processClosedStdout(pid)) return ", and it had closed its stdout";
  return {};
}

bool processClosedStdout(qint64 pid) {
  // An engine that has exited (a zombie not yet reaped) has closed every file; that is no fault.
  const char state = processState(pid);
  return state != 0 && state != 'Z' && state != 'X' &&
         !QFileInfo(QString("/proc/%1/fd/1").arg(pid)).isSymLink() &&
         QFileInfo(QString("/proc/%1/fd").arg(pid)).isReadable();
}

QString secondsText(double seconds) { return QString::number(seconds, 'g', 4) + " s"; }

}  // namespace kwb::gui
