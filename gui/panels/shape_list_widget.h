// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QHash>
#include <QWidget>

#include "kwb/preset.h"
#include "kwb/shape.h"

namespace kwb::gui {

// Shapes to run: a preset suite fills the list; custom M×N×K are validated as typed with
// the engine's own rules (kwb::parseShape).
class ShapeListWidget : public QWidget {
  Q_OBJECT
 public:
  explicit ShapeListWidget(QWidget* parent = nullptr);
  void setPresets(const QList<Suite>& presets);
  void choosePreset(const QString& name);
  QString presetName() const;
  // The chosen preset's name while the list holds its shapes untouched by hand; else empty.
  QString suiteName() const;
  QList<Shape> checkedShapes() const;
  QStringList customShapes() const;  // added by hand, for the settings
  void addShape(const QString& text, bool custom);
  // Validates `text`; the message is empty when it is a valid shape.
  static QString validate(const QString& text);
  QLineEdit* editor() const { return m_edit; }
  QPushButton* addButton() const { return m_add; }
  QLabel* messageLabel() const { return m_message; }

 signals:
  void selectionChanged();

 private:
  QComboBox* m_preset;
  QListWidget* m_list;
  QLineEdit* m_edit;
  QPushButton* m_add;
  QLabel* m_message;
  QList<Suite> m_presets;
  bool m_custom = false;  // a shape was added by hand since the preset was chosen
  // Every shape in m_list by its toString key, parsed once: duplicates found in O(1).
  QHash<QString, Shape> m_shapes;

  // Adds one shape unless it is invalid or already listed; true when added. No signal.
  bool insertShape(const QString& text, bool custom);
  bool insertShape(const Shape& s, bool custom);
};

}  // namespace kwb::gui
