// SPDX-License-Identifier: Apache-2.0
#include "panels/kernel_list_widget.h"

#include <QHeaderView>
#include <QSignalBlocker>
#include <algorithm>

namespace kwb::gui {
namespace {

// The kernels of the tree (the leaves: items with an id), depth-first.
void leaves(const QTreeWidgetItem* item, QList<const QTreeWidgetItem*>& out) {
  if (item->childCount() == 0 && !item->data(0, Qt::UserRole).toString().isEmpty()) out << item;
  for (int i = 0; i < item->childCount(); ++i) leaves(item->child(i), out);
}

void checkAll(QTreeWidgetItem* item, Qt::CheckState state) {
  for (int i = 0; i < item->childCount(); ++i) {
    item->child(i)->setCheckState(0, state);
    checkAll(item->child(i), state);
  }
}

QString problemTitle(const std::string& problem) {
  if (problem == "gemm") return "GEMM";
  QString t = qtext(problem);
  if (!t.isEmpty()) t[0] = t[0].toUpper();
  return t;  // "Reduce", "Scan"
}

}  // namespace

KernelListWidget::KernelListWidget(QWidget* parent) : QTreeWidget(parent) {
  setHeaderHidden(true);
  setRootIsDecorated(false);
  setIndentation(12);
  connect(this, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int) {
    // A family's box (un)checks all of its kernels; a partly checked family (one kernel
    // unchecked, the box recomputed by Qt) leaves them as they are.
    if (item->childCount() > 0 && item->checkState(0) != Qt::PartiallyChecked) {
      const QSignalBlocker block(this);
      checkAll(item, item->checkState(0));
    }
    emit selectionChanged();
  });
}

void KernelListWidget::setCatalog(const KernelLookup& catalog, const QStringList& unchecked) {
  const QStringList wasChecked = checkedIds();
  QStringList known;
  for (int i = 0; i < topLevelItemCount(); ++i) {
    QList<const QTreeWidgetItem*> items;
    leaves(topLevelItem(i), items);
    for (const QTreeWidgetItem* item : items) known << item->data(0, Qt::UserRole).toString();
  }
  const QSignalBlocker block(this);
  clear();
  // Kernels of more than one problem family (GEMM, reduce, scan) go in a section per family,
  // GEMM first, then the catalog's order of first appearance; a GEMM-only catalog keeps its flat
  // groups.
  QStringList problems{"gemm"};
  for (const KernelInfo& k : catalog.kernels())
    if (!problems.contains(qtext(k.problem))) problems << qtext(k.problem);
  if (std::none_of(catalog.kernels().begin(), catalog.kernels().end(),
                   [](const KernelInfo& k) { return k.problem == "gemm"; }))
    problems.removeFirst();
  const bool sections = problems.size() > 1;
  auto newGroup = [this](QTreeWidgetItem* parent, const QString& name) {
    auto* g = parent ? new QTreeWidgetItem(parent, {name}) : new QTreeWidgetItem(this, {name});
    g->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsAutoTristate);
    g->setCheckState(0, Qt::Checked);
    return g;
  };
  for (const QString& problem : problems) {
    QTreeWidgetItem* section =
        sections ? newGroup(nullptr, problemTitle(problem.toStdString())) : nullptr;
    if (section) section->setData(0, kProblemRole, problem);
    QTreeWidgetItem* group = nullptr;
    QString groupName;
    for (const KernelInfo& k : catalog.kernels()) {
      if (qtext(k.problem) != problem) continue;
      const QString family = qtext(k.family);
      const QString name = k.reference ? QString("References (%1)").arg(family) : family;
      if (!group || name != groupName) {
        group = newGroup(section, name);
        groupName = name;
      }
      const QString id = qtext(k.id);
      const QString label =
          k.reference ? qtext(k.name) : QString("%1 %2").arg(k.stage).arg(qtext(k.name));
      auto* item = new QTreeWidgetItem(group, {label});
      item->setData(0, Qt::UserRole, id);
      item->setToolTip(0,
                       QString("%1 — %2 (%3)").arg(id, qtext(k.description), qtext(k.precision)));
      item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
      const bool checked = known.contains(id) ? wasChecked.contains(id) : !unchecked.contains(id);
      item->setCheckState(0, checked ? Qt::Checked : Qt::Unchecked);
    }
  }
  expandAll();
}

QStringList KernelListWidget::idsWhere(bool checked) const {
  QList<const QTreeWidgetItem*> items;
  for (int i = 0; i < topLevelItemCount(); ++i) leaves(topLevelItem(i), items);
  QStringList out;
  for (const QTreeWidgetItem* item : items)
    if ((item->checkState(0) == Qt::Checked) == checked)
      out << item->data(0, Qt::UserRole).toString();
  return out;
}

QStringList KernelListWidget::checkedIds() const { return idsWhere(true); }

QStringList KernelListWidget::uncheckedIds() const { return idsWhere(false); }

}  // namespace kwb::gui
