// SPDX-License-Identifier: Apache-2.0
#include <algorithm>

#include "kwb/error.h"
#include "kwb/kernel_descriptor.h"

namespace kwb {

std::string_view toString(Precision p) {
  switch (p) {
    case Precision::kFp32:
      return "fp32";
    case Precision::kFp16Fp32Acc:
      return "fp16-fp32acc";
    case Precision::kTf32:
      return "tf32";
    case Precision::kBf16Fp32Acc:
      return "bf16-fp32acc";
  }
  return "?";
}

int inputElementBytes(Precision p) {
  return p == Precision::kFp16Fp32Acc || p == Precision::kBf16Fp32Acc ? 2 : 4;
}

std::string_view tensorReferenceOf(Precision p) {
  if (p == Precision::kFp16Fp32Acc) return "cublas.hgemm_f32acc";
  if (p == Precision::kBf16Fp32Acc) return "cublas.bgemm_f32acc";
  return {};
}

Precision parsePrecision(std::string_view text) {
  for (Precision p :
       {Precision::kFp32, Precision::kFp16Fp32Acc, Precision::kTf32, Precision::kBf16Fp32Acc})
    if (toString(p) == text) return p;
  throw InputError("unknown precision '" + std::string(text) +
                   "' (known: fp32, fp16-fp32acc, tf32, bf16-fp32acc)");
}

KernelRegistry::KernelRegistry(std::vector<KernelDescriptor> kernels)
    : m_kernels(std::move(kernels)) {
  for (std::size_t i = 0; i < m_kernels.size(); ++i)
    for (std::size_t j = i + 1; j < m_kernels.size(); ++j)
      if (m_kernels[i].id == m_kernels[j].id)
        throw std::logic_error("kernel id '" + m_kernels[i].id + "' is registered twice");
}

const KernelDescriptor* KernelRegistry::tryFind(std::string_view id) const {
  const auto it = std::find_if(m_kernels.begin(), m_kernels.end(),
                               [&](const KernelDescriptor& k) { return k.id == id; });
  return it == m_kernels.end() ? nullptr : &*it;
}

std::string KernelRegistry::knownIds() const {
  std::string s;
  for (const auto& k : m_kernels) s += (s.empty() ? "" : ", ") + k.id;
  return s;
}

const KernelDescriptor& KernelRegistry::find(std::string_view id) const {
  if (const auto* k = tryFind(id)) return *k;
  throw InputError("unknown kernel id '" + std::string(id) + "' (known: " + knownIds() + ")");
}

std::vector<const KernelDescriptor*> KernelRegistry::select(std::string_view list) const {
  std::vector<const KernelDescriptor*> out;
  auto add = [&](const KernelDescriptor* k) {
    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
  };
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = list.find(',', start);
    const std::string_view item =
        list.substr(start, comma == std::string_view::npos ? list.npos : comma - start);
    if (item == "all") {
      for (const auto& k : m_kernels) add(&k);
    } else if (item == "stages") {
      for (const auto& k : m_kernels)
        if (!k.reference) add(&k);
    } else if (item == "references") {
      for (const auto& k : m_kernels)
        if (k.reference) add(&k);
    } else if (item.empty()) {
      throw InputError("empty kernel id in '" + std::string(list) + "'");
    } else {
      add(&find(item));
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace kwb
