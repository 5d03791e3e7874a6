// SPDX-License-Identifier: Apache-2.0
#include "panels/shape_list_widget.h"

#include <QHBoxLayout>
#include <QVBoxLayout>

#include "kwb/error.h"
#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/run_request.h"

namespace kwb::gui {

ShapeListWidget::ShapeListWidget(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  m_preset = new QComboBox(this);
  m_preset->setToolTip("Suite from resources/presets");
  layout->addWidget(m_preset);
  m_list = new QListWidget(this);
  m_list->setFlow(QListView::LeftToRight);
  m_list->setWrapping(true);
  m_list->setResizeMode(QListView::Adjust);
  m_list->setMaximumHeight(90);
  layout->addWidget(m_list);
  auto* row = new QHBoxLayout;
  m_edit = new QLineEdit(this);
  m_edit->setPlaceholderText("M×N×K, e.g. 256x384x640, or 2^28 f32");
  m_add = new QPushButton("+", this);
  m_add->setToolTip("Add this shape");
  m_add->setEnabled(false);
  m_add->setMaximumWidth(32);
  row->addWidget(m_edit, 1);
  row->addWidget(m_add);
  layout->addLayout(row);
  m_message = new QLabel(this);
  m_message->setWordWrap(true);
  m_message->setStyleSheet("color: #b00020;");
  m_message->hide();
  layout->addWidget(m_message);

  connect(m_edit, &QLineEdit::textChanged, this, [this](const QString& text) {
    const QString problem = text.trimmed().isEmpty() ? QString() : validate(text);
    m_add->setEnabled(!text.trimmed().isEmpty() && problem.isEmpty());
    m_edit->setStyleSheet(problem.isEmpty() ? QString() : "border: 1px solid #b00020;");
    m_message->setText(problem);
    m_message->setVisible(!problem.isEmpty());
  });
  auto add = [this] {
    if (!m_add->isEnabled()) return;
    addShape(m_edit->text().trimmed(), true);
    m_edit->clear();
  };
  connect(m_add, &QPushButton::clicked, this, add);
  connect(m_edit, &QLineEdit::returnPressed, this, add);
  connect(m_preset, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i < 0 || i >= m_presets.size()) return;
    m_list->clear();
    m_shapes.clear();
    m_custom = false;
    // One signal for the whole list, not one per shape: a preset of 20k shapes stays quick.
    m_list->setUpdatesEnabled(false);
    const Suite& suite = m_presets[i];
    for (const Shape& s : suite.shapes) insertShape(s, false);
    for (const std::int64_t count : suite.counts)  // a 1-D family's sizes, in every type
      for (const ElementType t : suite.types)
        insertShape(vectorKey(suite.family, count, std::string(toString(t))), false);
    m_list->setUpdatesEnabled(true);
    emit selectionChanged();
  });
  connect(m_list, &QListWidget::itemChanged, this, &ShapeListWidget::selectionChanged);
}

QString ShapeListWidget::validate(const QString& text) {
  if (parseVectorSize(text)) return {};  // "2^28 f32": a size of the 1-D families
  try {
    const Shape s = parseShape(text.trimmed().toStdString());
    if (s.m <= 0 || s.n <= 0 || s.k <= 0) return "Every dimension must be positive.";
    return {};
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
}

void ShapeListWidget::setPresets(const QList<Suite>& presets) {
  m_presets = presets;
  m_preset->clear();
  for (const Suite& p : presets) {
    m_preset->addItem(QString::fromStdString(p.name));
    m_preset->setItemData(m_preset->count() - 1, QString::fromStdString(p.description),
                          Qt::ToolTipRole);
  }
}

void ShapeListWidget::choosePreset(const QString& name) {
  const int i = m_preset->findText(name);
  if (i >= 0) m_preset->setCurrentIndex(i);
}

QString ShapeListWidget::presetName() const { return m_preset->currentText(); }

QString ShapeListWidget::suiteName() const {
  const int i = m_preset->currentIndex();
  if (i < 0 || i >= m_presets.size() || m_custom) return {};
  return QString::fromStdString(m_presets[i].name);
}

void ShapeListWidget::addShape(const QString& text, bool custom) {
  if (insertShape(text, custom)) emit selectionChanged();
}

bool ShapeListWidget::insertShape(const QString& text, bool custom) {
  if (const auto size = parseVectorSize(text)) {
    // A typed size joins the 1-D family of the sizes listed, if they name one.
    QString family;
    for (const Shape& s : m_shapes)
      if (isVectorKey(s) && s.k < 0) family = keyProblem(s);
    return insertShape(vectorKey(family.toStdString(), size->m, keyType(*size).toStdString()),
                       custom);
  }
  try {
    return insertShape(parseShape(text.trimmed().toStdString()), custom);  // parsed here, once
  } catch (const InputError&) {
    return false;
  }
}

bool ShapeListWidget::insertShape(const Shape& s, bool custom) {
  // Keyed as the engine writes sizes ("512x512x512", "2^28 f32"), by family for 1-D sizes.
  const QString key = isVectorKey(s) ? keyProblem(s) + " " + sizeKeyText(s, false)
                                     : QString::fromStdString(toString(s));
  if (m_shapes.contains(key)) return false;
  m_shapes.insert(key, s);
  m_custom = m_custom || custom;
  auto* item = new QListWidgetItem(sizeKeyText(s), m_list);
  item->setData(Qt::UserRole, key);
  item->setData(Qt::UserRole + 1, custom);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
  item->setCheckState(Qt::Checked);
  item->setToolTip(key + (custom ? " (custom)" : ""));
  return true;
}

QList<Shape> ShapeListWidget::checkedShapes() const {
  QList<Shape> out;
  for (int i = 0; i < m_list->count(); ++i)
    if (m_list->item(i)->checkState() == Qt::Checked)
      out << m_shapes.value(m_list->item(i)->data(Qt::UserRole).toString());
  return out;
}

QStringList ShapeListWidget::customShapes() const {
  QStringList out;
  for (int i = 0; i < m_list->count(); ++i)
    if (m_list->item(i)->data(Qt::UserRole + 1).toBool())  // as typed: "96x32x16", "2^24 i32"
      out << sizeKeyText(m_shapes.value(m_list->item(i)->data(Qt::UserRole).toString()), false);
  return out;
}

}  // namespace kwb::gui
