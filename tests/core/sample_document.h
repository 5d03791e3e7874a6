// SPDX-License-Identifier: Apache-2.0
#pragma once
// A small, fully populated results document for the I/O tests.
#include <cmath>

#include "kwb/events.h"
#include "kwb/results.h"

inline kwb::RunDocument makeSampleDocument() {
  kwb::RunDocument d;
  d.toolVersion = "0.1.0";
  d.gitRevision = "abc123";
  d.timestamp = "2026-11-22T00:00:00Z";
  d.host = "testhost";
  kwb::DeviceInfo dev;
  dev.name = "Test GPU";
  dev.ccMajor = 9;
  dev.smCount = 132;
  dev.smClockMhz = 1980;
  dev.memClockMhz = 2619;
  dev.memBusWidthBits = 5120;
  dev.maxBlockDim[0] = 1024;
  kwb::derivePeaks(dev);
  d.device = dev;
  d.settings.suite = "quick";
  d.settings.seed = 42;
  d.knownAnswer = {true, true, "cublas.sgemm vs cpu.fp64", {64, 64, 64}, 1e-7};
  kwb::CaseResult c;
  c.kernel = "sgemm.tiled";
  c.size = kwb::gemmSize({1024, 1024, 1024});
  c.status = kwb::CaseStatus::kFail;
  c.ranKernel = "sgemm.tiled";
  kwb::Verification v;
  v.reference = "cublas.sgemm";
  v.seed = 42;
  v.unwritten = 3;
  v.compare.elements = 1 << 20;
  v.compare.mismatches = 2;
  v.compare.nonFinite = 1;
  v.compare.firstMismatch = kwb::Mismatch{3, 4, std::nan(""), 1.5};
  v.compare.grid = kwb::ErrorGrid{2, 2, {0.25, std::nan(""), 0.0, 1e-6}, {1, 1, 0, 0}};
  v.negativeControlRejected = true;
  v.alphaBeta = kwb::CompareReport{};
  v.alphaBeta->firstMismatch = kwb::Mismatch{0, 1, INFINITY, -2.0};
  c.verification = v;
  c.samplesMs = {1.0, 1.1, 0.9};
  c.summary.count = 3;
  c.summary.median = 1.0;
  c.gflops = 2147.5;
  c.pctOfFp32Reference = 12.5;
  c.clocks.available = true;
  c.clocks.throttleReasons = {"power cap"};
  d.cases.push_back(c);
  kwb::CaseResult tc = c;
  tc.kernel = "sgemm.tensor_core";
  tc.size = kwb::gemmSize({17, 19, 23});
  tc.precision = kwb::Precision::kFp16Fp32Acc;
  tc.status = kwb::CaseStatus::kFallback;
  tc.fallback = true;
  tc.ranKernel = "sgemm.double_buffer";
  tc.verification.reset();
  tc.pctOfFp32Reference.reset();
  tc.pctOfFp16Reference = 40.0;
  d.cases.push_back(tc);
  d.progression.checked = true;
  d.progression.violations.push_back({{512, 512, 512}, "sgemm.tiled", "sgemm.bank_free", 900, 850});
  d.wallSeconds = 12.5;
  kwb::listMissingKernels(d);  // as an engine lists them, so the document round-trips
  kwb::listMissingFamilies(d);
  return d;
}

// The events a run of `doc` emits, in order.
inline std::vector<kwb::StreamEvent> sampleEvents(const kwb::RunDocument& doc) {
  std::vector<kwb::StreamEvent> out;
  kwb::StreamEvent hello(kwb::EventType::kHello);
  hello.toolVersion = doc.toolVersion;
  hello.gitRevision = doc.gitRevision;
  hello.host = doc.host;
  hello.timestamp = doc.timestamp;
  out.push_back(hello);
  kwb::StreamEvent dev(kwb::EventType::kDevice);
  dev.device = doc.device;
  out.push_back(dev);
  kwb::StreamEvent plan(kwb::EventType::kPlan);
  plan.settings = doc.settings;
  for (const auto& c : doc.cases) plan.plan.push_back({c.kernel, c.size});
  plan.kernels = doc.kernels;
  plan.families = doc.families;
  out.push_back(plan);
  for (std::size_t i = 0; i < doc.cases.size(); ++i) {
    kwb::StreamEvent s(kwb::EventType::kCaseStarted);
    s.index = int(i);
    s.planned = plan.plan[i];
    out.push_back(s);
    kwb::StreamEvent f(kwb::isGood(doc.cases[i].status) ? kwb::EventType::kCaseFinished
                                                        : kwb::EventType::kCaseFailed);
    f.index = int(i);
    f.result = doc.cases[i];
    out.push_back(f);
  }
  kwb::StreamEvent log(kwb::EventType::kLog);
  log.level = "info";
  log.message = "done";
  out.push_back(log);
  kwb::StreamEvent done(kwb::EventType::kDone);
  done.exitCode = 1;
  done.knownAnswer = doc.knownAnswer;
  done.progression = doc.progression;
  done.wallSeconds = doc.wallSeconds;
  out.push_back(done);
  return out;
}
