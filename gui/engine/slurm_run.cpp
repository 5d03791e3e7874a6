// SPDX-License-Identifier: Apache-2.0
#include "engine/slurm_run.h"

#include <QRegularExpression>
#include <nlohmann/json.hpp>

#include "kwb/results.h"
#include "model/merge_agreement.h"

namespace kwb::gui {
namespace {

constexpr int kSubmitMs = 120000;
constexpr int kStatusMs = 150000;  // kwb slurm status asks squeue, then sacct: 60 s each at most
constexpr int kFetchMs = 120000;
constexpr int kCancelMs = 30000;
constexpr int kPollMs = 10000;
constexpr int kFailuresToGiveUp = 3;

QString lastLine(const QString& text) {
  const QStringList lines = text.trimmed().split('\n', Qt::SkipEmptyParts);
  return lines.isEmpty() ? QString() : lines.last().trimmed();
}

QString s(const nlohmann::json& j, const char* key) {
  return QString::fromStdString(j.value(key, std::string()));
}

// A job or task that does something: running, or starting or ending on its node.
bool moving(const QString& slurmState) {
  return slurmState.startsWith("RUNNING") || slurmState.startsWith("CONFIGURING") ||
         slurmState.startsWith("COMPLETING");
}

QString duration(qint64 ms) {
  const qint64 sec = ms / 1000;
  if (sec < 60) return QString("%1 s").arg(sec);
  if (sec < 3600) return QString("%1 min %2 s").arg(sec / 60).arg(sec % 60);
  return QString("%1 h %2 min").arg(sec / 3600).arg(sec % 3600 / 60);
}

}  // namespace

QString SlurmShardState::text() const {
  if (!refused.isEmpty()) return "refused: " + refused;
  if (result == "failed") return "failed: " + reason;
  if (result == "document") return merged ? "done" : "done (fetching)";
  if (result == "partial") return "interrupted";
  if (slurm.isEmpty()) return "waiting for Slurm";
  const QString state = slurm.section(' ', 0, 0).toLower();
  return pendingReason.isEmpty() ? state : state + " (" + pendingReason + ")";
}

SlurmRun::SlurmRun(QObject* parent) : QObject(parent) {
  m_poll.setSingleShot(true);
  m_poll.setInterval(kPollMs);
  connect(&m_poll, &QTimer::timeout, this, &SlurmRun::poll);
  m_collector = std::make_unique<ShardCollector>(1);
}

SlurmRun::~SlurmRun() = default;

QString SlurmRun::shardSummary() const {
  QStringList lines;
  if (const QString q = queueText(); !q.isEmpty()) lines << q;
  for (const SlurmShardState& st : m_shards)
    lines << QString("shard %1/%2: %3").arg(st.index).arg(m_target.shards).arg(st.text());
  return lines.join('\n');
}

void SlurmRun::call(const QStringList& words, int timeoutMs,
                    void (SlurmRun::*done)(int, const QByteArray&, const QString&,
                                           const QString&)) {
  delete m_call;
  m_call = new RemoteCall(m_target.login, words, timeout(timeoutMs), this);
  RemoteCall* c = m_call;
  connect(c, &RemoteCall::finished, this,
          [this, c, done](int code, const QByteArray& out, const QString& err, const QString& f) {
            c->deleteLater();
            (this->*done)(code, out, err, f);
          });
  c->start();
}

void SlurmRun::start(const SlurmTarget& target, const RunRequest& request) {
  if (isRunning()) return;
  m_target = target;
  m_folder = slurmRunFolder(target, QDateTime::currentDateTimeUtc());
  m_arrayJob.clear();
  m_mergeJob.clear();
  m_mergedWritten = false;
  m_mergedPath.clear();
  m_mergeState.clear();
  m_mergeReason.clear();
  m_result.reset();
  m_quiet = false;
  m_failuresInARow = 0;
  m_collector = std::make_unique<ShardCollector>(target.shards);
  m_shards.clear();
  for (int i = 1; i <= target.shards; ++i)
    m_shards << SlurmShardState{i, {}, "none", {}, {}, false, {}};
  m_fetches.clear();
  m_fetched.clear();
  m_phase = Phase::kSubmitting;
  const QStringList words =
      QStringList{m_target.login.remoteKwb()} + slurmSubmitArguments(target, request, m_folder);
  emit logLine("info", QString("Submitting to %1: %2").arg(m_target.label(), words.join(' ')));
  emit shardsChanged();
  call(words, kSubmitMs, &SlurmRun::onSubmitted);
}

void SlurmRun::onSubmitted(int code, const QByteArray& out, const QString& err,
                           const QString& failure) {
  if (!failure.isEmpty()) return finish(false, "Nothing was submitted: " + failure);
  const QString text = QString::fromUtf8(out);
  const auto array = QRegularExpression("array job (\\d+)").match(text);
  const auto merge = QRegularExpression("merge job (\\d+)").match(text);
  if (code != 0 || !array.hasMatch() || !merge.hasMatch()) {
    const QString why = lastLine(err).isEmpty() ? lastLine(text) : lastLine(err);
    return finish(false, QString("kwb slurm submit on %1 did not submit the job (exit %2): %3")
                             .arg(host())
                             .arg(code)
                             .arg(why.isEmpty() ? QString("it printed no job ids") : why));
  }
  m_arrayJob = array.captured(1);
  m_mergeJob = merge.captured(1);
  m_phase = Phase::kWatching;
  m_quietSince.start();
  emit logLine("info", QString("Slurm on %1 took array job %2 (%3 shards) and merge job %4, in %5.")
                           .arg(host(), m_arrayJob)
                           .arg(m_target.shards)
                           .arg(m_mergeJob, m_folder));
  emit submitted(m_arrayJob, m_mergeJob);
  poll();
}

void SlurmRun::poll() {
  if (m_phase != Phase::kWatching) return;
  call({m_target.login.remoteKwb(), "slurm", "status", m_folder, "--json"}, kStatusMs,
       &SlurmRun::onStatus);
}

void SlurmRun::onStatus(int code, const QByteArray& out, const QString& err,
                        const QString& failure) {
  if (m_phase != Phase::kWatching) return;
  // 0: every shard has its document; 1: not yet. Anything else is kwb's own refusal.
  if (!failure.isEmpty() || (code != 0 && code != 1))
    return callFailed(!failure.isEmpty() ? failure
                                         : QString("kwb slurm status on %1 failed (exit %2): %3")
                                               .arg(host())
                                               .arg(code)
                                               .arg(lastLine(err)));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(out.toStdString());
    m_mergedPath = QString::fromStdString(j.at("merged").get<std::string>());
    m_mergedWritten = !m_mergedPath.isEmpty();
    m_mergeState = s(j, "mergeState");  // absent from a kwb before 2026-11-27: never waited for
    m_mergeReason = s(j, "mergeReason");
    for (const auto& sh : j.at("shards")) {
      const int i = sh.at("index").get<int>();
      if (i < 1 || i > m_shards.size()) continue;
      SlurmShardState& st = m_shards[i - 1];
      st.slurm = s(sh, "slurm");
      st.result = s(sh, "result");
      st.reason = s(sh, "reason");
      st.pendingReason = s(sh, "pendingReason");
      const QString file = st.result == "document" ? s(sh, "document")
                           : st.result == "failed" && !m_collector->hasDocument(i)
                               ? s(sh, "failureRecord")
                               : QString();
      const bool queued = std::any_of(m_fetches.begin(), m_fetches.end(),
                                      [&](const Fetch& f) { return f.path == file; });
      if (!file.isEmpty() && !m_fetched.contains(file) && !queued) m_fetches << Fetch{i, file};
    }
  } catch (const std::exception& e) {
    return callFailed(
        QString("kwb slurm status on %1 printed something unreadable: %2").arg(host(), e.what()));
  }
  m_failuresInARow = 0;
  const bool wasQuiet = m_quiet;
  m_quiet = quiet();
  if (!m_quiet || !wasQuiet) m_quietSince.restart();  // the wait starts at its first quiet poll
  emit shardsChanged();
  fetchNext();
}

void SlurmRun::fetchNext() {
  if (m_phase != Phase::kWatching) return;
  if (m_fetches.isEmpty()) return checkDone();
  m_fetching = m_fetches.takeFirst();
  call({"cat", m_fetching.path}, kFetchMs, &SlurmRun::onFetched);
}

void SlurmRun::onFetched(int code, const QByteArray& out, const QString& err,
                         const QString& failure) {
  if (m_phase != Phase::kWatching) return;
  const Fetch f = m_fetching;
  const QString shard = QString("shard %1/%2").arg(f.index).arg(m_target.shards);
  if (!failure.isEmpty() || code != 0) {
    m_fetches.prepend(f);  // tried again after the next poll
    return callFailed(failure.isEmpty() ? QString("Could not read %1's file %2 on %3: %4")
                                              .arg(shard, f.path, host(), lastLine(err))
                                        : failure);
  }
  m_fetched.insert(f.path);
  SlurmShardState& st = m_shards[f.index - 1];
  const std::string why =
      m_collector->addText(out.toStdString(), (host() + ":" + f.path).toStdString());
  if (!why.empty()) {
    st.refused = QString::fromStdString(why);
    emit logLine("error", QString("%1 of Slurm job %2 on %3 was not merged: %4")
                              .arg(shard, m_arrayJob, host(), st.refused));
  } else {
    st.merged = true;
    st.refused.clear();
    emit logLine(st.result == "failed" ? "warning" : "info",
                 QString("%1 of Slurm job %2 %3.")
                     .arg(shard, m_arrayJob,
                          st.result == "failed" ? "failed: " + st.reason : QString("is in")));
    emit documentChanged(document());
  }
  emit shardsChanged();
  fetchNext();
}

void SlurmRun::callFailed(const QString& why) {
  ++m_failuresInARow;
  emit logLine("warning", why);
  if (m_failuresInARow >= kFailuresToGiveUp)
    return finish(false, QString("%1 Stopped watching Slurm job %2 after %3 failed calls; the job "
                                 "goes on on the cluster: `kwb slurm status %4` on %5 says how "
                                 "it ends. The shards that arrived are kept.")
                             .arg(why, m_arrayJob)
                             .arg(kFailuresToGiveUp)
                             .arg(m_folder, host()));
  m_poll.start();
}

bool SlurmRun::quiet() const {
  bool left = false;
  for (const SlurmShardState& st : m_shards) {
    if (st.merged || !st.refused.isEmpty() || st.result != "none") continue;  // in, or on its way
    left = true;
    if (moving(st.slurm)) return false;
  }
  return left || !moving(m_mergeState);
}

QString SlurmRun::pendingReasons() const {
  QStringList reasons;
  for (const SlurmShardState& st : m_shards)
    if (!st.merged && st.refused.isEmpty() && !st.pendingReason.isEmpty() &&
        !reasons.contains(st.pendingReason))
      reasons << st.pendingReason;
  if (reasons.isEmpty() && !m_mergeReason.isEmpty())
    reasons << "merge job " + m_mergeJob + ": " + m_mergeReason;
  return reasons.isEmpty() ? QString("Slurm gives no reason") : "squeue: " + reasons.join(", ");
}

QString SlurmRun::queueText() const {
  if (m_phase != Phase::kWatching || !m_quiet) return {};
  return QString("Queued for %1 with nothing running (%2)")
      .arg(duration(m_quietSince.elapsed()), pendingReasons());
}

void SlurmRun::waitOrGiveUp() {
  const qint64 patience = m_patienceMs > 0 ? m_patienceMs : qint64(m_target.patienceMin) * 60000;
  if (!m_quiet || m_quietSince.elapsed() < patience) return m_poll.start();
  finish(false, QString("Stopped watching Slurm job %1 on %2: it has waited %3 in the queue with "
                        "nothing running (%4). The job is left queued: `scancel %1 %5` on %2 "
                        "cancels it, and `kwb slurm status %6` there shows how it goes (`kwb "
                        "slurm resume %6` runs what did not). The shards that arrived are kept.")
                    .arg(m_arrayJob, host(), duration(m_quietSince.elapsed()), pendingReasons(),
                         m_mergeJob, m_folder));
}

QString SlurmRun::outcome(bool& ok) const {
  int merged = 0;
  QStringList notIn;
  for (const SlurmShardState& st : m_shards) {
    if (st.merged && st.result == "document") {
      ++merged;
      continue;
    }
    notIn << QString("shard %1/%2 %3").arg(st.index).arg(m_target.shards).arg(st.text());
  }
  ok = notIn.isEmpty();
  const QString head = QString("Slurm job %1 on %2: %3 of %4 shards merged, %5 cases")
                           .arg(m_arrayJob, host())
                           .arg(merged)
                           .arg(m_target.shards)
                           .arg(document().cases.size());
  return ok ? head + "." : head + "; " + notIn.join("; ") + ".";
}

void SlurmRun::checkDone() {
  const bool allIn = std::all_of(m_shards.begin(), m_shards.end(), [](const SlurmShardState& st) {
    return st.merged || !st.refused.isEmpty();
  });
  if (!allIn && !m_mergedWritten) return waitOrGiveUp();
  // Every shard is in: wait for the merge job while it is queued or running, then compare.
  if (!m_mergedWritten && (m_mergeState.startsWith("PENDING") || moving(m_mergeState)))
    return waitOrGiveUp();
  if (m_mergedWritten) return call({"cat", m_mergedPath}, kFetchMs, &SlurmRun::onMergedFetched);
  bool ok = false;
  const QString text = outcome(ok);
  finish(ok, text + QString(" Merge job %1 wrote no merged.json to compare with; the GUI's merge "
                            "is the result.")
                        .arg(m_mergeJob));
}

void SlurmRun::onMergedFetched(int code, const QByteArray& out, const QString& err,
                               const QString& failure) {
  if (m_phase != Phase::kWatching) return;
  bool ok = false;
  const QString text = outcome(ok);
  const QString file = host() + ":" + m_mergedPath;
  QString why;
  if (!failure.isEmpty() || code != 0) {
    why = "could not be read: " + (failure.isEmpty() ? lastLine(err) : failure);
  } else {
    try {
      RunDocument theirs = parseDocument(out.toStdString(), file.toStdString());
      why = mergeDisagreement(document(), theirs);
      if (why.isEmpty())
        m_result = std::move(theirs);
      else
        why = "disagrees with the GUI's merge: " + why;
    } catch (const std::exception& e) {  // InputError; anything else is no reason to crash
      why = QString("could not be read: ") + e.what();
    }
  }
  if (why.isEmpty())
    return finish(ok, text + QString(" The merge job's %1 agrees with the GUI's merge and is the "
                                     "open result.")
                                 .arg(file));
  finish(false,
         text + QString(" The merge job's %1 %2; the GUI's merge is the result.").arg(file, why));
}

void SlurmRun::cancel() {
  if (m_phase == Phase::kSubmitting) {
    if (m_call) m_call->abort();
    return finish(false, QString("Cancelled while submitting to %1: if sbatch took the job, "
                                 "`squeue` there shows it and `scancel` ends it.")
                             .arg(m_target.label()));
  }
  if (m_phase != Phase::kWatching) return;
  if (m_call) m_call->abort();
  m_poll.stop();
  m_phase = Phase::kCancelling;
  emit logLine(
      "info",
      QString("Cancelling Slurm jobs %1 and %2 on %3.").arg(m_arrayJob, m_mergeJob, host()));
  call({"scancel", m_arrayJob, m_mergeJob}, kCancelMs, &SlurmRun::onCancelled);
}

void SlurmRun::onCancelled(int code, const QByteArray&, const QString& err,
                           const QString& failure) {
  const QString how = !failure.isEmpty() ? " but " + failure
                      : code != 0
                          ? QString(" but scancel said (exit %1): %2").arg(code).arg(lastLine(err))
                          : QString(" with scancel");
  finish(false, QString("Cancelled Slurm jobs %1 and %2 on %3%4. The shards that arrived are "
                        "kept; the others are holes.")
                    .arg(m_arrayJob, m_mergeJob, host(), how));
}

void SlurmRun::finish(bool ok, const QString& message) {
  m_poll.stop();
  m_phase = Phase::kIdle;
  emit logLine(ok ? "info" : "error", message);
  emit finished(m_result ? *m_result : document(), ok, message);
}

}  // namespace kwb::gui
