// SPDX-License-Identifier: Apache-2.0
// A kernel fault is isolated to its case (docs/RELIABILITY.md): a failed launch is an
// `error` and the run goes on; a lost context ends the run cleanly, the cases left skipped
// with the reason, the done event sent and the document returned.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "fault_kernels.h"
#include "gpu_fixture.h"
#include "kwb/cuda/cupti_tracer.h"
#include "kwb/cuda/runner.h"
#include "kwb/error.h"
#include "kwb/events.h"
#include "descriptors.h"

namespace {

kwb::KernelDescriptor testKernel(const char* id, int stage, kwb::LaunchFn fn) {
  kwb::KernelDescriptor d;
  d.id = id;
  d.displayName = id;
  d.family = "test";
  d.stage = stage;
  d.launch = fn;
  return d;
}

kwb::KernelDescriptor illegalAddressKernel() {
  return testKernel("test.illegal_address", 2, [](const kwb::GemmArgs& g) {
    launchIllegalWrite(g.stream);
    return kwb::LaunchInfo{false, "test.illegal_address"};
  });
}

kwb::KernelDescriptor badLaunchKernel() {
  return testKernel("test.bad_launch", 1, [](const kwb::GemmArgs& g) {
    launchBadConfig(g.stream, g.c);
    return kwb::LaunchInfo{false, "test.bad_launch"};
  });
}

// Computes C right (the naive stage) and puts more work on a side stream.
kwb::KernelDescriptor sideStreamKernel() {
  return testKernel("test.side_stream", 1, [](const kwb::GemmArgs& g) {
    const kwb::LaunchInfo info = kwb::kernels::sgemmNaive().launch(g);
    launchOnSideStream();
    return info;
  });
}

struct Recorded {
  std::vector<kwb::StreamEvent> events;
  kwb::RunDocument doc;
};

Recorded run(const kwb::KernelRegistry& registry, const std::vector<kwb::PlannedCase>& plan,
             kwb::cuda::RunConfig cfg = {}) {
  cfg.measure.rule = {
      .minSamples = 3, .maxSamples = 3, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 1};
  Recorded r;
  r.doc = kwb::cuda::runPlan(registry, plan, cfg,
                             [&](const kwb::StreamEvent& e) { r.events.push_back(e); }, {});
  return r;
}

}  // namespace

class FaultIsolation : public GpuTest {};

TEST_F(FaultIsolation, FailedLaunchIsAnErrorAndTheRunGoesOn) {
  const kwb::KernelRegistry registry({badLaunchKernel(), kwb::kernels::sgemmNaive()});
  const kwb::Shape s{64, 48, 80};
  const auto r = run(registry, {{"test.bad_launch", s}, {"sgemm.naive", s}});
  ASSERT_EQ(r.doc.cases.size(), 2u);
  EXPECT_EQ(r.doc.cases[0].status, kwb::CaseStatus::kError);
  // The launch check's message: file:line, the call, the error name (CUDA 13 on an H200 says
  // cudaErrorInvalidValue for a block too large; older runtimes InvalidConfiguration).
  EXPECT_NE(r.doc.cases[0].message.find("cudaGetLastError() failed: cudaErrorInvalid"),
            std::string::npos)
      << r.doc.cases[0].message;
  // The next case saw a device checked after the error, and the case says so.
  EXPECT_NE(r.doc.cases[0].message.find("the device passed its known-answer check after it"),
            std::string::npos)
      << r.doc.cases[0].message;
  // Error texts name the engine's file relative to the project, never the folder kwb was built
  // in: the message starts with that relative path.
  EXPECT_EQ(r.doc.cases[0].message.rfind("tests/gpu/fault_kernels.cu:", 0), 0u)
      << r.doc.cases[0].message;
  EXPECT_EQ(r.doc.cases[1].status, kwb::CaseStatus::kPass) << r.doc.cases[1].message;
  EXPECT_TRUE(r.doc.cases[1].timed());
  ASSERT_FALSE(r.events.empty());
  EXPECT_EQ(r.events.back().type, kwb::EventType::kDone);
  EXPECT_EQ(r.events.back().exitCode, kwb::kExitCaseFailed);
}

TEST_F(FaultIsolation, LostContextEndsTheRunCleanlyWithTheRestSkipped) {
  const kwb::KernelRegistry registry({kwb::kernels::sgemmNaive(), illegalAddressKernel()});
  const kwb::Shape s{64, 48, 80};
  const auto r = run(
      registry,
      {{"sgemm.naive", s}, {"test.illegal_address", s}, {"sgemm.naive", kwb::Shape{32, 32, 32}}});
  ASSERT_EQ(r.doc.cases.size(), 3u);
  EXPECT_EQ(r.doc.cases[0].status, kwb::CaseStatus::kPass);
  EXPECT_EQ(r.doc.cases[1].status, kwb::CaseStatus::kError);
  EXPECT_NE(r.doc.cases[1].message.find("cudaErrorIllegalAddress"), std::string::npos)
      << r.doc.cases[1].message;
  EXPECT_EQ(r.doc.cases[2].status, kwb::CaseStatus::kSkipped);
  EXPECT_NE(r.doc.cases[2].message.find("context was lost"), std::string::npos)
      << r.doc.cases[2].message;
  // Every planned case got its finished or failed event, and the stream ends with done.
  int finished = 0;
  for (const auto& e : r.events)
    finished += e.type == kwb::EventType::kCaseFinished || e.type == kwb::EventType::kCaseFailed;
  EXPECT_EQ(finished, 3);
  EXPECT_EQ(r.events.back().type, kwb::EventType::kDone);
  EXPECT_EQ(r.events.back().exitCode, kwb::kExitCaseFailed);
}

namespace {

int count(const std::vector<kwb::StreamEvent>& events, kwb::EventType t, int index) {
  int n = 0;
  for (const auto& e : events) n += e.type == t && e.index == index;
  return n;
}

}  // namespace

// The planted check: a device that answers wrong after a case's error ends the run there, as a
// lost context does (a fresh engine would take the rest).
TEST_F(FaultIsolation, ADeviceThatFailsItsCheckAfterAnErrorEndsTheRunThere) {
  ::setenv("KWB_FAKE_UNHEALTHY_DEVICE", "1", 1);
  const kwb::KernelRegistry registry({badLaunchKernel(), kwb::kernels::sgemmNaive()});
  const kwb::Shape s{64, 48, 80};
  const auto r = run(registry, {{"test.bad_launch", s}, {"sgemm.naive", s}});
  ::unsetenv("KWB_FAKE_UNHEALTHY_DEVICE");
  ASSERT_EQ(r.doc.cases.size(), 2u);
  EXPECT_NE(r.doc.cases[0].message.find("known-answer check failed"), std::string::npos)
      << r.doc.cases[0].message;
  EXPECT_EQ(r.doc.cases[1].status, kwb::CaseStatus::kSkipped);
  EXPECT_NE(r.doc.cases[1].message.find("the device failed its check after test.bad_launch"),
            std::string::npos)
      << r.doc.cases[1].message;
}

// After a lost context the cases left go to the fresh engine: the later case and the verified
// but untimed one before the fault; its events join this run's stream, each case started once.
TEST_F(FaultIsolation, ALostContextHandsTheCasesLeftToAFreshEngine) {
  const kwb::KernelRegistry registry({kwb::kernels::sgemmNaive(), illegalAddressKernel()});
  const kwb::Shape s{64, 48, 80};
  kwb::cuda::RunConfig cfg;
  cfg.measure.rule = {
      .minSamples = 3, .maxSamples = 3, .minTimeS = 0, .maxTimeS = 1, .maxNoise = 1};
  std::vector<std::size_t> given;
  cfg.continueElsewhere = [&](const std::vector<std::size_t>& indices,
                              const kwb::cuda::EventSink& sink) {
    given = indices;
    for (const std::size_t i : indices) {
      kwb::StreamEvent started(kwb::EventType::kCaseStarted);
      started.index = int(i);
      sink(started);
      kwb::StreamEvent fin(kwb::EventType::kCaseFinished);
      fin.index = int(i);
      fin.result = kwb::CaseResult{};
      fin.result->kernel = "sgemm.naive";
      fin.result->status = kwb::CaseStatus::kPass;
      sink(fin);
    }
    return std::string();
  };
  const auto r = run(
      registry,
      {{"sgemm.naive", s}, {"test.illegal_address", s}, {"sgemm.naive", kwb::Shape{32, 32, 32}}},
      cfg);
  EXPECT_EQ(given, (std::vector<std::size_t>{0, 2}));
  ASSERT_EQ(r.doc.cases.size(), 3u);
  EXPECT_EQ(r.doc.cases[0].kernel, "test.illegal_address");
  EXPECT_EQ(r.doc.cases[0].status, kwb::CaseStatus::kError);
  EXPECT_EQ(r.doc.cases[1].status, kwb::CaseStatus::kPass);
  EXPECT_EQ(r.doc.cases[2].status, kwb::CaseStatus::kPass);
  for (int i : {0, 1, 2}) {
    EXPECT_EQ(count(r.events, kwb::EventType::kCaseStarted, i), 1) << i;
    EXPECT_EQ(count(r.events, kwb::EventType::kCaseFinished, i) +
                  count(r.events, kwb::EventType::kCaseFailed, i),
              1)
        << i;
  }
  EXPECT_EQ(r.events.back().type, kwb::EventType::kDone);
  EXPECT_EQ(r.events.back().exitCode, kwb::kExitCaseFailed);
}

// A fresh engine that reports nothing: the cases left are skipped with its reason.
TEST_F(FaultIsolation, CasesTheFreshEngineDidNotReportAreSkippedWithItsReason) {
  const kwb::KernelRegistry registry({illegalAddressKernel(), kwb::kernels::sgemmNaive()});
  const kwb::Shape s{64, 48, 80};
  kwb::cuda::RunConfig cfg;
  cfg.continueElsewhere = [](const std::vector<std::size_t>&, const kwb::cuda::EventSink&) {
    return std::string("no fresh engine left (--max-restarts)");
  };
  const auto r = run(registry, {{"test.illegal_address", s}, {"sgemm.naive", s}}, cfg);
  ASSERT_EQ(r.doc.cases.size(), 2u);
  EXPECT_EQ(r.doc.cases[1].status, kwb::CaseStatus::kSkipped);
  EXPECT_NE(r.doc.cases[1].message.find("context was lost"), std::string::npos)
      << r.doc.cases[1].message;
  EXPECT_NE(r.doc.cases[1].message.find("--max-restarts"), std::string::npos)
      << r.doc.cases[1].message;
}

// The planted side stream: C is right, so verification passes; the launch before timing, with
// CUPTI recording, sees sideStreamWork on another stream and fails the case naming it.
TEST_F(FaultIsolation, WorkOnASideStreamFailsTheCaseNamingTheKernel) {
  try {
    const kwb::cuda::CuptiTracer probe;
  } catch (const kwb::cuda::CuptiUnavailable& e) {
    GTEST_SKIP() << "CUPTI unavailable: " << e.what();
  }
  const kwb::KernelRegistry registry({sideStreamKernel(), kwb::kernels::sgemmNaive()});
  const kwb::Shape s{64, 48, 80};
  const auto r = run(registry, {{"test.side_stream", s}, {"sgemm.naive", s}});
  ASSERT_EQ(r.doc.cases.size(), 2u);
  EXPECT_EQ(r.doc.cases[0].status, kwb::CaseStatus::kFail);
  EXPECT_NE(r.doc.cases[0].message.find("work outside the timed stream"), std::string::npos)
      << r.doc.cases[0].message;
  EXPECT_NE(r.doc.cases[0].message.find("sideStreamWork"), std::string::npos)
      << r.doc.cases[0].message;
  EXPECT_FALSE(r.doc.cases[0].timed());
  // The stage that keeps to its stream passes and is timed.
  EXPECT_EQ(r.doc.cases[1].status, kwb::CaseStatus::kPass) << r.doc.cases[1].message;
  EXPECT_TRUE(r.doc.cases[1].timed());
}
