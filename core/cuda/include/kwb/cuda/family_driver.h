// SPDX-License-Identifier: Apache-2.0
#pragma once
// One driver per problem family (docs/ARCHITECTURE.md, "How to add a family"): the case loop
// starts every case of every family through this interface and never asks which family it
// runs. A family's folder under kernels/ defines its driver and registers it
// (kernels/registry.cpp); GEMM's driver is core's own (core/cuda/gemm_driver.cpp), and the
// 1-D families of 4-byte elements get theirs from kwb/cuda/vector_family.h.
#include <any>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

#include "kwb/case_size.h"
#include "kwb/device_info.h"
#include "kwb/error.h"
#include "kwb/family.h"
#include "kwb/kernel_descriptor.h"
#include "kwb/run_document.h"
#include "kwb/tune_config.h"

struct CUstream_st;

namespace kwb::cuda {

struct RunConfig;

// What drivers keep for the length of one run (GEMM: its session, reference cache and the
// inputs a tuning sweep's configurations share): made on a driver's first use in the run,
// dropped when the run ends, before its stream.
class DriverStates {
 public:
  // The state named `key`, made by `make()` (a std::unique_ptr<T>) on first use.
  template <class T, class Make>
  T& get(const std::string& key, Make&& make) {
    for (auto& [k, v] : m_states)
      if (k == key) return *static_cast<T*>(v.get());
    std::shared_ptr<T> made(std::forward<Make>(make)());
    T& out = *made;
    m_states.emplace_back(key, std::move(made));
    return out;
  }
  ~DriverStates() {
    while (!m_states.empty()) m_states.pop_back();  // the last made goes first
  }

 private:
  std::vector<std::pair<std::string, std::shared_ptr<void>>> m_states;
};

// What the run lends a driver for a case (or for its known-answer test).
struct DriverContext {
  CUstream_st* stream = nullptr;  // every launch and copy goes on it
  const DeviceInfo* device = nullptr;
  std::uint64_t seed = 0;  // the run's seed; inputs are generated from it (kwb seeded generators)
  // The run's settings (--max-case-seconds, verify only, the timer); null outside a run.
  const RunConfig* run = nullptr;
  // The cases finished so far in this run (a budget estimates from them); null: none.
  const std::vector<CaseResult>* done = nullptr;
  // The run's per-driver state; null outside a run (a driver then keeps nothing between calls).
  DriverStates* states = nullptr;
  // The case is one compile-time configuration of its kernel in a tuning sweep (kwb tune):
  // consecutive configurations of one kernel on one size may share their inputs. Null: not.
  const TuneConfig* config = nullptr;
};

// One case's device inputs and what its comparison needs. Made by FamilyDriver::prepare; the
// case loop keeps it alive until the case's timed launches are done.
class FamilyCase {
 public:
  virtual ~FamilyCase() = default;
  // The device memory this case holds (a block of cases is bounded by it); 0 when shared.
  virtual std::size_t deviceBytes() const = 0;
  // Runs k once over canary-filled outputs, compares with the reference (tolerance or exact),
  // runs the negative control; returns the case (kernel, size, precision, status, message,
  // verification). CUDA errors throw CudaError; "cannot run" throws InputError.
  virtual CaseResult verify(const KernelDescriptor& k) = 0;
  // The launch the rounds time, after verify passed: enqueues on the context's stream only.
  // Called before deviceBytes(), which then counts any further input sets it made.
  virtual std::function<void()> timedLaunch(const KernelDescriptor& k) = 0;
  // After the timed samples, with the inputs still held (docs/VALIDATION.md, "Timed
  // launches"): the output the timed launches left against the reference of the inputs they
  // read, into c.verification->timedOutput, and the input sets rotated into c.inputSets. The
  // case loop then re-applies the verdict. Default: no check.
  virtual void checkTimedOutput(const KernelDescriptor& /*k*/, CaseResult& /*c*/) {}
  // Optional check after timing (user kernels: a fresh seed); null: none.
  virtual std::function<void(CaseResult&)> afterTiming(const KernelDescriptor& /*k*/) { return {}; }
};

class FamilyDriver {
 public:
  virtual ~FamilyDriver() = default;
  // The declaration (axes, headline, roof, reference) and the work.
  virtual const Family& family() const = 0;
  // Inputs of k on size, generated from ctx.seed; InputError naming the size and the memory
  // when it does not fit the device (the case is then skipped with that reason).
  virtual std::unique_ptr<FamilyCase> prepare(const KernelDescriptor& k, const CaseSize& size,
                                              const DriverContext& ctx) = 0;
  // The family's known-answer test run with k (the family's reference kernel where the plan
  // has it, else its first kernel).
  virtual KnownAnswer knownAnswer(const KernelDescriptor& k, const DriverContext& ctx) = 0;
};

// Registers a driver and its family() with the family catalog (kwb/family.h); a second
// registration of an id replaces the first. GEMM's is registered by the catalog itself.
void registerFamilyDriver(std::shared_ptr<FamilyDriver> d);
FamilyDriver* findFamilyDriver(std::string_view id);
// Throws InputError naming the id and the registered families.
FamilyDriver& familyDriver(std::string_view id);
// The ids of the registered drivers, in registration order.
std::vector<std::string> familyDriverIds();

// A kernel's family-owned launcher (KernelDescriptor::launcher) as the type its family's driver
// expects: InputError naming the kernel and both types when it holds something else.
template <class Launcher>
const Launcher& launcherOf(const KernelDescriptor& k) {
  if (const auto* l = std::any_cast<Launcher>(&k.launcher)) return *l;
  throw InputError("kernel " + k.id + " has no launcher of its family's type (" +
                   (k.launcher.has_value() ? std::string("it holds ") + k.launcher.type().name()
                                           : std::string("it has none")) +
                   ", the " + k.problem + " driver takes " + typeid(Launcher).name() + ")");
}

}  // namespace kwb::cuda
