// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QByteArray>
#include <QList>
#include <QString>
#include <string_view>
#include <vector>

#include "kwb/kernel_info.h"
#include "kwb/results.h"

namespace kwb::gui {

// The kernels the GUI shows, in display order, looked up by id. It holds no names or
// descriptions of its own: every entry comes from a results document's `kernels` list or from
// `kwb list --json` (both kwb::KernelInfo, docs/RESULTS.md); an id in neither gets core's
// derived entry (kwb::legacyKernelInfo).
class KernelLookup {
 public:
  // `kwb list --json`, read by core's parseKernelList; throws kwb::InputError on malformed text.
  static KernelLookup fromListJson(const QByteArray& json);
  // The kernels `doc` lists, and any id its cases name without an entry.
  static KernelLookup fromDocument(const RunDocument& doc);

  const std::vector<KernelInfo>& kernels() const { return m_kernels; }
  // Stages (family order, then stage; stage 0 last), references last.
  std::vector<KernelInfo> stages() const;
  std::vector<KernelInfo> references() const;
  KernelInfo info(std::string_view id) const;
  KernelInfo info(const QString& id) const { return info(std::string_view(id.toStdString())); }
  bool contains(std::string_view id) const;
  bool isEmpty() const { return m_kernels.empty(); }
  // Adds `k` unless its id is listed already.
  void add(const KernelInfo& k);

 private:
  void sort();
  std::vector<KernelInfo> m_kernels;
};

QString qtext(const std::string& s);  // UTF-8 to QString
// Short label for plots ("naive", "cuBLAS FP16").
QString shortLabel(const KernelInfo& k);

}  // namespace kwb::gui
