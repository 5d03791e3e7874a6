// SPDX-License-Identifier: Apache-2.0
// Issue 33 item 3: every file kwb reads is parsed by one parser (core/io/src/json_parse.cpp)
// that refuses nesting deeper than 64 levels before building it, and a key given twice in one
// object; comparing two documents looks cases up by key, not by scanning.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <nlohmann/json.hpp>
#include <string>

#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/preset.h"
#include "kwb/results.h"
#include "kwb/run_compare.h"
#include "sample_document.h"

namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

template <class Read>
std::string errorOf(const Read& read) {
  try {
    read();
  } catch (const kwb::InputError& e) {
    return e.what();
  }
  return "";
}

long peakRssKb() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// A preset whose "extra" (ignored by the reader) nests `depth` levels of arrays in total, the
// preset's own object counted.
std::string presetNested(int depth) {
  return R"({"name": "n", "shapes": ["64"], "extra": )" + std::string(std::size_t(depth - 1), '[') +
         std::string(std::size_t(depth - 1), ']') + "}";
}

}  // namespace

// A 63 MiB file of '[' cost 5 GB and 11-17 s to refuse: the DOM was built first.
TEST(BoundedJson, DeepNestingIsRefusedBeforeItIsBuilt) {
  const long before = peakRssKb();
  for (const std::string& text :
       {std::string(16u << 20, '['), std::string(8u << 20, '[') + std::string(8u << 20, ']')}) {
    const std::string e = errorOf([&] { kwb::parseDocument(text, "deep.json"); });
    EXPECT_TRUE(has(e, "deep.json")) << e;
    EXPECT_TRUE(has(e, "nested more than 64 levels deep")) << e;
  }
  // A DOM of 8 million nested arrays is hundreds of megabytes; refusing it costs nothing.
  EXPECT_LT(peakRssKb() - before, 100 * 1024) << "KB more at the peak";
}

TEST(BoundedJson, SixtyFourLevelsReadAndSixtyFiveAreRefused) {
  EXPECT_NO_THROW(kwb::parseSuite(presetNested(64), "p.json"));
  const std::string e = errorOf([] { kwb::parseSuite(presetNested(65), "p.json"); });
  EXPECT_TRUE(has(e, "bad preset 'p.json'")) << e;
  EXPECT_TRUE(has(e, "64 levels")) << e;
  // Brackets inside strings are text, not nesting.
  const std::string quoted =
      R"({"name": "n", "shapes": ["64"], "description": ")" + std::string(1000, '[') + R"("})";
  EXPECT_NO_THROW(kwb::parseSuite(quoted, "p.json"));
}

TEST(BoundedJson, EveryReaderRefusesDeepNestingNamingItsInput) {
  const std::string deep = std::string(100, '[') + std::string(100, ']');
  EXPECT_TRUE(has(errorOf([&] { kwb::parseEventLine(deep, "s.jsonl", 3); }), "s.jsonl:3"));
  EXPECT_TRUE(has(errorOf([&] { kwb::parseEventLine(deep, "s.jsonl", 3); }), "64 levels"));
  EXPECT_TRUE(has(errorOf([&] { kwb::parseSuite(deep, "p.json"); }), "64 levels"));
}

// Duplicate keys kept the last value silently: a document with one is malformed or forged.
TEST(BoundedJson, DuplicateKeysAreRefusedNamingTheKey) {
  std::string doc = kwb::toJsonText(makeSampleDocument());
  doc.insert(doc.find('{') + 1, R"("wallSeconds": 1, )");
  const std::string e = errorOf([&] { kwb::parseDocument(doc, "dup.json"); });
  EXPECT_TRUE(has(e, "dup.json")) << e;
  EXPECT_TRUE(has(e, "\"wallSeconds\" appears twice")) << e;

  const std::string line = R"({"event":"log","elapsedS":1,"level":"info","message":"a",)"
                           R"("message":"b"})";
  const std::string le = errorOf([&] { kwb::parseEventLine(line, "s.jsonl", 7); });
  EXPECT_TRUE(has(le, "s.jsonl:7")) << le;
  EXPECT_TRUE(has(le, "\"message\" appears twice")) << le;

  const std::string pe =
      errorOf([] { kwb::parseSuite(R"({"name": "a", "shapes": ["64"], "name": "b"})", "p.json"); });
  EXPECT_TRUE(has(pe, "\"name\" appears twice")) << pe;
  // The same key in two objects is no duplicate: every case has its "kernel".
  EXPECT_NO_THROW(kwb::parseDocument(kwb::toJsonText(makeSampleDocument()), "ok.json"));
}

// compareRuns looks cases up by kernel and size through a hash (it scanned the document per
// case: 48k cases took 36 s); the first case of a kernel and size still wins, and sizes that
// differ only in their element type stay apart.
TEST(BoundedJson, CompareMatchesCasesByKernelAndExactSize) {
  kwb::RunDocument base = makeSampleDocument(), now = base;
  ASSERT_FALSE(base.cases.empty());
  kwb::CaseResult first = base.cases.front();
  first.kernel = "k";
  first.size = kwb::vectorSize("reduce", 1 << 20, "f32");
  kwb::CaseResult i32 = first;
  i32.size = kwb::vectorSize("reduce", 1 << 20, "i32");
  kwb::CaseResult second = first;
  second.summary.median = first.summary.median * 10;  // a second case of the same kernel and size
  base.cases = {first, second};
  now.cases = {first, i32};
  const kwb::RunComparison r = kwb::compareRuns(base, now);
  ASSERT_EQ(r.cases.size(), 1U);
  EXPECT_EQ(r.cases[0].baseMs, first.summary.median) << "the first case of a size is compared";
  ASSERT_EQ(r.onlyInNew.size(), 1U);
  EXPECT_TRUE(has(r.onlyInNew[0], "i32")) << r.onlyInNew[0];
  EXPECT_TRUE(r.onlyInBase.empty());
}

// A wide text is refused by what its tree would cost; a large document of kwb's own is not.
TEST(BoundedJson, AWideTextIsRefusedButALargeDocumentIsRead) {
  std::string zeros = "[0";
  while (zeros.size() < (4u << 20)) zeros += ",0";
  const std::string e = errorOf([&] { kwb::parseDocument(zeros + "]", "wide.json"); });
  EXPECT_TRUE(has(e, "wide.json")) << e;
  EXPECT_TRUE(has(e, "too many small values")) << e;

  kwb::RunDocument doc = makeSampleDocument();
  const kwb::CaseResult one = doc.cases.front();
  while (doc.cases.size() < 3000) doc.cases.push_back(one);
  std::string text = kwb::toJsonText(doc);
  // Minified, as another tool may write it: the densest form of a real document.
  text = nlohmann::json::parse(text).dump();
  ASSERT_GT(text.size(), 1u << 20) << "over the size from which a text is walked first";
  EXPECT_EQ(kwb::parseDocument(text, "large.json").cases.size(), doc.cases.size());
}

// The cost scan skips strings whole: brackets and escaped quotes inside them neither nest nor end
// them, so a large text of such strings is read, not refused as deep.
TEST(BoundedJson, TheCostScanSkipsBracketsAndQuotesInsideStrings) {
  std::string text = R"({"name": "n", "shapes": ["64"], "extra": [)";
  const std::string item = R"("[[[[{{{{\"]]]] \\ \" [[[[[[[[[[[[[[[[")";
  for (int i = 0; i < 40000; ++i) text += (i ? "," : "") + item;
  text += "]}";
  ASSERT_GT(text.size(), 1u << 20);
  EXPECT_NO_THROW(kwb::parseSuite(text, "strings.json"));
}
