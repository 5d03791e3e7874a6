// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QElapsedTimer>
#include <QTimer>
#include <memory>
#include <optional>

#include "engine/remote_call.h"
#include "engine/slurm_target.h"
#include "kwb/shard_collector.h"

namespace kwb::gui {

// One shard of a job as the GUI last saw it.
struct SlurmShardState {
  int index = 0;
  QString slurm;    // squeue's or sacct's state ("PENDING", "RUNNING", "COMPLETED"); may be empty
  QString result;   // what the job's folder holds: document, failed, partial, none
  QString reason;   // a failure record's reason
  QString refused;  // why the fetched file was not merged (truncated, another plan, duplicated)
  bool merged = false;    // its document (or failure record) is in the merge
  QString pendingReason;  // squeue's reason while it is PENDING: Resources, Priority, ...
  // "done", "running", "pending (Resources)", "failed: exit 3 (no CUDA device): ...",
  // "refused: ...".
  QString text() const;
};

// A run on a Slurm cluster through its login node (docs/SCALE_OUT.md, "The GUI's Slurm target"),
// every step a bounded ssh call (remote_call.h), none at a time with another:
//  1. `kwb slurm submit ... --output-dir FOLDER` there; the array and merge job ids it prints;
//  2. every poll interval (a timer), `kwb slurm status FOLDER --json`: each shard's state;
//  3. `cat` of each shard document or failure record that appeared since, merged at once with
//     kwb merge's own code (kwb/shard_collector.h): documentChanged() with the partial document,
//     the shards not in yet as holes;
//  4. once every shard is in, the merge job: while it is queued or running the watch waits; the
//     merged.json it wrote is fetched and compared with the GUI's merge (model/merge_agreement.h)
//     and, when they agree, is the result; else the GUI's merge is, and the message says why.
//     Once merged.json is there, whatever is still missing stays a hole.
// A job that stays queued (nothing running, nothing arriving) is watched for the target's
// patience, its wait and squeue's reason in shardSummary(); then the watch ends naming the job
// and the reason, and leaves the job queued.
// cancel() runs `scancel ARRAY MERGE` there. A call that fails three polls in a row ends the
// watch with a sentence naming the host and the job; the job goes on on the cluster, and what
// arrived is kept.
class SlurmRun : public QObject {
  Q_OBJECT
 public:
  explicit SlurmRun(QObject* parent = nullptr);
  ~SlurmRun() override;

  void setPollInterval(int ms) { m_poll.setInterval(ms); }
  // Every ssh call's limit; 0: each call's own (submit 120 s, status 150 s, cat 120 s, scancel
  // 30 s).
  void setCallTimeout(int ms) { m_callTimeoutMs = ms; }
  // How long a queued job is watched; 0: the target's patienceMin.
  void setPatience(int ms) { m_patienceMs = ms; }

  void start(const SlurmTarget& target, const RunRequest& request);
  void cancel();
  bool isRunning() const { return m_phase != Phase::kIdle; }

  const SlurmTarget& target() const { return m_target; }
  QString folder() const { return m_folder; }
  QString arrayJob() const { return m_arrayJob; }
  const QList<SlurmShardState>& shards() const { return m_shards; }
  // The merge so far (empty until the first shard is in).
  const RunDocument& document() const { return m_collector->merged().document; }
  // One line per shard: "shard 1/4: done", "shard 2/4: running", ...; first, while the job
  // waits in the queue, how long and why (queueText).
  QString shardSummary() const;
  // "Queued for 2 min 5 s with nothing running (squeue: Resources)", or empty while it moves.
  QString queueText() const;
  // "login1:runs/x/merged.json" when the merge job's document is the result; else empty.
  QString mergedFile() const { return m_result ? host() + ":" + m_mergedPath : QString(); }

 signals:
  void submitted(const QString& arrayJob, const QString& mergeJob);
  void shardsChanged();
  void documentChanged(const kwb::RunDocument& document);
  void logLine(const QString& level, const QString& message);
  // The run ended: `ok` when every shard merged from its document; `message` says how.
  void finished(const kwb::RunDocument& document, bool ok, const QString& message);

 private:
  enum class Phase { kIdle, kSubmitting, kWatching, kCancelling };
  void call(const QStringList& words, int timeoutMs,
            void (SlurmRun::*done)(int, const QByteArray&, const QString&, const QString&));
  void onSubmitted(int code, const QByteArray& out, const QString& err, const QString& failure);
  void poll();
  void onStatus(int code, const QByteArray& out, const QString& err, const QString& failure);
  void fetchNext();
  void onFetched(int code, const QByteArray& out, const QString& err, const QString& failure);
  void onCancelled(int code, const QByteArray& out, const QString& err, const QString& failure);
  // A poll or fetch failed: the watch goes on unless it is the third in a row.
  void callFailed(const QString& why);
  void checkDone();
  // Polls again, or ends the watch when the job has been queued longer than the patience.
  void waitOrGiveUp();
  // Nothing moves: no shard not in yet runs, nor the merge job.
  bool quiet() const;
  QString pendingReasons() const;
  // "Slurm job J on H: K of N shards merged, C cases" and the shards not merged; `ok` when all.
  QString outcome(bool& ok) const;
  void onMergedFetched(int code, const QByteArray& out, const QString& err, const QString& failure);
  void finish(bool ok, const QString& message);
  int timeout(int ownMs) const { return m_callTimeoutMs > 0 ? m_callTimeoutMs : ownMs; }
  QString host() const { return m_target.login.label(); }

  SlurmTarget m_target;
  QString m_folder, m_arrayJob, m_mergeJob;
  bool m_mergedWritten = false;         // the merge job wrote merged.json: the array has ended
  QString m_mergedPath;                 // its path, from kwb slurm status
  QString m_mergeState, m_mergeReason;  // the merge job's, while squeue lists it
  std::optional<RunDocument> m_result;  // merged.json, when it agreed with our merge
  QElapsedTimer m_quietSince;           // since anything last ran or arrived
  bool m_quiet = false;                 // at the last poll
  int m_patienceMs = 0;
  Phase m_phase = Phase::kIdle;
  QPointer<RemoteCall> m_call;
  QTimer m_poll;
  int m_callTimeoutMs = 0;
  int m_failuresInARow = 0;
  std::unique_ptr<ShardCollector> m_collector;
  QList<SlurmShardState> m_shards;
  struct Fetch {
    int index;
    QString path;
  };
  QList<Fetch> m_fetches;   // files to fetch, in turn
  QSet<QString> m_fetched;  // paths merged or refused: never fetched again
  Fetch m_fetching{0, {}};
};

}  // namespace kwb::gui
