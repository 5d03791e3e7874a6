#include "panels/kernel_list_widget.h"

#include <QHeaderView>
#include <QSignalBlocker>

namespace kwb::gui {

KernelListWidget::KernelListWidget(QWidget* parent) : QTreeWidget(parent) {
  setHeaderHidden(true);
  setRootIsDecorated(false);
  setIndentation(12);
  connect(this, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int) {
    // A family's box (un)checks all of its kernels; a partly checked family (one kernel
    // unchecked, the box recomputed by Qt) leaves them as they are.
    if (item->childCount() > 0 && item->checkState(0) != Qt::PartiallyChecked) {
      const QSignalBlocker block(this);
      for (int i = 0; i < item->childCount(); ++i)
        item->child(i)->setCheckState(0, item->checkState(0));
    }
    emit selectionChanged();
  });
}

void KernelListWidget::setCatalog(const KernelLookup& catalog, const QStringList& unchecked) {
  const QStringList wasChecked = checkedIds();
  QStringList known;
  for (int i = 0; i < topLevelItemCount(); ++i)
    for (int j = 0; j < topLevelItem(i)->childCount(); ++j)
      known << topLevelItem(i)->child(j)->data(0, Qt::UserRole).toString();
  const QSignalBlocker block(this);
  clear();
  QTreeWidgetItem* group = nullptr;
  QString groupName;
  for (const KernelInfo& k : catalog.kernels()) {
    const QString family = qtext(k.family);
    const QString name = k.reference ? QString("References (%1)").arg(family) : family;
    if (!group || name != groupName) {
      group = new QTreeWidgetItem(this, {name});
      group->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsAutoTristate);
      group->setCheckState(0, Qt::Checked);
      groupName = name;
    }
    const QString id = qtext(k.id);
    const QString label =
        k.reference ? qtext(k.name) : QString("%1 %2").arg(k.stage).arg(qtext(k.name));
    auto* item = new QTreeWidgetItem(group, {label});
    item->setData(0, Qt::UserRole, id);
    item->setToolTip(0, QString("%1 — %2 (%3)").arg(id, qtext(k.description), qtext(k.precision)));
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    const bool checked = known.contains(id) ? wasChecked.contains(id) : !unchecked.contains(id);
    item->setCheckState(0, checked ? Qt::Checked : Qt::Unchecked);
  }
  expandAll();
}

QStringList KernelListWidget::checkedIds() const {
  QStringList out;
  for (int i = 0; i < topLevelItemCount(); ++i)
    for (int j = 0; j < topLevelItem(i)->childCount(); ++j)
      if (topLevelItem(i)->child(j)->checkState(0) == Qt::Checked)
        out << topLevelItem(i)->child(j)->data(0, Qt::UserRole).toString();
  return out;
}

QStringList KernelListWidget::uncheckedIds() const {
  QStringList out;
  for (int i = 0; i < topLevelItemCount(); ++i)
    for (int j = 0; j < topLevelItem(i)->childCount(); ++j)
      if (topLevelItem(i)->child(j)->checkState(0) != Qt::Checked)
        out << topLevelItem(i)->child(j)->data(0, Qt::UserRole).toString();
  return out;
}

}  // namespace kwb::gui
