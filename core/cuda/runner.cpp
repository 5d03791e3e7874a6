// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/runner.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <cstdio>
#include <memory>
#include <tuple>

#include "kwb/cuda/check.h"
#include "kwb/cuda/cupti_tracer.h"
#include "kwb/cuda/device.h"
#include "kwb/cuda/family_driver.h"
#include "kwb/cuda/nvml_sampler.h"
#include "kwb/cuda/user_kernel.h"
#include "kwb/cuda/stream.h"
#include "kwb/cuda/vector_session.h"
#include "case_block.h"
#include "case_start.h"
#include "kwb/error.h"
#include "kwb/format.h"
#include "kwb/progression.h"
#include "kwb/run_info.h"

namespace kwb::cuda {

std::vector<KernelInfo> planKernels(const std::vector<PlanCase>& plan) {
  std::vector<KernelInfo> out;
  for (const PlanCase& p : plan) {
    KernelInfo k = kernelInfo(*p.kernel);
    k.id = std::string(baseKernelId(k.id));
    if (std::none_of(out.begin(), out.end(), [&](const KernelInfo& o) { return o.id == k.id; }))
      out.push_back(std::move(k));
  }
  std::stable_sort(out.begin(), out.end(), [](const KernelInfo& a, const KernelInfo& b) {
    return std::tie(a.reference, a.family, a.stage) < std::tie(b.reference, b.family, b.stage);
  });
  return out;
}

std::vector<FamilyInfo> planFamilies(const std::vector<PlanCase>& plan) {
  std::vector<FamilyInfo> out;
  for (const PlanCase& p : plan)
    if (const Family* f = tryFindFamily(p.size.family);
        f &&
        std::none_of(out.begin(), out.end(), [&](const FamilyInfo& g) { return g.id == f->id; }))
      out.push_back(*f);
  return out;
}

PlannedCase plannedCase(const PlanCase& p) { return {p.kernel->id, p.size}; }

RunSettings documentSettings(const RunConfig& cfg) {
  RunSettings s;
  s.suite = cfg.suite;
  s.seed = cfg.seed;
  s.verifyOnly = cfg.verifyOnly;
  if (!cfg.verifyOnly) {  // none timed
    recordMeasureOptions(cfg.measure, s);
    s.freshInputs = cfg.freshInputs;
  }
  s.profiler = cfg.profiler;
  return s;
}

CaseResult skippedPlanCase(const PlanCase& p, const std::string& why) {
  return skippedCase(*p.kernel, p.size, why);
}

std::vector<PlanCase> orderPlan(const std::vector<const KernelDescriptor*>& kernels,
                                const std::vector<CaseSize>& sizes) {
  std::vector<PlanCase> plan;
  for (const CaseSize& s : sizes)
    for (const bool refs : {true, false})
      for (const auto* k : kernels)
        if (k->problem == s.family && k->reference == refs) plan.push_back({k, s, std::nullopt});
  return plan;
}

std::vector<PlanCase> orderVectorPlan(const std::vector<const KernelDescriptor*>& kernels,
                                      const Family& family, const std::vector<std::int64_t>& counts,
                                      const std::vector<ElementType>& types) {
  return orderPlan(kernels, vectorSizes(family.id, counts, types));
}

std::vector<PlanCase> orderPlan(const std::vector<const KernelDescriptor*>& kernels,
                                const std::vector<Shape>& shapes) {
  std::vector<CaseSize> sizes(shapes.begin(), shapes.end());  // each a size of the gemm family
  return orderPlan(kernels, sizes);
}

std::vector<PlanCase> resolvePlan(const KernelRegistry& registry,
                                  const std::vector<PlannedCase>& plan) {
  std::vector<PlanCase> out;
  out.reserve(plan.size());
  for (const auto& p : plan) {
    const KernelDescriptor* k = &registry.find(p.kernel);
    if (k->problem != p.size.family)
      throw InputError(p.kernel + " is not a kernel of the " + p.size.family + " family");
    out.push_back({k, p.size, std::nullopt});
  }
  return out;
}

RunDocument runPlan(const KernelRegistry& registry, const std::vector<PlannedCase>& plan,
                    const RunConfig& cfg, const EventSink& sink,
                    const std::function<bool()>& cancelled) {
  return runPlan(resolvePlan(registry, plan), cfg, sink, cancelled);
}

namespace {

// What this process's runs measured once on a device (RunConfig::reuseDeviceFacts), and the
// engine's state those runs share: a pool's worker runs shard after shard with one command line,
// so one settings. Each run making its own state (a stream, NVML, the drivers' cuBLAS handle)
// measured 3-11% slower for every kernel under 15 us from a worker's second shard on, on two
// H200s (docs/SCALE_OUT.md); one kept state measured as a plain run.
struct DeviceFacts {
  std::optional<double> copyGBs;
  std::optional<LaunchOverhead> launchOverhead;
  std::map<std::string, KnownAnswer> knownAnswers;  // by family, kernel and seed
  RunState* state = nullptr;  // never freed: the CUDA runtime may be gone at static destruction
};

DeviceFacts* factsFor(const RunConfig& cfg) {
  static std::map<int, DeviceFacts> byDevice;
  return cfg.reuseDeviceFacts ? &byDevice[cfg.device] : nullptr;
}

// One run of a plan (runPlan): the document it builds, the events it emits and the block of
// cases verified and waiting to be timed.
class PlanRun {
 public:
  PlanRun(const std::vector<PlanCase>& plan, const RunConfig& cfg, const EventSink& sink,
          const std::function<bool()>& cancelled)
      : m_plan(plan), m_cfg(cfg), m_sink(sink), m_cancelled(cancelled), m_t0(Clock::now()) {}

  RunDocument run() {
    startDocument();
    if (DeviceFacts* facts = factsFor(m_cfg)) {
      if (!facts->state) facts->state = new RunState(m_cfg, *m_doc.device);
      m_state = facts->state;
    } else {
      m_own = std::make_unique<RunState>(m_cfg, *m_doc.device);
      m_state = m_own.get();
    }
    checkKnownAnswers();
    logTimer();
    m_started.assign(m_plan.size(), false);
    for (std::size_t i = 0; i < m_plan.size(); ++i) runCase(i);
    continueDeferred();
    return finishDocument();
  }

 private:
  using Clock = std::chrono::steady_clock;

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - m_t0).count(); }
  void emit(StreamEvent e) const {
    e.elapsedS = elapsed();
    m_sink(e);
  }
  void log(const std::string& level, const std::string& msg) const {
    StreamEvent e(EventType::kLog);
    e.level = level;
    e.message = msg;
    emit(e);
  }
  // A family of the plan is held against the copy roof.
  bool anyMemoryBound() const {
    return std::any_of(m_doc.families.begin(), m_doc.families.end(),
                       [](const FamilyInfo& f) { return f.memoryBound(); });
  }

  // The document's header, hello, device (with the copy roof of the memory families) and plan.
  void startDocument() {
    m_doc = stampedDocument(m_cfg.toolVersion, m_cfg.gitRevision);
    m_doc.settings = documentSettings(m_cfg);
    m_doc.kernels = planKernels(m_plan);
    for (const PlanCase& p : m_plan) (void)findFamilyDriver(p.size.family);  // GEMM's catalogued
    m_doc.families = planFamilies(m_plan);

    StreamEvent hello(EventType::kHello);
    hello.toolVersion = m_doc.toolVersion;
    hello.gitRevision = m_doc.gitRevision;
    hello.host = m_doc.host;
    hello.timestamp = m_doc.timestamp;
    emit(hello);

    m_doc.device = queryDevice(m_cfg.device);  // NoDeviceError → exit 3, before any case
    KWB_CUDA_CHECK(cudaSetDevice(m_cfg.device));
    // The memory families' roof: a device-to-device copy, measured once at run start.
    if (anyMemoryBound() && !m_cfg.verifyOnly) {
      DeviceFacts* facts = factsFor(m_cfg);
      double& gbs = m_doc.device->copyBandwidthGBs;
      if (facts && facts->copyGBs) {
        gbs = *facts->copyGBs;
      } else {
        const Stream copyStream;
        gbs = measureCopyBandwidth(copyStream.get(), m_cfg.measure);
        if (facts) facts->copyGBs = gbs;
      }
    }
    StreamEvent dev(EventType::kDevice);
    dev.device = m_doc.device;
    emit(dev);

    StreamEvent planEvent(EventType::kPlan);
    planEvent.settings = m_doc.settings;
    for (const PlanCase& p : m_plan) planEvent.plan.push_back(plannedCase(p));
    planEvent.kernels = m_doc.kernels;
    planEvent.families = m_doc.families;
    emit(planEvent);
  }

  void checkKnownAnswers() {
    KnownAnswer& ka = m_doc.knownAnswer;
    DeviceFacts* facts = factsFor(m_cfg);
    if (const auto answered =
            knownAnswers(m_plan, m_cfg, *m_state, facts ? &facts->knownAnswers : nullptr))
      ka = *answered;
    if (!ka.ran) return;
    log(ka.passed ? "info" : "error",
        std::string("known-answer test ") + (ka.passed ? "passed: " : "FAILED: ") + ka.detail);
  }

  void logTimer() {
    if (m_doc.device->copyBandwidthGBs > 0)
      log("info", "device-to-device copy: " + fixed(m_doc.device->copyBandwidthGBs, 1) +
                      " GB/s read + write (the roof of the memory-bound families)");
    if (!m_cfg.profilerNote.empty()) log("warn", m_cfg.profilerNote);
    if (!m_cfg.verifyOnly && !m_state->nvml.available())
      log("warn", "clocks not sampled: " + m_state->nvml.whyUnavailable());
    // The host timer also serves under profilers that serialise launches, where a stream held
    // by the blocking kernel would wait for its time-out: it measures no GPU launch overhead.
    if (m_cfg.verifyOnly || m_cfg.measure.timer == TimerMode::kHost) return;
    DeviceFacts* facts = factsFor(m_cfg);
    if (facts && facts->launchOverhead)
      m_doc.launchOverhead = facts->launchOverhead;
    else
      m_doc.launchOverhead = measureLaunchOverhead(m_state->stream.get());
    if (facts) facts->launchOverhead = m_doc.launchOverhead;
    log("info", "timer: " + std::string(timerLabel(m_cfg.measure.timer)) +
                    "; an empty kernel takes " + fixed(m_doc.launchOverhead->isolatedUs, 2) +
                    " us isolated, " + fixed(m_doc.launchOverhead->backToBackUs, 2) +
                    " us back-to-back (reported, never subtracted)");
  }

  void finishCase(CaseResult c, std::size_t i) {
    const PlanCase& p = m_plan[i];
    c.config = p.config;
    if (!p.ranAs.empty() && !c.fallback) c.ranKernel = p.ranAs;
    if (const auto* u = findUserKernel(c.kernel)) {  // a user's kernel names its source
      c.sourcePath = u->source.path;
      c.sourceHash = u->hash;
    }
    m_doc.cases.push_back(c);
    StreamEvent fin(isGood(c.status) ? EventType::kCaseFinished : EventType::kCaseFailed);
    fin.index = int(i);
    fin.result = std::move(c);
    emit(fin);
  }

  // Times the block in interleaved rounds and finishes its cases in plan order.
  void flush() {
    const auto warn = [this](const std::string& m) { log("warn", m); };
    BlockContext ctx{m_cfg, m_state->nvml, &m_state->device, m_cancelled, warn};
    // A case of this block lost the context: the verified cases keep their verdicts, untimed.
    ctx.contextLost = m_contextLost;
    if (!ctx.contextLost) timeBlock(m_block, ctx, m_stopReason);
    m_lost = m_lost || ctx.contextLost;
    for (PendingCase& pc : m_block) {
      // Verified, not yet timed: a fresh engine verifies and times it again.
      if (continuing() && pc.timing && isGood(pc.result.status)) {
        m_deferred.push_back(pc.index);
        continue;
      }
      finishPending(pc, ctx, m_doc.cases, m_block);
      finishCase(pc.result, pc.index);  // a copy: later cases pair with it
    }
    m_block.clear();
    m_blockBytes = 0;
  }

  PendingCase start(const PlanCase& p) {
    PendingCase pc;
    if (m_cfg.startElsewhere && m_cfg.startElsewhere(p, pc)) return pc;
    return startCase(p, m_cfg, *m_state, m_doc.cases, m_stopReason);
  }

  // Verifies case i into the block; the block is timed when it ends (the plan ends, or a size
  // ends once the block holds its share of device memory) or the run must stop.
  void runCase(std::size_t i) {
    const PlanCase& p = m_plan[i];
    if (m_stopReason.empty() && m_cancelled && m_cancelled()) m_stopReason = "cancelled";
    if (!m_stopReason.empty()) {
      if (!m_block.empty()) flush();
      if (continuing()) {
        m_deferred.push_back(i);
        return;
      }
      finishCase(skippedPlanCase(p, m_stopReason), i);
      return;
    }
    StreamEvent started(EventType::kCaseStarted);
    started.index = int(i);
    started.planned = plannedCase(p);
    m_started[i] = true;
    emit(started);
    // Under --case-timeout a user's kernel may never return: what is verified so far is timed
    // and finished first, so the engine's end keeps it.
    if (m_cfg.isolateUserKernels && p.kernel->family == "user" && !m_block.empty()) flush();
    if (m_cfg.heartbeat) m_cfg.heartbeat(int(i));
    PendingCase pc = start(p);
    // The block's inputs may be what left too little memory: time the block, free it, retry.
    if (pc.result.status == CaseStatus::kSkipped && !m_block.empty() && m_stopReason.empty()) {
      flush();
      pc = start(p);
    }
    m_contextLost = !m_stopReason.empty();  // the start functions set it only for a lost context
    m_lost = m_lost || m_contextLost;
    pc.index = i;
    m_blockBytes += pc.deviceBytes;
    m_block.push_back(std::move(pc));
    const bool last = i + 1 == m_plan.size();
    const bool sizeEnds = last || m_plan[i + 1].size != p.size;
    const double budget = kBlockMemoryShare * double(m_doc.device->totalMemoryBytes);
    if (last || !m_stopReason.empty() || m_cfg.verifyOnly ||
        (sizeEnds && double(m_blockBytes) >= budget))
      flush();
  }

  // The context was lost and the run has somewhere else to go on.
  bool continuing() const { return m_lost && bool(m_cfg.continueElsewhere); }

  // A child engine's event: a case it started (unless this engine already announced it) or
  // finished, or a log line.
  void forward(const StreamEvent& e, std::vector<bool>& reported) {
    if (e.type == EventType::kLog) return emit(e);
    if (e.index < 0 || std::size_t(e.index) >= m_plan.size()) return;
    const auto i = std::size_t(e.index);
    if (e.type == EventType::kCaseStarted) {
      if (m_started[i]) return;
      m_started[i] = true;
    } else if (e.result && !reported[i]) {
      reported[i] = true;
      m_doc.cases.push_back(*e.result);
    } else {
      return;
    }
    emit(e);
  }

  // The cases left after a lost context, run by cfg.continueElsewhere into this document and
  // stream; what it did not report is skipped with its reason.
  void continueDeferred() {
    if (m_deferred.empty()) return;
    std::sort(m_deferred.begin(), m_deferred.end());
    std::vector<bool> reported(m_plan.size(), false);
    std::string why = "cancelled";
    try {
      if (!(m_cancelled && m_cancelled()))
        why = m_cfg.continueElsewhere(m_deferred,
                                      [&](const StreamEvent& e) { forward(e, reported); });
    } catch (const std::exception& e) {
      why = e.what();
    }
    for (const std::size_t i : m_deferred)
      if (!reported[i]) finishCase(skippedPlanCase(m_plan[i], m_stopReason + "; " + why), i);
  }

  RunDocument finishDocument() {
    if (!m_cfg.verifyOnly) m_doc.progression = checkProgression(m_doc);
    m_doc.wallSeconds = elapsed();
    StreamEvent done(EventType::kDone);
    done.exitCode = m_cancelled && m_cancelled() ? kExitInterrupted
                    : allPassed(m_doc)           ? kExitOk
                                                 : kExitCaseFailed;
    done.knownAnswer = m_doc.knownAnswer;
    done.progression = m_doc.progression;
    done.wallSeconds = m_doc.wallSeconds;
    done.launchOverhead = m_doc.launchOverhead;
    emit(done);
    return std::move(m_doc);
  }

  const std::vector<PlanCase>& m_plan;
  const RunConfig& m_cfg;
  const EventSink& m_sink;
  const std::function<bool()>& m_cancelled;
  const Clock::time_point m_t0;
  RunDocument m_doc;
  std::unique_ptr<RunState> m_own;  // this run's state, unless a worker's kept one (DeviceFacts)
  RunState* m_state = nullptr;
  std::string m_stopReason;             // set once the run cannot go on
  bool m_contextLost = false;           // a case's verification lost the CUDA context
  bool m_lost = false;                  // the context was lost, in verification or timing
  std::vector<std::size_t> m_deferred;  // cases left to cfg.continueElsewhere
  std::vector<bool> m_started;          // case_started sent, by plan index
  std::vector<PendingCase> m_block;     // verified, waiting for their rounds
  std::size_t m_blockBytes = 0;
};

}  // namespace

RunDocument runPlan(const std::vector<PlanCase>& plan, const RunConfig& cfg, const EventSink& sink,
                    const std::function<bool()>& cancelled) {
  return PlanRun(plan, cfg, sink, cancelled).run();
}

}  // namespace kwb::cuda
