// SPDX-License-Identifier: Apache-2.0
#include "model/kernel_lookup.h"

#include "kwb/results_json.h"

#include <algorithm>
#include <climits>

namespace kwb::gui {

KernelLookup KernelLookup::fromListJson(const QByteArray& json) {
  KernelLookup out;
  for (const KernelInfo& k : parseKernelList(
           std::string_view(json.constData(), size_t(json.size())), "`kwb list --json`"))
    out.add(k);
  return out;
}

KernelLookup KernelLookup::fromDocument(const RunDocument& doc) {
  KernelLookup out;
  for (const KernelInfo& k : doc.kernels) out.add(k);
  for (const CaseResult& c : doc.cases)
    if (!out.contains(c.kernel)) {
      KernelInfo k = out.info(c.kernel);
      if (k.precision.empty()) k.precision = std::string(toString(c.precision));
      out.add(k);
    }
  return out;
}

bool KernelLookup::contains(std::string_view id) const {
  return std::any_of(m_kernels.begin(), m_kernels.end(),
                     [&](const KernelInfo& k) { return k.id == id; });
}

void KernelLookup::add(const KernelInfo& k) {
  if (contains(k.id)) return;
  m_kernels.push_back(k);
  sort();
}

void KernelLookup::sort() {
  // A stage of 0 outside the references is unknown: after the known stages of its family.
  auto order = [](const KernelInfo& k) { return k.stage > 0 ? k.stage : INT_MAX; };
  std::stable_sort(m_kernels.begin(), m_kernels.end(),
                   [&](const KernelInfo& a, const KernelInfo& b) {
                     if (a.reference != b.reference) return b.reference;
                     if (a.family != b.family) return a.family < b.family;
                     return order(a) < order(b);
                   });
}

std::vector<KernelInfo> KernelLookup::stages() const {
  std::vector<KernelInfo> out;
  for (const auto& k : m_kernels)
    if (!k.reference) out.push_back(k);
  return out;
}

std::vector<KernelInfo> KernelLookup::references() const {
  std::vector<KernelInfo> out;
  for (const auto& k : m_kernels)
    if (k.reference) out.push_back(k);
  return out;
}

KernelInfo KernelLookup::info(std::string_view id) const {
  for (const auto& k : m_kernels)
    if (k.id == id) return k;
  return legacyKernelInfo(id);
}

QString qtext(const std::string& s) { return QString::fromStdString(s); }

QString shortLabel(const KernelInfo& k) {
  if (k.reference) return qtext(k.name.empty() ? k.id : k.name);
  QString s = qtext(k.id).section('.', 1);
  s.replace('_', ' ');
  return s;
}

}  // namespace kwb::gui
