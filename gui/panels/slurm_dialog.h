// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QDialog>

#include "engine/slurm_target.h"

class QLabel;
class QLineEdit;
class QSpinBox;

namespace kwb::gui {

// Edits one Slurm cluster of the Run on list (slurm_target.h): its login node and kwb there,
// the shards, partition, time limit, GPUs per task, the results folder on the cluster and how
// long to watch a job that stays queued. OK
// stays refused while validateSlurmTarget() objects.
class SlurmDialog : public QDialog {
  Q_OBJECT
 public:
  explicit SlurmDialog(const SlurmTarget& target, QWidget* parent = nullptr);
  SlurmTarget target() const;

  void accept() override;

 private:
  QLineEdit* m_host;
  QLineEdit* m_kwbPath;
  QLineEdit* m_options;
  QSpinBox* m_shards;
  QLineEdit* m_partition;
  QLineEdit* m_time;
  QSpinBox* m_gpus;
  QLineEdit* m_dir;
  QSpinBox* m_patience;
  QLabel* m_error;
};

}  // namespace kwb::gui
