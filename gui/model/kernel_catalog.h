#pragma once
#include <QList>
#include <QString>

#include "kwb/results.h"

namespace kwb::gui {

// What the GUI knows of a kernel: from `kwb list --json`, else from a results document.
struct KernelInfo {
  QString id;
  QString name;
  QString family;
  int stage = 0;
  QString precision;
  bool reference = false;
  QString description;
};

class KernelCatalog {
 public:
  // Parses the output of `kwb list --json`; throws kwb::InputError on malformed text.
  static KernelCatalog fromListJson(const QByteArray& json);
  // The kernels present in `doc`, ordered and named from the built-in table where known.
  static KernelCatalog fromDocument(const RunDocument& doc);

  const QList<KernelInfo>& kernels() const { return m_kernels; }
  // Stages (family order, then stage), references last.
  QList<KernelInfo> stages() const;
  QList<KernelInfo> references() const;
  KernelInfo info(const QString& id) const;
  bool isEmpty() const { return m_kernels.isEmpty(); }
  void add(const KernelInfo& k);

 private:
  void sort();
  QList<KernelInfo> m_kernels;
};

// Short label for plots ("naive", "cuBLAS FP16").
QString shortLabel(const KernelInfo& k);

}  // namespace kwb::gui
