// SPDX-License-Identifier: Apache-2.0
// GEMM's driver (kwb/cuda/family_driver.h) over the GEMM session: seeded inputs on the device,
// the cuBLAS and FP64 references and the device-side comparison (gemm_session.cpp). What is
// GEMM's own stays here: the inputs a tuning sweep's configurations share, the guard check
// and second seed of user kernels, and the --max-case-seconds gate.
#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <vector>

#include "kwb/cuda/case_gate.h"
#include "kwb/cuda/check.h"
#include "kwb/cuda/family_driver.h"
#include "kwb/cuda/gemm_family.h"
#include "kwb/cuda/gemm_session.h"
#include "kwb/cuda/input_sets.h"
#include "kwb/cuda/runner.h"
#include "kwb/cuda/user_guard.h"
#include "kwb/run_info.h"

namespace kwb::cuda {
namespace {

// What GEMM keeps for a run: its session on the run's stream (cuBLAS handle, reference cache),
// the --max-case-seconds gate, and the inputs consecutive configurations of a kernel share.
struct GemmRun {
  explicit GemmRun(const DriverContext& ctx)
      : freshInputs(ctx.run ? ctx.run->freshInputs : 1),
        session(ctx.run ? ctx.run->device : 0, ctx.stream),
        gate(session, ctx.run ? ctx.run->measure : MeasureOptions{}, ctx.seed,
             ctx.run && ctx.run->verifyOnly, ctx.run ? ctx.run->maxCaseSeconds : 0.0) {}
  int freshInputs;  // input sets the timed launches rotate through (--fresh-inputs)
  GemmSession session;
  CaseGate gate;
  std::shared_ptr<PreparedCase> inputs;  // the last configurations' shared inputs
  std::string inputsKey;                 // the kernel and shape `inputs` were prepared for
};

bool isUserKernel(const KernelDescriptor& k) { return k.family == "user"; }

GemmRun& gemmRun(const DriverContext& ctx) {
  if (!ctx.states) throw InputError("the gemm driver runs inside a run (no run state was lent)");
  return ctx.states->get<GemmRun>("gemm", [&] { return std::make_unique<GemmRun>(ctx); });
}

class GemmCase : public FamilyCase {
 public:
  GemmCase(GemmRun& run, std::shared_ptr<PreparedCase> inputs, bool shared)
      : m_run(run), m_inputs(std::move(inputs)), m_shared(shared) {}

  std::size_t deviceBytes() const override {
    std::size_t bytes = m_shared ? 0 : m_inputs->deviceBytes();
    for (const auto& e : m_extra) bytes += e->deviceBytes();
    return bytes;
  }

  // User kernels (docs/BRING_YOUR_OWN.md): first a launch with C between guard regions, so a
  // kernel writing past C fails before it can scribble over the pipeline's buffers.
  CaseResult verify(const KernelDescriptor& k) override {
    const std::string outside =
        isUserKernel(k) ? guardViolation(k, *m_inputs, m_run.session.stream()) : "";
    if (outside.empty()) return m_run.session.verify(k, *m_inputs);
    CaseResult c = skippedCase(k, m_inputs->shape(), outside);
    c.status = CaseStatus::kFail;
    return c;
  }

  // The timed launches rotate through the case's input sets (one unless --fresh-inputs), all
  // writing the case's C, which holds quiet NaNs before the first: each must write it.
  std::function<void()> timedLaunch(const KernelDescriptor& k) override {
    if (!m_shared) addFreshInputs(k);
    m_sets = {m_inputs->args(1.0f, 0.0f)};
    for (const auto& e : m_extra) {
      GemmArgs a = e->args(1.0f, 0.0f);
      a.c = m_inputs->c();
      m_sets.push_back(a);
    }
    fillNan();
    m_rotation = std::make_shared<InputRotation>(int(m_sets.size()));
    return rotatedLaunch(m_rotation, [&k, this](int j) {
      return [&k, a = m_sets[std::size_t(j)]] { k.launch(a); };
    });
  }

  // The output of the last timed launch against the reference of the set it read (not with
  // shared inputs: the configurations sharing C overwrite each other's), then one more launch
  // on a NaN-filled C: a kernel that stopped working during the samples leaves NaNs.
  void checkTimedOutput(const KernelDescriptor& k, CaseResult& c) override {
    recordInputSets(c, int(m_sets.size()), m_shared ? 1 : m_run.freshInputs);
    if (!c.verification || m_sets.empty()) return;
    const Tolerance tol = c.verification->tolerance;
    GemmSession& session = m_run.session;
    CompareReport r;
    if (!m_shared) r = session.compareOutput(k, inputsOf(m_rotation->last()), m_inputs->c(), tol);
    if (r.passed()) {
      fillNan();
      const int j = m_rotation->next();
      k.launch(m_sets[std::size_t(j)]);
      r = session.compareOutput(k, inputsOf(j), m_inputs->c(), tol);
    }
    c.verification->timedOutput = r;
  }

  // Fresh inputs after timing: catches a user kernel that replays a cached C.
  std::function<void(CaseResult&)> afterTiming(const KernelDescriptor& k) override {
    if (!isUserKernel(k)) return {};
    GemmSession* session = &m_run.session;
    const Shape shape = m_inputs->shape();
    const std::uint64_t seed = freshSeed(m_inputs->seed());
    return [session, &k, shape, seed](CaseResult& r) {
      const CaseResult again = session->verifyCase(k, shape, seed);
      if (!isGood(again.status)) {
        r.status = again.status;
        r.message = "second seed (after timing): " + again.message;
      }
    };
  }

 private:
  // Up to freshInputs − 1 more seeded sets of A and B, as many as fit the device memory.
  void addFreshInputs(const KernelDescriptor& k) {
    for (int j = 1; j < m_run.freshInputs; ++j) {
      try {
        m_extra.push_back(
            m_run.session.prepare(k, m_inputs->shape(), inputSetSeed(m_inputs->seed(), j), false));
      } catch (const InputError&) {
        break;  // no room: fewer sets, recorded in the case's inputSets
      }
    }
  }
  PreparedCase& inputsOf(int set) { return set == 0 ? *m_inputs : *m_extra[std::size_t(set - 1)]; }
  void fillNan() {
    const Shape& s = m_inputs->shape();
    KWB_CUDA_CHECK(cudaMemsetAsync(m_inputs->c(), 0xFF, std::size_t(s.m) * std::size_t(s.n) * 4,
                                   m_run.session.stream()));
  }

  GemmRun& m_run;
  std::shared_ptr<PreparedCase> m_inputs;
  bool m_shared;  // with the other configurations of its kernel: counted once, by none
  std::vector<std::unique_ptr<PreparedCase>> m_extra;  // --fresh-inputs: sets 1 … K − 1
  std::vector<GemmArgs> m_sets;                        // every set's timed launch, writing C
  std::shared_ptr<InputRotation> m_rotation = std::make_shared<InputRotation>(1);
};

class GemmDriver : public FamilyDriver {
 public:
  GemmDriver() : m_family(gemmFamily()) {}
  const Family& family() const override { return m_family; }

  std::unique_ptr<FamilyCase> prepare(const KernelDescriptor& k, const CaseSize& size,
                                      const DriverContext& ctx) override {
    if (!k.launch) throw InputError(k.id + " has no GEMM launcher");
    GemmRun& run = gemmRun(ctx);
    const Shape shape = shapeOf(size);
    // Over --max-case-seconds: recorded as skipped with the estimate, like a shape too large.
    static const std::vector<CaseResult> none;
    if (const auto why = run.gate.skipReason(k, shape, ctx.done ? *ctx.done : none))
      throw InputError(*why);
    // Configurations of one kernel share their inputs; any other case prepares its own.
    const std::string key =
        ctx.config ? std::string(baseKernelId(k.id)) + " " + toString(shape) : std::string();
    if (key.empty() || key != run.inputsKey) {
      run.inputs.reset();  // the run's own reference goes; a block may still hold them
      run.inputsKey.clear();
      run.inputs = run.session.prepare(k, shape, ctx.seed);
      run.inputsKey = key;
    }
    std::shared_ptr<PreparedCase> inputs = run.inputs;
    if (key.empty()) {
      run.inputs.reset();
      run.inputsKey.clear();
    }
    return std::make_unique<GemmCase>(run, std::move(inputs), !key.empty());
  }

  // cublas.sgemm against a double-precision CPU GEMM, whichever kernel the plan has.
  KnownAnswer knownAnswer(const KernelDescriptor& /*k*/, const DriverContext& ctx) override {
    return gemmRun(ctx).session.knownAnswerTest();
  }

 private:
  Family m_family;
};

}  // namespace

std::shared_ptr<FamilyDriver> gemmDriver() { return std::make_shared<GemmDriver>(); }

}  // namespace kwb::cuda
