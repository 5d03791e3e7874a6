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
#include "kwb/case_size.h"
#include "kwb/family_info.h"

namespace kwb::gui {

// Sizes to run: a preset suite fills the list; a size typed by hand (M×N×K, "2^28 f32") is
// parsed as typed with the engine's own rules (kwb::parseSize against its family's
// declaration).
class ShapeListWidget : public QWidget {
  Q_OBJECT
 public:
  explicit ShapeListWidget(QWidget* parent = nullptr);
  void setPresets(const QList<Suite>& presets);
  // Appends the presets whose names are not listed yet (learned later: presets of the engine's
  // families), leaving the chosen preset and the list as they are; returns how many.
  int addPresets(const QList<Suite>& presets);
  QStringList presetNames() const;
  void choosePreset(const QString& name);
  QString presetName() const;
  // The chosen preset's name while the list holds its shapes untouched by hand; else empty.
  QString suiteName() const;
  QList<CaseSize> checkedShapes() const;
  QStringList customShapes() const;  // added by hand, for the settings
  void addShape(const QString& text, bool custom);
  // The families a size typed by hand may be of (their declarations, from the documents open
  // and the engine's kernel list): added to the built-in gemm, reduce and scan, by id.
  void addFamilies(const std::vector<FamilyInfo>& families);
  // The families of the checked kernels: a typed size is first read as theirs when they name
  // one family.
  void setKernelFamilies(const QStringList& families);
  // Validates `text` against GEMM and the built-in families; empty when it is a valid size.
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
  // Every size in m_list by its kwb::sizeKey, parsed once: duplicates found in O(1).
  QHash<QString, CaseSize> m_shapes;
  QList<FamilyInfo> m_families;  // gemm first
  QStringList m_kernelFamilies;

  // Adds one size unless it is invalid or already listed; true when added. No signal.
  bool insertShape(const QString& text, bool custom);
  bool insertShape(const CaseSize& s, bool custom);
  // The family a typed size is read as first: the checked kernels' one family, else the one
  // family of the sizes listed; empty when neither names one.
  QString contextFamily() const;
};

}  // namespace kwb::gui
