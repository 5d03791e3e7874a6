// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QTreeWidget>

#include "model/kernel_lookup.h"

namespace kwb::gui {

// Checkable kernels grouped by family, stages in order, references in their own group; when
// the catalog holds more than one problem family, the groups sit in a section per family
// ("GEMM", "Reduce", "Scan").
class KernelListWidget : public QTreeWidget {
  Q_OBJECT
 public:
  static constexpr int kProblemRole = Qt::UserRole + 1;  // a section's problem: "reduce"

  explicit KernelListWidget(QWidget* parent = nullptr);
  // Keeps the check state of kernels already listed; new ones are checked unless in `unchecked`.
  void setCatalog(const KernelLookup& catalog, const QStringList& unchecked = {});
  QStringList checkedIds() const;
  QStringList uncheckedIds() const;

 private:
  QStringList idsWhere(bool checked) const;

 signals:
  void selectionChanged();
};

}  // namespace kwb::gui
