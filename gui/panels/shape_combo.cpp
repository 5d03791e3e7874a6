// SPDX-License-Identifier: Apache-2.0
#include "panels/shape_combo.h"

#include <QHash>
#include <QSignalBlocker>

#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/run_request.h"

namespace kwb::gui {

ShapeCombo::ShapeCombo(QWidget* parent) : QComboBox(parent) {
  setSizeAdjustPolicy(QComboBox::AdjustToContents);
}

void ShapeCombo::setShapes(const QList<CaseSize>& shapes) {
  if (shapes == m_shapes) return;
  const std::optional<CaseSize> previous = currentShape();
  const QSignalBlocker block(this);
  m_shapes = shapes;
  clear();
  // A 1-D size run by two families ("2^28 f32" of reduce and of scan) names its family.
  // Counted in a hash: counting each text in the list grew with the square of the sizes.
  QStringList texts;
  QHash<QString, int> count;
  for (const CaseSize& s : shapes) ++count[texts.emplace_back(sizeName(s))];
  QStringList items;
  for (int i = 0; i < shapes.size(); ++i)
    items << (count.value(texts[i]) > 1 ? QString::fromStdString(shapes[i].family) + " " + texts[i]
                                        : texts[i]);
  addItems(items);
  int index = previous ? int(shapes.indexOf(*previous)) : -1;
  if (index < 0) index = int(shapes.indexOf(CaseSize(Shape{1024, 1024, 1024})));
  // Else the largest size (the first of equals): where a memory-bound kernel saturates the
  // bus and its figures mean most; the smallest 1-D sizes measure launch latency.
  if (index < 0 && !shapes.isEmpty()) {
    index = 0;
    for (int j = 1; j < shapes.size(); ++j)
      if (scalingValue(shapes[j]) > scalingValue(shapes[index])) index = j;
  }
  setCurrentIndex(index);
}

std::optional<CaseSize> ShapeCombo::currentShape() const {
  const int i = currentIndex();
  if (i < 0 || i >= m_shapes.size()) return std::nullopt;
  return m_shapes[i];
}

void ShapeCombo::selectShape(const CaseSize& s) {
  const int i = int(m_shapes.indexOf(s));
  if (i >= 0) setCurrentIndex(i);
}

}  // namespace kwb::gui
