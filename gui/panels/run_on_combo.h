// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QWidget>

#include <optional>

#include "engine/engine_location.h"
#include "engine/slurm_target.h"

class QComboBox;
class QToolButton;

namespace kwb::gui {

// "Run on": this machine, one of the saved GPU servers (engine_location.h) or a Slurm cluster
// through its login node (slurm_target.h), with a menu to add, edit and remove them. With
// `persist`, the lists and the choice live in QSettings.
class RunOnCombo : public QWidget {
  Q_OBJECT
 public:
  explicit RunOnCombo(bool persist, QWidget* parent = nullptr);

  // The engine's location: local, a GPU server, or a Slurm cluster's login node.
  EngineLocation current() const;
  // The Slurm cluster chosen; none when the runs go to this machine or a GPU server.
  std::optional<SlurmTarget> currentCluster() const;
  QList<EngineLocation> hosts() const { return m_hosts; }
  QList<SlurmTarget> clusters() const { return m_clusters; }
  // Chooses `target`, adding it (or replacing the entry of its login node). Returns an empty
  // string, or validateSlurmTarget()'s sentence (nothing changes then).
  QString selectCluster(const SlurmTarget& target);
  // Chooses `where` ("local" or a host), adding it to the list when it is new. Returns an
  // empty string, or validateLocation()'s sentence (nothing changes then).
  QString select(const EngineLocation& where);
  QComboBox* combo() const { return m_combo; }

 signals:
  void locationChanged(const kwb::gui::EngineLocation& where);

 private:
  void rebuild(const QString& label);
  void editCurrent();
  void removeCurrent();
  void store() const;

  bool m_persist;
  QList<EngineLocation> m_hosts;
  QList<SlurmTarget> m_clusters;  // after the hosts in the list
  QComboBox* m_combo;
  QToolButton* m_menuButton;
};

}  // namespace kwb::gui
