// SPDX-License-Identifier: Apache-2.0
#pragma once
// `kwb ab` for the bring-your-own loop (docs/BRING_YOUR_OWN.md, "In the GUI"): this save of a
// user kernel timed against the last good one, interleaved in one engine process
// (docs/MEASUREMENT.md, "A/B in one run"), so drift between two separate runs cannot decide.
// One process at a time, started through EngineDriver like every engine process of the GUI;
// the report is read with core's readAbReport.
#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTemporaryDir>
#include <optional>

#include "engine/engine_driver.h"
#include "engine/engine_location.h"
#include "kwb/ab_report.h"
#include "kwb/shape.h"

namespace kwb::gui {

// One `kwb ab --against OLD --source NEW` of two copies (engine/source_snapshots.h).
struct AbRequest {
  QString against;  // A: the last good version
  QString source;   // B: this save
  QString entry;    // the kernel's entry function in both (the copies' stems are not it)
  QList<Shape> shapes;
  std::optional<quint64> seed;
  int device = 0;
  // `ab --against A --source B --entry E --shapes S,... [--seed N] [--device N] --json JSON`;
  // the other source options of a run from the GUI are the file's own `// kwb:` header.
  QStringList toArguments(const QString& json) const;
};

class AbRunner : public QObject {
  Q_OBJECT
 public:
  explicit AbRunner(QObject* parent = nullptr);
  ~AbRunner() override;

  // The engine as the RunController has it: the local program, and where it runs.
  void setEngine(const QString& program) { m_program = program; }
  void setLocation(const EngineLocation& where) { m_location = where; }

  // Starts `kwb ab`, stopping one still running (it reports nothing then). Returns an empty
  // string when it started; else a sentence saying why it cannot run, and nothing is
  // reported: on a GPU server over ssh the two snapshots are on this machine, out of reach
  // of the server's kwb.
  QString start(const AbRequest& request);
  // Stops the process running (SIGTERM, then SIGKILL); nothing is reported.
  void cancel();
  bool isRunning() const { return m_driver && m_driver->isRunning(); }
  // The arguments of the last start (after the engine program).
  QStringList lastArguments() const { return m_arguments; }

 signals:
  void logLine(const QString& level, const QString& message);
  // The engine wrote its report (exit 0, or 1 when a side did not pass verification).
  void finished(const kwb::AbReport& report);
  // No report: the engine's own message, or why it could not be read.
  void failed(const QString& message);

 private:
  void onFinished(int exitCode, const QString& stderrText);

  QString m_program;
  EngineLocation m_location;
  QPointer<EngineDriver> m_driver;
  QTemporaryDir m_dir;  // the reports
  QString m_json;
  QStringList m_arguments;
  int m_started = 0;
};

}  // namespace kwb::gui
