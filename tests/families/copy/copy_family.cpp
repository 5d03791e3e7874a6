// SPDX-License-Identifier: Apache-2.0
// The copy family's declaration, work, reference and known answer.
#include "copy/copy_family.h"

#include "kwb/results.h"

namespace kwb::test {
namespace {

// No arithmetic; n elements read and n written.
Work copyWork(const CaseResult& c) {
  const double n = double(c.size.number("count"));
  return {0.0, double(elementBytes(parseElementType(c.size.word("type")))) * 2.0 * n};
}

class Identity : public cuda::VectorReference {
 public:
  explicit Identity(ElementType t) : m_type(t) {}
  void feed(const std::uint32_t* in, std::int64_t n, std::vector<double>& expected) override {
    for (std::int64_t i = 0; i < n; ++i) expected.push_back(cuda::vectorValue(in[i], m_type));
  }

 private:
  ElementType m_type;
};

class CopyFamily : public cuda::VectorFamily {
 public:
  CopyFamily() {
    m_family.id = "copy";
    m_family.title = "Copy (a test family)";
    m_family.axes = {{"count", AxisKind::kCount, {}, {}, 0},
                     {"type", AxisKind::kWord, {}, {"f32", "i32"}}};
    m_family.headline = Metric::kGbps;
    m_family.roof = "device-to-device copy bandwidth";
    m_family.reference = "copy.ref";
    m_family.work = copyWork;
  }
  const Family& family() const override { return m_family; }
  std::int64_t outputCount(std::int64_t count) const override { return count; }
  std::unique_ptr<cuda::VectorReference> reference(ElementType t) const override {
    return std::make_unique<Identity>(t);
  }
  cuda::VectorKnownAnswer knownAnswer() const override {
    return {cuda::VectorPattern::kIota, "copy of 1..1000",
            [](std::int64_t i, std::int64_t) { return double(i + 1); }};
  }
  // A copy is exact in both types.
  Tolerance tolerance(ElementType, std::int64_t, double) const override { return {0.0, 0.0}; }

 private:
  Family m_family;
};

}  // namespace

std::shared_ptr<const cuda::VectorFamily> copyFamily() { return std::make_shared<CopyFamily>(); }

}  // namespace kwb::test
