// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QWidget>

#include "engine/engine_location.h"

class QComboBox;
class QToolButton;

namespace kwb::gui {

// "Run on": this machine or one of the saved GPU servers (engine_location.h), with a menu to
// add, edit and remove servers. With `persist`, the list and the choice live in QSettings.
class RunOnCombo : public QWidget {
  Q_OBJECT
 public:
  explicit RunOnCombo(bool persist, QWidget* parent = nullptr);

  EngineLocation current() const;
  QList<EngineLocation> hosts() const { return m_hosts; }
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
  QComboBox* m_combo;
  QToolButton* m_menuButton;
};

}  // namespace kwb::gui
