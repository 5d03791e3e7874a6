// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a one-dimensional problem family provides (docs/FAMILIES.md): a vector of `count`
// elements of one type in, `outputCount(count)` elements out. The family's folder under
// kernels/ defines one (its declaration and work, its reference, its known answer, its
// tolerance) and registers it; the pipeline (VectorSession) does the rest for every such family:
// seeded inputs, canary-filled outputs, the chunked comparison, the negative control, the
// verdict and the timing.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/cuda/vector_kernels.h"
#include "kwb/family.h"

namespace kwb::cuda {

// The family's reference, fed the input in index order, chunk by chunk (memory stays bounded
// at 2^31 elements). `in` holds the raw 4-byte elements of type `type` (vectorValue reads one).
// For each chunk it appends the reference values of the outputs the chunk completes (a scan:
// one per element; a copy: one per element; a reduce: none), in output order; finish()
// appends the outputs that complete only at the end (a reduce's sum). int32 values must be
// exact: a family computes them in int64 and wraps to 32 bits (vectorWrap).
class VectorReference {
 public:
  virtual ~VectorReference() = default;
  virtual void feed(const std::uint32_t* in, std::int64_t n, std::vector<double>& expected) = 0;
  virtual void finish(std::vector<double>& /*expected*/) {}
};

// An element's value: its float, or its int32 exactly.
double vectorValue(std::uint32_t bits, ElementType type);
// An int64 result as the int32 a kernel writes (two's-complement wrap), exactly as a double.
double vectorWrap(std::int64_t v);

// A running sum of elements of one type, as a reference keeps it: FP64 for float, int64 for
// int32 (value() wraps it to the int32 a kernel writes).
class VectorSum {
 public:
  explicit VectorSum(ElementType type) : m_type(type) {}
  void add(std::uint32_t bits) {
    if (m_type == ElementType::kInt32)
      m_int += std::int32_t(bits);
    else
      m_float += vectorValue(bits, m_type);
  }
  double value() const { return m_type == ElementType::kInt32 ? vectorWrap(m_int) : m_float; }

 private:
  ElementType m_type;
  double m_float = 0;
  std::int64_t m_int = 0;
};

// A known-answer test of a family: a test pattern in, every output known in closed form.
struct VectorKnownAnswer {
  VectorPattern pattern = VectorPattern::kIota;
  std::string what;  // "sum of 1..1000": the test as the report names it (n = 1000)
  double (*expected)(std::int64_t index, std::int64_t n) = nullptr;
};

class VectorFamily {
 public:
  virtual ~VectorFamily() = default;
  // The declaration (id, axes "count" and "type", headline, roof, reference) and the work.
  virtual const Family& family() const = 0;
  // How many elements a launch on `count` elements writes (1 for a reduce).
  virtual std::int64_t outputCount(std::int64_t count) const = 0;
  virtual std::unique_ptr<VectorReference> reference(ElementType type) const = 0;
  virtual VectorKnownAnswer knownAnswer() const = 0;
  // The comparison rule; by default vectorTolerance (int32 exact, float ∝ √n ‖x‖₂).
  virtual Tolerance tolerance(ElementType type, std::int64_t count, double inputL2Norm) const {
    return vectorTolerance(type, count, inputL2Norm);
  }
};

class FamilyDriver;
// The family's driver (kwb/cuda/family_driver.h): the VectorSession pipeline over `f`.
std::shared_ptr<FamilyDriver> vectorDriver(std::shared_ptr<const VectorFamily> f);
// Registers a family with its driver (registerFamilyDriver(vectorDriver(f)), which catalogs its
// declaration, kwb/family.h); the registry of kernels/ calls it once for each 1-D family it
// has. A second registration of an id replaces the first.
void registerVectorFamily(std::shared_ptr<const VectorFamily> f);
const VectorFamily* findVectorFamily(std::string_view id);
// Throws InputError naming the id and the registered 1-D families.
const VectorFamily& vectorFamily(std::string_view id);

}  // namespace kwb::cuda
