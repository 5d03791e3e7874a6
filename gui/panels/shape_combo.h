// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QComboBox>
#include <optional>

#include "kwb/case_size.h"

namespace kwb::gui {

// Picks one shape of the open results; keeps the choice when the list is refreshed.
class ShapeCombo : public QComboBox {
  Q_OBJECT
 public:
  explicit ShapeCombo(QWidget* parent = nullptr);
  // Blocks signals while it refills; prefers 1024³ when nothing was chosen yet.
  void setShapes(const QList<CaseSize>& sizes);
  std::optional<CaseSize> currentShape() const;
  void selectShape(const CaseSize& s);

 private:
  QList<CaseSize> m_shapes;
};

}  // namespace kwb::gui
