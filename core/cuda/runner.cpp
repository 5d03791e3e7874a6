#include "kwb/cuda/runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <tuple>

#include "kwb/cuda/case_gate.h"
#include "kwb/cuda/check.h"
#include "kwb/cuda/cupti_tracer.h"
#include "kwb/cuda/device.h"
#include "kwb/cuda/gemm_session.h"
#include "kwb/cuda/nvml_sampler.h"
#include "kwb/cuda/user_guard.h"
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
namespace {

// The document's kernel list: one entry per kernel the plan names (a configuration counts as
// its kernel), stages in family and stage order, then the references.
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

}  // namespace

std::vector<PlanCase> orderPlan(const std::vector<const KernelDescriptor*>& kernels,
                                const std::vector<Shape>& shapes) {
  std::vector<PlanCase> plan;
  for (const Shape& s : shapes) {
    for (const auto* k : kernels)  // GEMM kernels only: 1-D ones take orderVectorPlan
      if (k->reference && k->problem == "gemm") plan.push_back({k, s, std::nullopt});
    for (const auto* k : kernels)
      if (!k->reference && k->problem == "gemm") plan.push_back({k, s, std::nullopt});
  }
  return plan;
}

std::vector<PlanCase> resolvePlan(const KernelRegistry& registry,
                                  const std::vector<PlannedCase>& plan) {
  std::vector<PlanCase> out;
  out.reserve(plan.size());
  for (const auto& p : plan) {
    const KernelDescriptor* k = &registry.find(p.kernel);
    if (p.problem != "gemm" && k->problem != p.problem)
      throw InputError(p.kernel + " is not a kernel of the " + p.problem + " family");
    out.push_back({k, p.shape, std::nullopt,
                   VectorSize{p.count, p.problem == "gemm" ? ElementType::kFloat32
                                                           : parseElementType(p.elementType)}});
  }
  return out;
}

RunDocument runPlan(const KernelRegistry& registry, const std::vector<PlannedCase>& plan,
                    const RunConfig& cfg, const EventSink& sink,
                    const std::function<bool()>& cancelled) {
  return runPlan(resolvePlan(registry, plan), cfg, sink, cancelled);
}

RunDocument runPlan(const std::vector<PlanCase>& plan, const RunConfig& cfg, const EventSink& sink,
                    const std::function<bool()>& cancelled) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  auto emit = [&](StreamEvent e) {
    e.elapsedS = elapsed();
    sink(e);
  };
  auto log = [&](const std::string& level, const std::string& msg) {
    StreamEvent e(EventType::kLog);
    e.level = level;
    e.message = msg;
    emit(e);
  };

  RunDocument doc = stampedDocument(cfg.toolVersion, cfg.gitRevision);
  doc.settings.suite = cfg.suite;
  doc.settings.seed = cfg.seed;
  doc.settings.verifyOnly = cfg.verifyOnly;
  if (!cfg.verifyOnly) recordMeasureOptions(cfg.measure, doc.settings);  // nothing is timed
  doc.settings.profiler = cfg.profiler;
  doc.kernels = planKernels(plan);

  StreamEvent hello(EventType::kHello);
  hello.toolVersion = doc.toolVersion;
  hello.gitRevision = doc.gitRevision;
  hello.host = doc.host;
  hello.timestamp = doc.timestamp;
  emit(hello);

  doc.device = queryDevice(cfg.device);  // NoDeviceError → exit 3, before any case
  KWB_CUDA_CHECK(cudaSetDevice(cfg.device));
  // The memory families' roof: a device-to-device copy, measured once at run start.
  const bool anyVector = std::any_of(plan.begin(), plan.end(),
                                     [](const PlanCase& p) { return p.kernel->problem != "gemm"; });
  const bool anyGemm = std::any_of(plan.begin(), plan.end(),
                                   [](const PlanCase& p) { return p.kernel->problem == "gemm"; });
  if (anyVector && !cfg.verifyOnly) {
    const Stream copyStream;
    doc.device->copyBandwidthGBs = measureCopyBandwidth(copyStream.get(), cfg.measure);
  }
  StreamEvent dev(EventType::kDevice);
  dev.device = doc.device;
  emit(dev);

  StreamEvent planEvent(EventType::kPlan);
  planEvent.settings = doc.settings;
  for (const PlanCase& p : plan) planEvent.plan.push_back(plannedCase(p));
  planEvent.kernels = doc.kernels;
  emit(planEvent);

  RunState st(cfg, *doc.device);
  if (anyGemm || !anyVector) doc.knownAnswer = st.session.knownAnswerTest();
  if (const auto ka = vectorKnownAnswers(plan, st.vectors)) {
    if (!anyGemm) {
      doc.knownAnswer = *ka;
    } else {
      doc.knownAnswer.passed = doc.knownAnswer.passed && ka->passed;
      doc.knownAnswer.detail += "; " + ka->detail;
    }
  }
  log(doc.knownAnswer.passed ? "info" : "error",
      std::string("known-answer test ") + (doc.knownAnswer.passed ? "passed: " : "FAILED: ") +
          doc.knownAnswer.detail);
  if (doc.device->copyBandwidthGBs > 0)
    log("info", "device-to-device copy: " + fixed(doc.device->copyBandwidthGBs, 1) +
                    " GB/s read + write (the roof of the memory-bound families)");
  if (!cfg.profilerNote.empty()) log("warn", cfg.profilerNote);
  if (!cfg.verifyOnly && !st.nvml.available())
    log("warn", "clocks not sampled: " + st.nvml.whyUnavailable());
  // The host timer also serves under profilers that serialise launches, where a stream held
  // by the blocking kernel would wait for its time-out: it measures no GPU launch overhead.
  if (!cfg.verifyOnly && cfg.measure.timer != TimerMode::kHost) {
    doc.launchOverhead = measureLaunchOverhead(st.session.stream());
    log("info", "timer: " + std::string(timerLabel(cfg.measure.timer)) +
                    "; an empty kernel takes " + fixed(doc.launchOverhead->isolatedUs, 2) +
                    " us isolated, " + fixed(doc.launchOverhead->backToBackUs, 2) +
                    " us back-to-back (reported, never subtracted)");
  }

  std::string stopReason;    // set once the run cannot go on
  bool contextLost = false;  // a case's verification lost the CUDA context
  const auto warn = [&](const std::string& m) { log("warn", m); };
  // Cases verified and waiting for their rounds; timed together, finished in plan order.
  std::vector<PendingCase> block;
  std::size_t blockBytes = 0;
  const double budget = kBlockMemoryShare * double(doc.device->totalMemoryBytes);
  auto finishCase = [&](CaseResult c, std::size_t i) {
    const PlanCase& p = plan[i];
    c.config = p.config;
    if (!p.ranAs.empty() && !c.fallback) c.ranKernel = p.ranAs;
    if (const auto* u = findUserKernel(c.kernel)) {  // a user's kernel names its source
      c.sourcePath = u->source.path;
      c.sourceHash = u->hash;
    }
    doc.cases.push_back(c);
    StreamEvent fin(isGood(c.status) ? EventType::kCaseFinished : EventType::kCaseFailed);
    fin.index = int(i);
    fin.result = std::move(c);
    emit(fin);
  };
  auto flush = [&] {
    BlockContext ctx{cfg, st.nvml, &st.device, cancelled, warn};
    // A case of this block lost the context: the verified cases keep their verdicts, untimed.
    ctx.contextLost = contextLost;
    if (!ctx.contextLost) timeBlock(block, ctx, stopReason);
    for (PendingCase& pc : block) {
      finishPending(pc, ctx, doc.cases, block);
      finishCase(pc.result, pc.index);  // a copy: later cases pair with it
    }
    block.clear();
    blockBytes = 0;
  };
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const PlanCase& p = plan[i];
    if (stopReason.empty() && cancelled && cancelled()) stopReason = "cancelled";
    if (!stopReason.empty()) {
      if (!block.empty()) flush();
      finishCase(skippedPlanCase(p, stopReason), i);
      continue;
    }
    StreamEvent started(EventType::kCaseStarted);
    started.index = int(i);
    started.planned = plannedCase(p);
    emit(started);
    // Under --case-timeout a user's kernel may never return: what is verified so far is timed
    // and finished first, so the engine's end keeps it.
    if (cfg.isolateUserKernels && p.kernel->family == "user" && !block.empty()) flush();
    if (cfg.heartbeat) cfg.heartbeat(int(i));
    auto start = [&] {
      PendingCase pc;
      if (cfg.startElsewhere && cfg.startElsewhere(p, pc)) return pc;
      return startCase(p, cfg, st, doc.cases, stopReason);
    };
    PendingCase pc = start();
    // The block's inputs may be what left too little memory: time the block, free it, retry.
    if (pc.result.status == CaseStatus::kSkipped && !block.empty() && stopReason.empty()) {
      flush();
      pc = start();
    }
    contextLost = !stopReason.empty();  // the start functions set it only for a lost context
    pc.index = i;
    blockBytes += pc.deviceBytes;
    block.push_back(std::move(pc));
    // A block ends with the plan, or at a change of size once it holds its share of memory.
    const bool last = i + 1 == plan.size();
    const bool sizeEnds = last || plan[i + 1].kernel->problem != p.kernel->problem ||
                          plan[i + 1].shape != p.shape || !(plan[i + 1].size == p.size);
    if (last || !stopReason.empty() || cfg.verifyOnly || (sizeEnds && double(blockBytes) >= budget))
      flush();
  }

  if (!cfg.verifyOnly) doc.progression = checkProgression(doc);
  doc.wallSeconds = elapsed();
  StreamEvent done(EventType::kDone);
  done.exitCode = cancelled && cancelled() ? kExitInterrupted
                  : allPassed(doc)         ? kExitOk
                                           : kExitCaseFailed;
  done.knownAnswer = doc.knownAnswer;
  done.progression = doc.progression;
  done.wallSeconds = doc.wallSeconds;
  done.launchOverhead = doc.launchOverhead;
  emit(done);
  return doc;
}

}  // namespace kwb::cuda
