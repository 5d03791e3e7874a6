// SPDX-License-Identifier: Apache-2.0
// MainWindow: runs on a Slurm cluster through its login node (docs/SCALE_OUT.md, "The GUI's
// Slurm target"). SlurmRun submits, watches and merges; the pages show the merge so far, its
// missing shards as holes, and the run panel each shard's state.
#include "app/main_window.h"
#include "pages/log_page.h"
#include "panels/run_on_combo.h"
#include "panels/run_panel.h"

namespace kwb::gui {
namespace {

int shardsIn(const SlurmRun& run) {
  int n = 0;
  for (const SlurmShardState& s : run.shards()) n += s.merged || !s.refused.isEmpty();
  return n;
}

QString jobSource(const SlurmRun& run) {
  return QString("Slurm job %1 on %2 (%3 of %4 shards in)")
      .arg(run.arrayJob(), run.target().login.label())
      .arg(shardsIn(run))
      .arg(run.target().shards);
}

}  // namespace

void MainWindow::connectSlurm() {
  connect(m_slurm, &SlurmRun::logLine, m_log, &LogPage::append);
  connect(m_slurm, &SlurmRun::submitted, this, [this](const QString& array, const QString&) {
    m_run->setStatus(QString("Submitted as Slurm job %1; waiting for its shards…\n%2")
                         .arg(array, m_slurm->shardSummary()));
  });
  connect(m_slurm, &SlurmRun::shardsChanged, this, [this] {
    m_run->setProgress(shardsIn(*m_slurm), m_slurm->target().shards, -1);
    if (!m_slurm->arrayJob().isEmpty()) m_run->setStatus(m_slurm->shardSummary());
  });
  // Each shard that arrives: the merge so far, the shards not in yet as holes.
  connect(m_slurm, &SlurmRun::documentChanged, this,
          [this](const RunDocument& doc) { m_model->setDocument(doc, jobSource(*m_slurm)); });
  connect(m_slurm, &SlurmRun::finished, this,
          [this](const RunDocument& doc, bool ok, const QString& message) {
            // The merge job's merged.json when it agreed with the GUI's merge, else that merge.
            const QString file = m_slurm->mergedFile();
            if (doc.merged)
              m_model->setDocument(doc, file.isEmpty() ? jobSource(*m_slurm)
                                                       : file + " (" + jobSource(*m_slurm) + ")");
            m_run->setRunning(false);
            m_run->setStatus(message + "\n" + m_slurm->shardSummary(), !ok);
            if (!ok) showMessage(message, true);
          });
}

bool MainWindow::runOnCluster(const RunRequest& r) {
  const auto cluster = m_runOn->currentCluster();
  if (!cluster) return false;
  if (!userKernelSource().isEmpty() &&
      r.kernels.contains(UserKernelWatcher::caseId(userKernelSource()))) {
    m_run->setStatus(
        "A user kernel runs on this machine or a GPU server, not on a Slurm "
        "cluster: choose another Run on entry, or uncheck it.",
        true);
    return true;
  }
  m_run->setRunning(true);
  m_run->setStatus("Submitting to the " + cluster->label() + "…");
  showMessage({}, false);
  m_slurm->start(*cluster, r);
  return true;
}

}  // namespace kwb::gui
