// SPDX-License-Identifier: Apache-2.0
// The scan family's declaration, work, reference and known answer (kwb/cuda/vector_family.h):
// an inclusive prefix sum, FP64 for float (int64, wrapped to 32 bits, for int32).
#include "scan/scan_family.h"

#include "kwb/family_info.h"
#include "kwb/results.h"

namespace kwb::kernels {
namespace {

// An inclusive scan: n additions, n elements read and n written.
Work scanWork(const CaseResult& c) {
  const double n = double(c.size.number("count"));
  return {n, double(elementBytes(parseElementType(c.size.word("type")))) * 2.0 * n};
}

class PrefixSumReference : public cuda::VectorReference {
 public:
  explicit PrefixSumReference(ElementType t) : m_sum(t) {}
  void feed(const std::uint32_t* in, std::int64_t n, std::vector<double>& expected) override {
    for (std::int64_t i = 0; i < n; ++i) {
      m_sum.add(in[i]);
      expected.push_back(m_sum.value());
    }
  }

 private:
  cuda::VectorSum m_sum;
};

class ScanFamily : public cuda::VectorFamily {
 public:
  ScanFamily() {
    static_cast<FamilyInfo&>(m_family) = *legacyFamilyInfo("scan");
    m_family.work = scanWork;
  }
  const Family& family() const override { return m_family; }
  std::int64_t outputCount(std::int64_t count) const override { return count; }
  std::unique_ptr<cuda::VectorReference> reference(ElementType t) const override {
    return std::make_unique<PrefixSumReference>(t);
  }
  cuda::VectorKnownAnswer knownAnswer() const override {
    return {cuda::VectorPattern::kOnes, "scan of 1000 ones",
            [](std::int64_t i, std::int64_t) { return double(i + 1); }};
  }

 private:
  Family m_family;
};

}  // namespace

std::shared_ptr<const cuda::VectorFamily> scanFamily() { return std::make_shared<ScanFamily>(); }

}  // namespace kwb::kernels
