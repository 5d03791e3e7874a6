// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include "kwb/run_document.h"

namespace kwb::gui {

// RunController's watch over one engine process (docs/RELIABILITY.md, "When the engine
// breaks"): an engine that sends no event for the silence limit (hung mid-case, stopped by
// SIGSTOP, its stdout closed while it lives on) is to be ended, and so is one still there a
// grace after its `done` event. Only events count; stderr does not keep an engine alive.
class EngineWatchdog : public QObject {
  Q_OBJECT
 public:
  enum class Reason { kSilent, kAliveAfterDone };
  // The silence limit when nothing more is known (before a plan): the floor of any limit.
  static constexpr double kFloorS = 300;
  // How long an engine may live on after `done` (or the silence limit, if shorter).
  static constexpr double kAfterDoneS = 10;
  // KWB_GUI_ENGINE_SILENCE_S: a number of seconds that replaces every computed limit (tests).
  static constexpr const char* kEnvironmentVariable = "KWB_GUI_ENGINE_SILENCE_S";

  explicit EngineWatchdog(QObject* parent = nullptr);

  // The silence limit of a plan of `cases` run with `settings`: the floor, or more where the
  // plan's sampling could keep a block of cases quiet for longer (each case up to its max
  // sampling time in each round, the cases of a block timed together).
  static double limitFor(const RunSettings& settings, int cases);
  // Replaces every computed limit; 0 or less: none (then KWB_GUI_ENGINE_SILENCE_S, if set).
  void setOverride(double seconds) { m_override = seconds; }

  void engineStarted();  // the floor, from now on
  void planReceived(const RunSettings& settings, int cases);
  void eventReceived();  // the silence limit starts again
  void doneReceived();   // from now on the engine has graceS() to exit
  void stop();
  double limitS() const;
  double graceS() const;

 signals:
  // `seconds`: how long the engine was silent, or alive after `done`.
  void expired(kwb::gui::EngineWatchdog::Reason reason, double seconds);

 private:
  void arm(Reason reason, double seconds);

  QTimer m_timer;
  Reason m_reason = Reason::kSilent;
  double m_limit = kFloorS;
  double m_override = 0;
  double m_armedS = 0;
};

// What /proc says of a local engine that went silent: ", and it was stopped (SIGSTOP)",
// ", and it had closed its stdout", or empty.
QString silentProcessCondition(qint64 pid);
// True when local process `pid` runs with its stdout (fd 1) closed.
bool processClosedStdout(qint64 pid);
// "2 s", "1.5 s", "300 s".
QString secondsText(double seconds);

}  // namespace kwb::gui
