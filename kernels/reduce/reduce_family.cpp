// SPDX-License-Identifier: Apache-2.0
// The reduce family's declaration, work, reference and known answer (kwb/cuda/vector_family.h):
// a sum of `count` elements, FP64 for float (int64, wrapped to 32 bits, for int32).
#include "reduce/reduce_family.h"

#include "kwb/family_info.h"
#include "kwb/results.h"

namespace kwb::kernels {
namespace {

// A sum of n elements: n − 1 additions (counted as n), n elements read, one written.
Work reduceWork(const CaseResult& c) {
  const std::int64_t count = c.size.number("count");
  const double n = double(count);
  const double bytes = double(elementBytes(parseElementType(c.size.word("type"))));
  return {n, bytes * (n + (count > 0 ? 1.0 : 0.0))};
}

class SumReference : public cuda::VectorReference {
 public:
  explicit SumReference(ElementType t) : m_sum(t) {}
  void feed(const std::uint32_t* in, std::int64_t n, std::vector<double>&) override {
    for (std::int64_t i = 0; i < n; ++i) m_sum.add(in[i]);
  }
  void finish(std::vector<double>& expected) override { expected.push_back(m_sum.value()); }

 private:
  cuda::VectorSum m_sum;
};

class ReduceFamily : public cuda::VectorFamily {
 public:
  ReduceFamily() {
    static_cast<FamilyInfo&>(m_family) = *legacyFamilyInfo("reduce");
    m_family.work = reduceWork;
  }
  const Family& family() const override { return m_family; }
  std::int64_t outputCount(std::int64_t) const override { return 1; }
  std::unique_ptr<cuda::VectorReference> reference(ElementType t) const override {
    return std::make_unique<SumReference>(t);
  }
  cuda::VectorKnownAnswer knownAnswer() const override {
    return {cuda::VectorPattern::kIota, "sum of 1..1000",
            [](std::int64_t, std::int64_t n) { return double(n) * double(n + 1) / 2; }};
  }

 private:
  Family m_family;
};

}  // namespace

std::shared_ptr<const cuda::VectorFamily> reduceFamily() {
  return std::make_shared<ReduceFamily>();
}

}  // namespace kwb::kernels
