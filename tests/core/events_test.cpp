#include <gtest/gtest.h>

#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/results.h"
#include "sample_document.h"

using kwb::Event;
using kwb::EventType;

TEST(Events, EachLineRoundTrips) {
  for (const Event& e : sampleEvents(makeSampleDocument())) {
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
  for (const Event& e : sampleEvents(doc)) {
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
  kwb::Event hello(kwb::EventType::kHello);
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
