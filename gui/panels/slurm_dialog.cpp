// SPDX-License-Identifier: Apache-2.0
#include "panels/slurm_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSpinBox>

namespace kwb::gui {

SlurmDialog::SlurmDialog(const SlurmTarget& t, QWidget* parent) : QDialog(parent) {
  setWindowTitle(t.login.isLocal() ? "Add a Slurm cluster" : t.label());
  auto* form = new QFormLayout(this);
  m_host = new QLineEdit(t.login.host, this);
  m_host->setPlaceholderText("user@login.cluster, or a Host of ~/.ssh/config");
  m_kwbPath = new QLineEdit(t.login.kwbPath, this);
  m_kwbPath->setPlaceholderText("kwb (on the login node's PATH; the nodes run the same path)");
  QStringList shown;
  for (const QString& o : t.login.sshOptions) shown << (o.contains(' ') ? '"' + o + '"' : o);
  m_options = new QLineEdit(shown.join(' '), this);
  m_options->setPlaceholderText("e.g. -p 2222");
  m_shards = new QSpinBox(this);
  m_shards->setRange(1, 10000);
  m_shards->setValue(t.shards);
  m_partition = new QLineEdit(t.partition, this);
  m_partition->setPlaceholderText("the cluster's default");
  m_time = new QLineEdit(t.time, this);
  m_time->setPlaceholderText("the partition's default, e.g. 01:00:00");
  m_gpus = new QSpinBox(this);
  m_gpus->setRange(0, 16);
  m_gpus->setValue(t.gpusPerTask);
  m_gpus->setToolTip("0 asks for no GPU (a cluster without GPUs: every shard then fails)");
  m_dir = new QLineEdit(t.resultsDir, this);
  m_dir->setToolTip(
      "A folder on a file system the nodes share; each run writes a new folder in it");
  m_patience = new QSpinBox(this);
  m_patience->setRange(1, kMaxPatienceMin);
  m_patience->setSuffix(" min");
  m_patience->setValue(t.patienceMin);
  m_patience->setToolTip(
      "How long to watch a job that stays queued with nothing running; then the GUI stops "
      "watching and leaves the job queued (kwb slurm status there shows it later)");
  m_error = new QLabel(this);
  m_error->setWordWrap(true);
  m_error->setStyleSheet("color: #b00020;");
  form->addRow("Login node:", m_host);
  form->addRow("kwb on the cluster:", m_kwbPath);
  form->addRow("More ssh options:", m_options);
  form->addRow("Shards (array tasks):", m_shards);
  form->addRow("Partition:", m_partition);
  form->addRow("Time limit per shard:", m_time);
  form->addRow("GPUs per shard:", m_gpus);
  form->addRow("Results folder there:", m_dir);
  form->addRow("Stop watching a queued job after:", m_patience);
  form->addRow(m_error);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &SlurmDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &SlurmDialog::reject);
  form->addRow(buttons);
}

SlurmTarget SlurmDialog::target() const {
  SlurmTarget t;
  t.login.host = m_host->text().trimmed();
  t.login.kwbPath = m_kwbPath->text().trimmed();
  t.login.sshOptions = QProcess::splitCommand(m_options->text());
  t.shards = m_shards->value();
  t.partition = m_partition->text().trimmed();
  t.time = m_time->text().trimmed();
  t.gpusPerTask = m_gpus->value();
  t.resultsDir = m_dir->text().trimmed();
  t.patienceMin = m_patience->value();
  return t;
}

void SlurmDialog::accept() {
  if (const QString error = validateSlurmTarget(target()); !error.isEmpty()) {
    m_error->setText(error);
    return;
  }
  QDialog::accept();
}

}  // namespace kwb::gui
