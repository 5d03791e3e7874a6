#pragma once
#include <QTreeWidget>

#include "model/kernel_lookup.h"

namespace kwb::gui {

// Checkable kernels grouped by family, stages in order, references in their own group.
class KernelListWidget : public QTreeWidget {
  Q_OBJECT
 public:
  explicit KernelListWidget(QWidget* parent = nullptr);
  // Keeps the check state of kernels already listed; new ones are checked unless in `unchecked`.
  void setCatalog(const KernelLookup& catalog, const QStringList& unchecked = {});
  QStringList checkedIds() const;
  QStringList uncheckedIds() const;

 signals:
  void selectionChanged();
};

}  // namespace kwb::gui
