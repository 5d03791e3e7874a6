// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include "engine/engine_location.h"
#include "model/run_request.h"

class QSettings;

namespace kwb::gui {

// A Slurm cluster reached through its login node (docs/SCALE_OUT.md, "The GUI's Slurm target"):
// kwb-gui runs `kwb slurm submit` there over ssh, then watches the shard documents arrive.
struct SlurmTarget {
  EngineLocation login;  // the login node: ssh destination, kwb on it, jump host, ssh options
  int shards = 4;
  QString partition;    // empty: the cluster's default
  QString time;         // each task's limit as sbatch --time takes it; empty: the partition's
  int gpusPerTask = 1;  // 0: no GPU request (a cluster without GPUs, tests)
  QString resultsDir = "kwb-runs";  // on the cluster's shared file system; each run a folder in it
  // Minutes the GUI watches a job that stays queued (nothing running, nothing arriving) before it
  // stops watching and leaves the job queued (slurm_run.h).
  int patienceMin = 30;

  // "Slurm cluster via login node user@login": the Run on list's entry and every message's name.
  QString label() const { return "Slurm cluster via login node " + login.host; }
  bool operator==(const SlurmTarget&) const = default;
};

// The longest patience a target may set: a week.
inline constexpr int kMaxPatienceMin = 7 * 24 * 60;

// Empty, or a sentence naming the field and what is wrong with it.
QString validateSlurmTarget(const SlurmTarget& target);
// This run's folder under resultsDir, named by `now` (submit refuses a folder that holds a job);
// a leading "~/" is dropped, since ssh starts in the home folder and would not expand a quoted ~.
QString slurmRunFolder(const SlurmTarget& target, const QDateTime& now);
// `kwb slurm submit ...` for `request`: its kernels and sizes as selection options, the rest of
// kwb run's options after `--`.
QStringList slurmSubmitArguments(const SlurmTarget& target, const RunRequest& request,
                                 const QString& folder);

// The saved clusters (QSettings "engine/slurmTargets").
QList<SlurmTarget> loadSlurmTargets(QSettings& settings);
void saveSlurmTargets(QSettings& settings, const QList<SlurmTarget>& targets);

}  // namespace kwb::gui
