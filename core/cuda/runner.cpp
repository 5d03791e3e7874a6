#include "kwb/cuda/runner.h"

#include <chrono>
#include <cstdio>
#include <memory>

#include "kwb/cuda/check.h"
#include "kwb/cuda/cupti_tracer.h"
#include "kwb/cuda/device.h"
#include "kwb/cuda/gemm_session.h"
#include "kwb/cuda/nvml_sampler.h"
#include "kwb/cuda/user_guard.h"
#include "kwb/error.h"
#include "kwb/run_info.h"
#include "kwb/progression.h"

namespace kwb::cuda {
namespace {

std::string fixedText(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

void recordMeasurement(const Measurement& m, const MeasureOptions& opt, CaseResult& c) {
  c.samplesMs = m.samplesMs;
  c.launchesPerSample = m.launchesPerSample;
  c.coldL2 = opt.coldL2;
  c.timer = m.timer;
  c.timerNote = m.timerNote;
  c.throttledSamples = m.throttledSamples;
  c.warmupSmClockMhz = m.warmupSmClockMhz;
  c.kernels = m.kernels;
  c.cuptiMedianMs = m.cuptiMedianMs;
  c.summary = stats::summarize(c.samplesMs);
  c.timerVsCuptiPct.reset();
  if (m.cuptiMedianMs && *m.cuptiMedianMs > 0 && c.summary.median > 0)
    c.timerVsCuptiPct = 100.0 * (c.summary.median - *m.cuptiMedianMs) / *m.cuptiMedianMs;
  if (c.samplesMs.empty() && m.throttledSamples > 0)
    c.timerNote += std::string(c.timerNote.empty() ? "" : "; ") + "all " +
                   std::to_string(m.throttledSamples) + " samples were taken below " +
                   fixedText(100 * opt.throttleFraction, 0) +
                   "% of the warm-up SM clock and dropped";
  deriveThroughput(c);
}

std::vector<PlannedCase> orderPlan(const std::vector<const KernelDescriptor*>& kernels,
                                   const std::vector<Shape>& shapes) {
  std::vector<PlannedCase> plan;
  for (const Shape& s : shapes) {
    for (const auto* k : kernels)
      if (k->reference) plan.push_back({k->id, s});
    for (const auto* k : kernels)
      if (!k->reference) plan.push_back({k->id, s});
  }
  return plan;
}

void deriveThroughput(CaseResult& c) {
  const double ms = c.summary.median;
  if (ms <= 0) return;
  const Shape& s = c.shape;
  const double inputBytes = c.precision == Precision::kFp16Fp32Acc ? 2.0 : 4.0;
  const double m = double(s.m), n = double(s.n), k = double(s.k);
  const double bytes = inputBytes * (m * k + k * n) + 4.0 * m * n;
  c.gflops = s.flops() / (ms * 1e6);
  c.arithmeticIntensity = s.flops() / bytes;
  c.bandwidthGBs = bytes / (ms * 1e6);
}

void fillPercentOfReference(CaseResult& c, const std::vector<CaseResult>& done) {
  auto refGflops = [&](const char* id) -> double {
    for (const auto& r : done)
      if (r.kernel == id && r.shape == c.shape && r.timed() && isGood(r.status)) return r.gflops;
    return 0.0;
  };
  if (c.gflops <= 0) return;
  if (const double fp32 = refGflops("cublas.sgemm"); fp32 > 0 && c.kernel != "cublas.sgemm")
    c.pctOfFp32Reference = 100.0 * c.gflops / fp32;
  if (c.precision == Precision::kFp16Fp32Acc && c.kernel != "cublas.hgemm_f32acc")
    if (const double fp16 = refGflops("cublas.hgemm_f32acc"); fp16 > 0)
      c.pctOfFp16Reference = 100.0 * c.gflops / fp16;
}

RunDocument runPlan(const KernelRegistry& registry, const std::vector<PlannedCase>& plan,
                    const RunConfig& cfg, const EventSink& sink,
                    const std::function<bool()>& cancelled) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  auto emit = [&](Event e) {
    e.elapsedS = elapsed();
    sink(e);
  };
  auto log = [&](const std::string& level, const std::string& msg) {
    Event e(EventType::kLog);
    e.level = level;
    e.message = msg;
    emit(e);
  };

  RunDocument doc = stampedDocument(cfg.toolVersion, cfg.gitRevision);
  doc.settings.suite = cfg.suite;
  doc.settings.seed = cfg.seed;
  doc.settings.verifyOnly = cfg.verifyOnly;
  recordMeasureOptions(cfg.measure, doc.settings);

  Event hello(EventType::kHello);
  hello.toolVersion = doc.toolVersion;
  hello.gitRevision = doc.gitRevision;
  hello.host = doc.host;
  hello.timestamp = doc.timestamp;
  emit(hello);

  doc.device = queryDevice(cfg.device);  // NoDeviceError → exit 3, before any case
  KWB_CUDA_CHECK(cudaSetDevice(cfg.device));
  Event dev(EventType::kDevice);
  dev.device = doc.device;
  emit(dev);

  Event planEvent(EventType::kPlan);
  planEvent.settings = doc.settings;
  planEvent.plan = plan;
  emit(planEvent);

  GemmSession session(cfg.device);
  doc.knownAnswer = session.knownAnswerTest();
  log(doc.knownAnswer.passed ? "info" : "error",
      std::string("known-answer test ") + (doc.knownAnswer.passed ? "passed: " : "FAILED: ") +
          doc.knownAnswer.detail);

  std::unique_ptr<L2Flusher> flusher;
  if (cfg.measure.coldL2 && !cfg.verifyOnly)
    flusher = std::make_unique<L2Flusher>(std::size_t(doc.device->l2Bytes));
  NvmlSampler nvml(cfg.device);
  if (!nvml.available()) log("warn", "clocks not sampled: " + nvml.whyUnavailable());
  // The host timer also serves under profilers that serialise launches, where a stream held
  // by the blocking kernel would wait for its time-out: it measures no GPU launch overhead.
  if (!cfg.verifyOnly && cfg.measure.timer != TimerMode::kHost) {
    doc.launchOverhead = measureLaunchOverhead(session.stream());
    log("info", "timer: " + std::string(timerLabel(cfg.measure.timer)) +
                    "; an empty kernel takes " + fixedText(doc.launchOverhead->isolatedUs, 2) +
                    " us isolated, " + fixedText(doc.launchOverhead->backToBackUs, 2) +
                    " us back-to-back (reported, never subtracted)");
  }

  std::string stopReason;  // set once the run cannot go on
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const KernelDescriptor& k = registry.find(plan[i].kernel);
    const Shape& shape = plan[i].shape;
    if (stopReason.empty() && cancelled && cancelled()) stopReason = "cancelled";
    if (!stopReason.empty()) {
      doc.cases.push_back(skippedCase(k, shape, stopReason));
      Event e(EventType::kCaseFailed);
      e.index = int(i);
      e.result = doc.cases.back();
      emit(e);
      continue;
    }
    Event started(EventType::kCaseStarted);
    started.index = int(i);
    started.planned = plan[i];
    emit(started);

    CaseResult c;
    try {
      auto prepared = session.prepare(k, shape, cfg.seed);
      // User kernels (docs/BRING_YOUR_OWN.md): first a launch with C between guard regions,
      // so a kernel writing past C fails before it can scribble over the pipeline's buffers.
      const bool user = k.family == "user";
      const std::string outside = user ? guardViolation(k, *prepared, session.stream()) : "";
      if (outside.empty()) {
        c = session.verify(k, *prepared);
      } else {
        c = skippedCase(k, shape, outside);
        c.status = CaseStatus::kFail;
      }
      if (isGood(c.status) && !cfg.verifyOnly) {
        const GemmArgs args = prepared->args(1.0f, 0.0f);
        nvml.start();
        const Measurement m = measure([&] { k.launch(args); }, session.stream(), cfg.measure,
                                      flusher.get(), cancelled);
        c.clocks = nvml.stop();
        recordMeasurement(m, cfg.measure, c);
        fillPercentOfReference(c, doc.cases);
        if (!m.cuptiNote.empty()) log("warn", k.id + " " + toString(shape) + ": " + m.cuptiNote);
        if (user) {  // fresh inputs after timing: catches a kernel that replays a cached C
          prepared.reset();
          const CaseResult again = session.verifyCase(k, shape, freshSeed(cfg.seed));
          if (!isGood(again.status)) {
            c.status = again.status;
            c.message = "second seed (after timing): " + again.message;
          }
        }
      }
    } catch (const InputError& e) {
      c = skippedCase(k, shape, e.what());  // e.g. too large for device memory
    } catch (const CuptiUnavailable& e) {
      c.clocks = nvml.stop();
      c.status = CaseStatus::kError;
      c.message = std::string("--timer cupti: CUPTI unavailable: ") + e.what();
    } catch (const ContextLost& e) {
      c = e.result();
      stopReason = "not run: the CUDA context was lost after " + k.id + " " + toString(shape);
    } catch (const CudaError& e) {
      c.clocks = nvml.stop();
      c.kernel = k.id;
      c.shape = shape;
      c.precision = k.precision;
      c.status = CaseStatus::kError;
      c.message = e.what();
      if (e.sticky())
        stopReason = "not run: the CUDA context was lost after " + k.id + " " + toString(shape);
    }
    doc.cases.push_back(c);
    Event fin(isGood(c.status) ? EventType::kCaseFinished : EventType::kCaseFailed);
    fin.index = int(i);
    fin.result = c;
    emit(fin);
  }

  if (!cfg.verifyOnly)
    doc.progression = checkProgression(doc.cases, [&](std::string_view id) {
      const auto* k = registry.tryFind(id);
      return k && !k->reference ? k->stage : 0;
    });
  doc.wallSeconds = elapsed();
  Event done(EventType::kDone);
  bool allGood = doc.knownAnswer.passed;
  for (const auto& c : doc.cases) allGood = allGood && isGood(c.status);
  done.exitCode = allGood ? kExitOk : kExitCaseFailed;
  done.knownAnswer = doc.knownAnswer;
  done.progression = doc.progression;
  done.wallSeconds = doc.wallSeconds;
  done.launchOverhead = doc.launchOverhead;
  emit(done);
  return doc;
}

}  // namespace kwb::cuda
