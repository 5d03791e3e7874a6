// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTimer>

#include "engine/engine_location.h"

namespace kwb::gui {

// One short command on a remote host over ssh (`kwb slurm submit|status`, `cat FILE`,
// `scancel JOB`), never through a local shell, bounded in time: finished() comes exactly once,
// after the command ends, fails to start, or overruns its limit (then its process group is
// killed). Like every engine process it dies with kwb-gui (engine_process.h).
class RemoteCall : public QObject {
  Q_OBJECT
 public:
  RemoteCall(const EngineLocation& where, const QStringList& words, int timeoutMs,
             QObject* parent = nullptr);
  ~RemoteCall() override;
  void start();
  // Ends it now, with no finished().
  void abort();
  // "kwb slurm status /runs/x --json": the words as the remote shell sees them, for messages.
  QString text() const { return m_words.join(' '); }

 signals:
  // `failure`: a sentence naming the host when ssh or the remote shell failed, or the call
  // overran its limit (describeRemoteFailure); empty when the command ran and exited by itself
  // (`exitCode` is then its own).
  void finished(int exitCode, const QByteArray& out, const QString& err, const QString& failure);

 private:
  void end(int exitCode, const QString& failure);

  EngineLocation m_where;
  QStringList m_words;
  QProcess m_process;
  QTimer m_limit;
  QString m_err;
  bool m_done = false;
};

}  // namespace kwb::gui
