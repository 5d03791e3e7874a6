// SPDX-License-Identifier: Apache-2.0
// The driver of every 1-D family of 4-byte elements (kwb/cuda/vector_family.h): the family
// gives its declaration, reference and known answer, the VectorSession pipeline does the rest.
#include <memory>
#include <string>
#include <vector>

#include "kwb/cuda/family_driver.h"
#include "kwb/cuda/input_sets.h"
#include "kwb/cuda/vector_family.h"
#include "kwb/cuda/vector_session.h"

namespace kwb::cuda {
namespace {

class VectorFamilyCase : public FamilyCase {
 public:
  VectorFamilyCase(const VectorFamily& f, CUstream_st* stream, std::unique_ptr<VectorCase> c,
                   int wantedSets)
      : m_family(f), m_session(stream), m_case(std::move(c)), m_wantedSets(wantedSets) {}
  std::size_t deviceBytes() const override { return m_case->deviceBytes(); }
  CaseResult verify(const KernelDescriptor& k) override {
    return m_session.verify(m_family, k, *m_case);
  }
  // The timed launches rotate through the case's input sets (one unless --fresh-inputs), all
  // writing the case's output.
  std::function<void()> timedLaunch(const KernelDescriptor& k) override {
    const int sets = m_session.addInputSets(*m_case, m_wantedSets);
    m_rotation = std::make_shared<InputRotation>(sets);
    return rotatedLaunch(
        m_rotation, [&k, this](int j) { return [&k, a = m_case->args(j)] { k.launchVector(a); }; });
  }
  // The output the last timed launch left against the reference of the set it read; then one
  // more launch, on an output of quiet NaNs: a kernel that stopped working during the samples
  // (or skips work on pointers it has seen) fails.
  void checkTimedOutput(const KernelDescriptor& k, CaseResult& c) override {
    recordInputSets(c, m_case->inputSets(), m_wantedSets);
    if (!c.verification || m_case->outputCount() == 0) return;
    const Tolerance tol = c.verification->tolerance;
    CompareReport r = m_session.compareTimedOutput(m_family, *m_case, tol, m_rotation->last());
    if (r.passed()) {
      const int j = m_rotation->next();
      m_session.fillNan(*m_case);
      k.launchVector(m_case->args(j));
      r = m_session.compareTimedOutput(m_family, *m_case, tol, j);
    }
    c.verification->timedOutput = r;
  }

 private:
  const VectorFamily& m_family;
  VectorSession m_session;
  std::unique_ptr<VectorCase> m_case;
  int m_wantedSets;
  std::shared_ptr<InputRotation> m_rotation = std::make_shared<InputRotation>(1);
};

class VectorDriver : public FamilyDriver {
 public:
  // A run of such a family covers both element types unless told (--types, --axis type=).
  explicit VectorDriver(std::shared_ptr<const VectorFamily> f)
      : m_vector(std::move(f)), m_family(m_vector->family()) {
    if (m_family.allWordsByDefault.empty()) m_family.allWordsByDefault = {"type"};
  }
  const Family& family() const override { return m_family; }
  const VectorFamily& vector() const { return *m_vector; }
  std::unique_ptr<FamilyCase> prepare(const KernelDescriptor& k, const CaseSize& size,
                                      const DriverContext& ctx) override {
    if (!k.launchVector) throw InputError(k.id + " has no 1-D launcher");
    VectorSession session(ctx.stream);
    return std::make_unique<VectorFamilyCase>(
        *m_vector, ctx.stream, session.prepare(*m_vector, k, vectorSizeOf(size), ctx.seed),
        inputSetsWanted(ctx));
  }
  KnownAnswer knownAnswer(const KernelDescriptor& k, const DriverContext& ctx) override {
    if (!k.launchVector) throw InputError(k.id + " has no 1-D launcher");
    return VectorSession(ctx.stream).knownAnswerTest(*m_vector, k);
  }

 private:
  std::shared_ptr<const VectorFamily> m_vector;
  Family m_family;
};

}  // namespace

std::shared_ptr<FamilyDriver> vectorDriver(std::shared_ptr<const VectorFamily> f) {
  return std::make_shared<VectorDriver>(std::move(f));
}

void registerVectorFamily(std::shared_ptr<const VectorFamily> f) {
  registerFamilyDriver(vectorDriver(std::move(f)));
}

// The registered drivers are the catalog: a 1-D family is one whose driver is a VectorDriver.
const VectorFamily* findVectorFamily(std::string_view id) {
  const auto* d = dynamic_cast<const VectorDriver*>(findFamilyDriver(id));
  return d ? &d->vector() : nullptr;
}

const VectorFamily& vectorFamily(std::string_view id) {
  if (const VectorFamily* f = findVectorFamily(id)) return *f;
  std::string known;
  for (const std::string& d : familyDriverIds())
    if (findVectorFamily(d)) known += (known.empty() ? "" : ", ") + d;
  throw InputError("no 1-D family '" + std::string(id) + "' is registered (registered: " +
                   (known.empty() ? std::string("none") : known) + ")");
}

}  // namespace kwb::cuda
