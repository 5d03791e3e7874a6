// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/results.h"
#include "sample_document.h"

using kwb::EventType;
using kwb::StreamEvent;

TEST(Events, EachLineRoundTrips) {
  for (const StreamEvent& e : sampleEvents(makeSampleDocument())) {
    const std::string line = kwb::toJsonLine(e);
    EXPECT_EQ(line.find('\n'), std::string::npos);
    const StreamEvent back = kwb::parseEventLine(line, "mem", 1);
    EXPECT_EQ(back.type, e.type);
    EXPECT_EQ(kwb::toJsonLine(back), line);
  }
}

TEST(Events, BuilderRebuildsTheDocument) {
  const auto doc = makeSampleDocument();
  kwb::DocumentBuilder b;
  int line = 0;
  for (const StreamEvent& e : sampleEvents(doc)) {
    b.apply(kwb::parseEventLine(kwb::toJsonLine(e), "mem", ++line));
    if (e.type == EventType::kCaseStarted) {
      EXPECT_EQ(b.runningIndex(), e.index);
    }
  }
  EXPECT_TRUE(b.done());
  EXPECT_EQ(b.exitCode(), 1);
  EXPECT_EQ(b.finishedCases(), 2);
  EXPECT_EQ(b.plan().size(), 2u);
  EXPECT_EQ(kwb::toJsonText(b.document()), kwb::toJsonText(doc));
}

TEST(Events, AnotherProtocolVersionIsRefusedWithBothVersions) {
  kwb::StreamEvent hello(kwb::EventType::kHello);
  hello.protocolVersion = kwb::kProtocolVersion + 1;
  try {
    kwb::parseEventLine(kwb::toJsonLine(hello), "engine stdout", 1);
    FAIL() << "a hello of another protocol version was accepted";
  } catch (const kwb::ProtocolVersionError& e) {
    EXPECT_EQ(e.version(), kwb::kProtocolVersion + 1);
    const std::string what = e.what();
    EXPECT_NE(what.find("engine stdout:1"), std::string::npos) << what;
    EXPECT_NE(what.find(std::to_string(kwb::kProtocolVersion)), std::string::npos) << what;
  }
}

TEST(Events, MalformedLinesNameSourceAndLine) {
  for (const char* bad : {"{", "{\"event\":\"nope\"}", "{\"event\":\"case_started\"}", "[]",
                          "{\"event\":\"hello\",\"version\":\"1\",\"gitRevision\":\"x\","
                          "\"host\":\"h\",\"timestamp\":\"t\",\"schemaVersion\":1,"
                          "\"protocolVersion\":7}"}) {
    try {
      kwb::parseEventLine(bad, "run.jsonl", 7);
      FAIL() << bad;
    } catch (const kwb::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("run.jsonl:7"), std::string::npos) << e.what();
    }
  }
}

// A reader that restarts a crashed engine applies the events of both to one builder.
TEST(DocumentBuilder, SecondEngineAccumulatesCasesAndChecksProgressionOverBoth) {
  kwb::RunDocument doc = makeSampleDocument();
  for (auto& c : doc.cases) {
    c.status = kwb::CaseStatus::kPass;
    c.size = kwb::gemmSize({512, 512, 512});
    c.samplesMs = {1.0};
    c.summary.ci95 = {c.gflops, c.gflops};
  }
  doc.cases[0].gflops = 900;  // sgemm.tiled, stage 2
  doc.cases[1].gflops = 800;  // sgemm.tensor_core, stage 5: slower, a violation
  doc.cases[1].fallback = false;
  doc.cases[1].precision = kwb::Precision::kFp32;
  const auto events = sampleEvents(doc);
  kwb::DocumentBuilder b;
  // Engine 1 runs case 0, then dies while case 1 runs.
  for (const auto& e : events) {
    if (e.type == kwb::EventType::kCaseStarted && e.index == 1) {
      b.apply(e);
      break;
    }
    b.apply(e);
  }
  const auto crashed = b.markCrashed("the engine was killed by SIGSEGV");
  ASSERT_TRUE(crashed);
  EXPECT_EQ(crashed->status, kwb::CaseStatus::kCrashed);
  EXPECT_EQ(crashed->kernel, "sgemm.tensor_core");
  EXPECT_EQ(crashed->precision, kwb::Precision::kFp16Fp32Acc);  // from the document's kernels
  EXPECT_FALSE(b.markCrashed("again"));                         // nothing runs any more
  EXPECT_FALSE(b.done());
  // Engine 2 runs case 1 alone: its own progression check sees one stage only.
  kwb::StreamEvent plan(kwb::EventType::kPlan);
  plan.settings = doc.settings;
  plan.plan = {{doc.cases[1].kernel, doc.cases[1].size}};
  kwb::StreamEvent started(kwb::EventType::kCaseStarted);
  started.index = 0;
  started.planned = plan.plan[0];
  kwb::StreamEvent fin(kwb::EventType::kCaseFinished);
  fin.index = 0;
  fin.result = doc.cases[1];
  kwb::StreamEvent done(kwb::EventType::kDone);
  done.knownAnswer = doc.knownAnswer;
  done.progression.checked = true;  // no violation among its own cases
  for (const auto& e : {events.front(), plan, started, fin, done}) b.apply(e);
  EXPECT_TRUE(b.done());
  ASSERT_EQ(b.document().cases.size(), 3u);  // case 0, the crash, case 1 again
  ASSERT_EQ(b.document().progression.violations.size(), 1u);
  EXPECT_EQ(b.document().progression.violations[0].from, "sgemm.tiled");
  EXPECT_EQ(b.document().progression.violations[0].to, "sgemm.tensor_core");
  EXPECT_EQ(b.document().kernels.size(), 2u);
}

TEST(DocumentBuilder, LiveProgressionIsTheRuleOverTheCasesSoFar) {
  kwb::RunDocument doc = makeSampleDocument();
  for (auto& c : doc.cases) {
    c.status = kwb::CaseStatus::kPass;
    c.size = kwb::gemmSize({512, 512, 512});
    c.precision = kwb::Precision::kFp32;
    c.samplesMs = {1.0};
    c.summary.ci95 = {c.gflops, c.gflops};
  }
  doc.cases[0].gflops = 900;
  doc.cases[1].gflops = 800;
  kwb::DocumentBuilder b;
  for (const auto& e : sampleEvents(doc))
    if (e.type != kwb::EventType::kDone) b.apply(e);
  EXPECT_FALSE(b.done());
  EXPECT_EQ(b.progression().violations.size(), 1u);
}
