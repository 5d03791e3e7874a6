#include <gtest/gtest.h>

#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/results.h"
#include "sample_document.h"

using kwb::Event;
using kwb::EventType;

namespace {
// The events a run of `doc` emits, in order.
std::vector<Event> eventsFor(const kwb::RunDocument& doc) {
  std::vector<Event> out;
  Event hello(EventType::kHello);
  hello.toolVersion = doc.toolVersion;
  hello.gitRevision = doc.gitRevision;
  hello.host = doc.host;
  hello.timestamp = doc.timestamp;
  out.push_back(hello);
  Event dev(EventType::kDevice);
  dev.device = doc.device;
  out.push_back(dev);
  Event plan(EventType::kPlan);
  plan.settings = doc.settings;
  for (const auto& c : doc.cases) plan.plan.push_back({c.kernel, c.shape});
  out.push_back(plan);
  for (std::size_t i = 0; i < doc.cases.size(); ++i) {
    Event s(EventType::kCaseStarted);
    s.index = int(i);
    s.planned = plan.plan[i];
    out.push_back(s);
    Event f(kwb::isGood(doc.cases[i].status) ? EventType::kCaseFinished : EventType::kCaseFailed);
    f.index = int(i);
    f.result = doc.cases[i];
    out.push_back(f);
  }
  Event log(EventType::kLog);
  log.level = "info";
  log.message = "done";
  out.push_back(log);
  Event done(EventType::kDone);
  done.exitCode = 1;
  done.knownAnswer = doc.knownAnswer;
  done.progression = doc.progression;
  done.wallSeconds = doc.wallSeconds;
  out.push_back(done);
  return out;
}
}  // namespace

TEST(Events, EachLineRoundTrips) {
  for (const Event& e : eventsFor(makeSampleDocument())) {
    const std::string line = kwb::toJsonLine(e);
    EXPECT_EQ(line.find('\n'), std::string::npos);
    const Event back = kwb::parseEventLine(line, "mem", 1);
    EXPECT_EQ(back.type, e.type);
    EXPECT_EQ(kwb::toJsonLine(back), line);
  }
}

TEST(Events, BuilderRebuildsTheDocument) {
  const auto doc = makeSampleDocument();
  kwb::DocumentBuilder b;
  int line = 0;
  for (const Event& e : eventsFor(doc)) {
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
