// SPDX-License-Identifier: Apache-2.0
#include "panels/shape_list_widget.h"

#include <QHBoxLayout>
#include <QVBoxLayout>
#include <algorithm>

#include "kwb/error.h"
#include "kwb/shape.h"
#include "model/case_size.h"

namespace kwb::gui {
namespace {

QList<FamilyInfo> builtInFamilies() {
  QList<FamilyInfo> out;
  for (const char* id : {"gemm", "reduce", "scan"})
    if (const FamilyInfo* f = legacyFamilyInfo(id)) out << *f;
  return out;
}

struct Typed {
  std::optional<CaseSize> size;
  QString error;  // why it is none: the message of the family it most looks like
};

// `text` as a size: of the family `first` when it names one, else of GEMM, else of another
// family, which leaves it of no family yet (Run gives it the checked kernels' family).
Typed parseTyped(const QString& text, const QList<FamilyInfo>& families, const QString& first) {
  const std::string t = text.trimmed().toStdString();
  QString gemmError, otherError;
  const auto tryParse = [&](const FamilyInfo& f) -> std::optional<CaseSize> {
    try {
      return parseSize(f, t);
    } catch (const InputError& e) {
      QString& error = f.id == "gemm" ? gemmError : otherError;
      if (error.isEmpty()) error = QString::fromStdString(e.what());
      return std::nullopt;
    }
  };
  for (const FamilyInfo& f : families)
    if (QString::fromStdString(f.id) == first)
      if (auto s = tryParse(f)) return {s, {}};
  for (const FamilyInfo& f : families) {
    if (QString::fromStdString(f.id) == first) continue;
    if (auto s = tryParse(f)) {
      if (!isGemm(*s)) s->family.clear();
      return {s, {}};
    }
  }
  // "2^24 f64" looks like a 1-D size; "12xx4" like a shape.
  const bool oneD = text.contains('^') || text.trimmed().contains(' ');
  return {std::nullopt, oneD && !otherError.isEmpty() ? otherError : gemmError};
}

}  // namespace

ShapeListWidget::ShapeListWidget(QWidget* parent) : QWidget(parent), m_families(builtInFamilies()) {
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
  // Laid out a batch at a time between events: the window paints before a long list is done.
  m_list->setLayoutMode(QListView::Batched);
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
    const QString problem =
        text.trimmed().isEmpty() ? QString() : parseTyped(text, m_families, contextFamily()).error;
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
    for (const Shape& s : suite.shapes) insertShape(CaseSize(s), false);
    for (const CaseSize& s : suite.sizes) insertShape(s, false);  // any other family's
    m_list->setUpdatesEnabled(true);
    emit selectionChanged();
  });
  connect(m_list, &QListWidget::itemChanged, this, &ShapeListWidget::selectionChanged);
}

QString ShapeListWidget::validate(const QString& text) {
  return parseTyped(text, builtInFamilies(), {}).error;
}

void ShapeListWidget::addFamilies(const std::vector<FamilyInfo>& families) {
  for (const FamilyInfo& f : families) {
    const auto same = [&](const FamilyInfo& g) { return g.id == f.id; };
    if (const auto it = std::find_if(m_families.begin(), m_families.end(), same);
        it != m_families.end())
      *it = f;
    else
      m_families << f;
  }
}

void ShapeListWidget::setKernelFamilies(const QStringList& families) {
  m_kernelFamilies = families;
  m_kernelFamilies.removeDuplicates();
}

QString ShapeListWidget::contextFamily() const {
  if (m_kernelFamilies.size() == 1) return m_kernelFamilies.front();
  QString family;
  for (const CaseSize& s : m_shapes) {
    const QString f = QString::fromStdString(s.family);
    if (f.isEmpty() || (!family.isEmpty() && f != family)) return {};
    family = f;
  }
  return family;
}

void ShapeListWidget::setPresets(const QList<Suite>& presets) {
  m_presets.clear();
  m_preset->clear();
  addPresets(presets);
}

int ShapeListWidget::addPresets(const QList<Suite>& presets) {
  int added = 0;
  for (const Suite& p : presets) {
    const QString name = QString::fromStdString(p.name);
    if (m_preset->findText(name) >= 0) continue;
    m_presets << p;  // before the item: adding the first item selects it, which reads m_presets
    m_preset->addItem(name);
    m_preset->setItemData(m_preset->count() - 1, QString::fromStdString(p.description),
                          Qt::ToolTipRole);
    ++added;
  }
  return added;
}

QStringList ShapeListWidget::presetNames() const {
  QStringList names;
  for (int i = 0; i < m_preset->count(); ++i) names << m_preset->itemText(i);
  return names;
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
  // Parsed here, once: a typed size joins the family of the kernels or of the sizes listed.
  const Typed typed = parseTyped(text, m_families, contextFamily());
  return typed.size && insertShape(*typed.size, custom);
}

bool ShapeListWidget::insertShape(const CaseSize& s, bool custom) {
  // Keyed by family and size as the engine writes it ("gemm 512x512x512", "reduce 2^28 f32").
  const QString key = QString::fromStdString(kwb::sizeKey(s));
  if (m_shapes.contains(key)) return false;
  m_shapes.insert(key, s);
  m_custom = m_custom || custom;
  // Filled in before it joins the list: an item of the list looks itself up among all the
  // items on each change (Qt's QListModel::index), which made a 333k-shape preset quadratic.
  auto* item = new QListWidgetItem(sizeName(s));
  item->setData(Qt::UserRole, key);
  item->setData(Qt::UserRole + 1, custom);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
  item->setCheckState(Qt::Checked);
  item->setToolTip(key + (custom ? " (custom)" : ""));
  m_list->addItem(item);
  return true;
}

QList<CaseSize> ShapeListWidget::checkedShapes() const {
  QList<CaseSize> out;
  for (int i = 0; i < m_list->count(); ++i)
    if (m_list->item(i)->checkState() == Qt::Checked)
      out << m_shapes.value(m_list->item(i)->data(Qt::UserRole).toString());
  return out;
}

QStringList ShapeListWidget::customShapes() const {
  QStringList out;
  for (int i = 0; i < m_list->count(); ++i)
    if (m_list->item(i)->data(Qt::UserRole + 1).toBool())  // as typed: "96x32x16", "2^24 i32"
      out << sizeName(m_shapes.value(m_list->item(i)->data(Qt::UserRole).toString()), false);
  return out;
}

}  // namespace kwb::gui
