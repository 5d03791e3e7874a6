// SPDX-License-Identifier: Apache-2.0
#include "panels/run_on_combo.h"

#include <QComboBox>
#include <algorithm>
#include <QHBoxLayout>
#include <QMenu>
#include <QSettings>
#include <QSignalBlocker>
#include <QToolButton>

#include "panels/host_dialog.h"
#include "panels/slurm_dialog.h"

namespace kwb::gui {

RunOnCombo::RunOnCombo(bool persist, QWidget* parent) : QWidget(parent), m_persist(persist) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  m_combo = new QComboBox(this);
  m_combo->setToolTip("Where the engine runs: this machine, or kwb on a GPU server over ssh");
  m_menuButton = new QToolButton(this);
  m_menuButton->setText("…");
  m_menuButton->setToolTip("Add, edit or remove GPU servers");
  m_menuButton->setPopupMode(QToolButton::InstantPopup);
  auto* menu = new QMenu(m_menuButton);
  menu->addAction("Add a GPU server…", this, [this] {
    HostDialog dialog({}, this);
    if (dialog.exec() == QDialog::Accepted) select(dialog.location());
  });
  menu->addAction("Add a Slurm cluster…", this, [this] {
    SlurmDialog dialog({}, this);
    if (dialog.exec() == QDialog::Accepted) selectCluster(dialog.target());
  });
  QAction* edit = menu->addAction("Edit this entry…", this, &RunOnCombo::editCurrent);
  QAction* remove = menu->addAction("Remove this entry", this, &RunOnCombo::removeCurrent);
  connect(menu, &QMenu::aboutToShow, this, [this, edit, remove] {
    edit->setEnabled(!current().isLocal());
    remove->setEnabled(!current().isLocal());
  });
  m_menuButton->setMenu(menu);
  layout->addWidget(m_combo, 1);
  layout->addWidget(m_menuButton);
  QString chosen = "local";
  if (m_persist) {
    QSettings s;
    m_hosts = loadLocations(s);
    m_clusters = loadSlurmTargets(s);
    chosen = loadRunOn(s);
  }
  rebuild(chosen);
  connect(m_combo, &QComboBox::currentIndexChanged, this, [this] {
    store();
    emit locationChanged(current());
  });
}

EngineLocation RunOnCombo::current() const {
  const int i = m_combo->currentIndex() - 1;  // entry 0 is "local"
  if (const auto cluster = currentCluster()) return cluster->login;
  return i >= 0 && i < m_hosts.size() ? m_hosts[i] : EngineLocation{};
}

std::optional<SlurmTarget> RunOnCombo::currentCluster() const {
  const qsizetype i = m_combo->currentIndex() - 1 - m_hosts.size();
  if (i < 0 || i >= m_clusters.size()) return std::nullopt;
  return m_clusters[i];
}

QString RunOnCombo::selectCluster(const SlurmTarget& target) {
  if (QString error = validateSlurmTarget(target); !error.isEmpty()) return error;
  auto it = std::find_if(m_clusters.begin(), m_clusters.end(),
                         [&](const SlurmTarget& t) { return t.login.host == target.login.host; });
  if (it == m_clusters.end())
    m_clusters << target;
  else
    *it = target;
  rebuild(target.label());
  store();
  emit locationChanged(current());
  return {};
}

QString RunOnCombo::select(const EngineLocation& where) {
  if (QString error = validateLocation(where); !error.isEmpty()) return error;
  if (!where.isLocal()) {
    auto it = std::find_if(m_hosts.begin(), m_hosts.end(),
                           [&](const EngineLocation& l) { return l.host == where.host; });
    if (it == m_hosts.end())
      m_hosts << where;
    else
      *it = where;
  }
  const EngineLocation before = current();
  rebuild(where.label());
  store();
  if (!(before == current())) emit locationChanged(current());
  return {};
}

void RunOnCombo::rebuild(const QString& label) {
  const QSignalBlocker quiet(m_combo);
  m_combo->clear();
  m_combo->addItem("local (this machine)");
  int chosen = 0;
  for (int i = 0; i < m_hosts.size(); ++i) {
    m_combo->addItem(m_hosts[i].host);
    if (m_hosts[i].host == label) chosen = i + 1;
  }
  for (int i = 0; i < m_clusters.size(); ++i) {
    m_combo->addItem(m_clusters[i].label());
    if (m_clusters[i].label() == label) chosen = int(m_hosts.size()) + i + 1;
  }
  m_combo->setCurrentIndex(chosen);
}

void RunOnCombo::editCurrent() {
  if (const auto cluster = currentCluster()) {
    SlurmDialog dialog(*cluster, this);
    if (dialog.exec() != QDialog::Accepted) return;
    m_clusters.removeIf([&](const SlurmTarget& t) { return t.login.host == cluster->login.host; });
    selectCluster(dialog.target());
    return;
  }
  const int i = m_combo->currentIndex() - 1;
  if (i < 0 || i >= m_hosts.size()) return;
  HostDialog dialog(m_hosts[i], this);
  if (dialog.exec() != QDialog::Accepted) return;
  const EngineLocation edited = dialog.location();
  m_hosts[i] = edited;
  for (int j = int(m_hosts.size()) - 1; j >= 0; --j)  // a rename onto another saved host
    if (j != i && m_hosts[j].host == edited.host) m_hosts.removeAt(j);
  rebuild(edited.host);
  store();
  emit locationChanged(current());
}

void RunOnCombo::removeCurrent() {
  if (const auto cluster = currentCluster()) {
    m_clusters.removeIf([&](const SlurmTarget& t) { return t.label() == cluster->label(); });
    rebuild("local");
    store();
    emit locationChanged(current());
    return;
  }
  const EngineLocation was = current();
  if (was.isLocal()) return;
  m_hosts.removeIf([&](const EngineLocation& l) { return l.host == was.host; });
  rebuild("local");
  store();
  emit locationChanged(current());
}

void RunOnCombo::store() const {
  if (!m_persist) return;
  QSettings s;
  saveLocations(s, m_hosts);
  saveSlurmTargets(s, m_clusters);
  const auto cluster = currentCluster();
  saveRunOn(s, cluster ? cluster->label() : current().label());
}

}  // namespace kwb::gui
