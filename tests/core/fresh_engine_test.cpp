// SPDX-License-Identifier: Apache-2.0
// The fresh engine after a lost context (kwb/fresh_engine.h): a child's event stream joins the
// parent's with the parent's plan indices; its own hello, device, plan and done stay inside; a
// child that ends without `done`, or reports a case it was not given, is named.
#include "kwb/fresh_engine.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "kwb/error.h"
#include "test_support.h"

namespace {

using kwb::EventType;
using kwb::StreamEvent;

StreamEvent caseEvent(EventType t, int index) {
  StreamEvent e(t);
  e.index = index;
  if (t != EventType::kCaseStarted) {
    kwb::CaseResult c;
    c.kernel = "sgemm.naive";
    c.size = kwb::Shape{64, 64, 64};
    c.status = t == EventType::kCaseFinished ? kwb::CaseStatus::kPass : kwb::CaseStatus::kError;
    e.result = c;
  } else {
    e.planned = kwb::PlannedCase{"sgemm.naive", kwb::Shape{64, 64, 64}};
  }
  return e;
}

// A child that prints `events` as an engine would, then exits with `exitCode`.
std::vector<std::string> fakeChild(const std::vector<StreamEvent>& events, int exitCode) {
  static int n = 0;
  const auto path = std::filesystem::temp_directory_path() /
                    ("kwb_fresh_" + std::to_string(::getpid()) + "_" + std::to_string(++n));
  std::ofstream out(path);
  for (const StreamEvent& e : events) out << kwb::toJsonLine(e) << '\n';
  return {"sh", "-c", "cat '" + path.string() + "'; exit " + std::to_string(exitCode)};
}

TEST(FreshEngine, CaseEventsComeBackWithTheParentsIndicesAndTheChildsStandStaysInside) {
  StreamEvent log(EventType::kLog);
  log.level = "info";
  log.message = "timer: ...";
  const auto argv =
      fakeChild({StreamEvent(EventType::kHello), StreamEvent(EventType::kPlan), log,
                 caseEvent(EventType::kCaseStarted, 0), caseEvent(EventType::kCaseFinished, 0),
                 caseEvent(EventType::kCaseStarted, 1), caseEvent(EventType::kCaseFailed, 1),
                 StreamEvent(EventType::kDone)},
                1);
  std::vector<StreamEvent> got;
  const std::string why =
      kwb::runInFreshEngine(argv, {2, 5}, [&](StreamEvent e) { got.push_back(std::move(e)); });
  EXPECT_EQ(why, "");
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[0].type, EventType::kLog);
  EXPECT_EQ(got[1].type, EventType::kCaseStarted);
  EXPECT_EQ(got[1].index, 2);
  EXPECT_EQ(got[2].index, 2);
  EXPECT_EQ(got[3].index, 5);
  EXPECT_EQ(got[4].type, EventType::kCaseFailed);
  EXPECT_EQ(got[4].index, 5);
}

TEST(FreshEngine, AChildThatEndsWithoutDoneIsNamedWithHowItEnded) {
  const auto argv = fakeChild({caseEvent(EventType::kCaseStarted, 0)}, 4);
  int cases = 0;
  const std::string why = kwb::runInFreshEngine(argv, {3}, [&](const StreamEvent&) { ++cases; });
  EXPECT_EQ(cases, 1);
  EXPECT_NE(why.find("the fresh engine ended (exit status 4) before it finished"),
            std::string::npos)
      << why;
}

TEST(FreshEngine, ACaseTheChildWasNotGivenStopsTheReading) {
  const auto argv = fakeChild({caseEvent(EventType::kCaseFinished, 2)}, 0);
  int cases = 0;
  const std::string why = kwb::runInFreshEngine(argv, {0, 1}, [&](const StreamEvent&) { ++cases; });
  EXPECT_EQ(cases, 0);
  EXPECT_NE(why.find("reported case 2, which it was not given"), std::string::npos) << why;
}

TEST(FreshEngine, ALineThatIsNoEventIsNamed) {
  const std::vector<std::string> argv{"sh", "-c", "echo 'not json'"};
  const std::string why = kwb::runInFreshEngine(argv, {0}, [](const StreamEvent&) {});
  EXPECT_NE(why.find("the fresh engine"), std::string::npos) << why;
  EXPECT_NE(why.find(":1"), std::string::npos) << why;
}

TEST(FreshEngine, CaseIndexListsReadBackAndBadOnesAreRefusedNamingTheOption) {
  EXPECT_EQ(kwb::caseIndexList({0, 4, 17}), "0,4,17");
  EXPECT_EQ(kwb::parseCaseIndexList("0,4,17", 18), (std::vector<std::size_t>{0, 4, 17}));
  for (const char* bad : {"", "4,4", "5,2", "18", "1,,2", "x", "-1", "1,"}) {
    const std::string e = errorOf([&] { kwb::parseCaseIndexList(bad, 18); });
    EXPECT_NE(e.find("--continue-cases"), std::string::npos) << bad << ": " << e;
  }
}

}  // namespace
