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
  QAction* edit = menu->addAction("Edit this server…", this, &RunOnCombo::editCurrent);
  QAction* remove = menu->addAction("Remove this server", this, &RunOnCombo::removeCurrent);
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
  return i >= 0 && i < m_hosts.size() ? m_hosts[i] : EngineLocation{};
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
  m_combo->setCurrentIndex(chosen);
}

void RunOnCombo::editCurrent() {
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
  saveRunOn(s, current().label());
}

}  // namespace kwb::gui
