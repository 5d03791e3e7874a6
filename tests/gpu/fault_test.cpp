// SPDX-License-Identifier: Apache-2.0
// A kernel fault is isolated to its case (docs/RELIABILITY.md): a failed launch is an
// `error` and the run goes on; a lost context ends the run cleanly, the cases left skipped
// with the reason, the done event sent and the document returned.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fault_kernels.h"
#include "gpu_fixture.h"
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

struct Recorded {
  std::vector<kwb::StreamEvent> events;
  kwb::RunDocument doc;
};

Recorded run(const kwb::KernelRegistry& registry, const std::vector<kwb::PlannedCase>& plan) {
  kwb::cuda::RunConfig cfg;
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
