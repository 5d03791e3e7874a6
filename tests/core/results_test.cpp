// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <csignal>
#include <fstream>

#include <sys/resource.h>
#include <unistd.h>

#include "kwb/error.h"
#include "kwb/results.h"
#include "sample_document.h"

namespace fs = std::filesystem;

namespace {
std::string errorOf(const std::string& text, const std::string& source = "r.json") {
  try {
    kwb::parseDocument(text, source);
  } catch (const kwb::InputError& e) {
    return e.what();
  }
  return "";
}
fs::path tempPath(const std::string& name) {
  return fs::temp_directory_path() /
         ("kwb_results_test_" + std::to_string(::getpid()) + "_" + name);
}
}  // namespace

TEST(Results, RoundTripKeepsEveryField) {
  const auto doc = makeSampleDocument();
  const std::string text = kwb::toJsonText(doc);
  const auto back = kwb::parseDocument(text, "mem");
  EXPECT_EQ(kwb::toJsonText(back), text);
  ASSERT_EQ(back.cases.size(), 2u);
  const auto& c = back.cases[0];
  EXPECT_EQ(c.status, kwb::CaseStatus::kFail);
  ASSERT_TRUE(c.verification);
  EXPECT_TRUE(std::isnan(c.verification->compare.firstMismatch->got));
  EXPECT_TRUE(std::isinf(c.verification->alphaBeta->firstMismatch->got));
  EXPECT_EQ(c.verification->unwritten, 3);
  EXPECT_EQ(c.verification->compare.grid.mismatches, (std::vector<std::int64_t>{1, 1, 0, 0}));
  EXPECT_TRUE(std::isnan(c.verification->compare.grid.maxAbs[1]));
  EXPECT_EQ(back.cases[1].ranKernel, "sgemm.double_buffer");
  EXPECT_TRUE(back.cases[1].fallback);
  EXPECT_FALSE(back.cases[1].verification);
  EXPECT_EQ(*back.cases[1].pctOfFp16Reference, 40.0);
  ASSERT_TRUE(back.device);
  EXPECT_EQ(back.device->name, "Test GPU");
  EXPECT_EQ(back.progression.violations.at(0).to, "sgemm.bank_free");
  EXPECT_FALSE(back.progression.violations.at(0).withinNoise);
  auto noisy = doc;
  noisy.progression.violations[0].withinNoise = true;
  EXPECT_TRUE(
      kwb::parseDocument(kwb::toJsonText(noisy), "mem").progression.violations[0].withinNoise);
  EXPECT_NE(back.find("sgemm.tensor_core", {17, 19, 23}), nullptr);
  EXPECT_EQ(back.find("sgemm.tensor_core", {17, 19, 24}), nullptr);
}

// A document whose indented text would pass what kwb reads (kMaxDocumentBytes) is written without
// indentation, and reads back the same; a smaller one keeps its indentation.
TEST(Results, ADocumentTooLargeToReadIndentedIsWrittenCompact) {
  const auto doc = makeSampleDocument();
  const std::string indented = kwb::toJsonText(doc);
  const std::string compact = kwb::toJsonText(doc, 2, indented.size() - 1);
  EXPECT_NE(indented.find("\n  "), std::string::npos);
  EXPECT_EQ(compact.find("\n  "), std::string::npos) << compact.substr(0, 200);
  EXPECT_LT(compact.size(), indented.size());
  EXPECT_EQ(compact, kwb::toJsonText(doc, -1));
  EXPECT_EQ(kwb::toJsonText(kwb::parseDocument(compact, "mem")), indented);
  EXPECT_EQ(kwb::toJsonText(doc, 2, indented.size()), indented) << "at the limit: indented";
}

// The choice is made from the indented size known before writing: exact at the limit for text
// with escapes (quotes, backslashes, control characters, UTF-8), other indents, and a
// document far larger than the limit is written compact as it is.
TEST(Results, TheIndentedSizeIsKnownExactlyBeforeWriting) {
  auto doc = makeSampleDocument();
  doc.cases.front().message = "a \"quoted\" \\ path\n\ttab \x01 \xc2\xb5s";
  doc.cases.back().message.clear();
  for (const int indent : {0, 1, 2, 4}) {
    const std::string indented = kwb::toJsonText(doc, indent);
    EXPECT_EQ(kwb::toJsonText(doc, indent, indented.size()), indented) << indent;
    EXPECT_EQ(kwb::toJsonText(doc, indent, indented.size() - 1), kwb::toJsonText(doc, -1))
        << indent;
  }
  EXPECT_EQ(kwb::toJsonText(doc, 2, 100), kwb::toJsonText(doc, -1));
}

TEST(Results, MalformedJsonNamesFile) {
  const std::string m = errorOf("{ not json", "bad.json");
  EXPECT_NE(m.find("'bad.json'"), std::string::npos) << m;
  EXPECT_NE(m.find("not valid JSON"), std::string::npos) << m;
}

TEST(Results, TruncatedFileIsRefused) {
  const std::string text = kwb::toJsonText(makeSampleDocument());
  const std::string m = errorOf(text.substr(0, text.size() / 2), "half.json");
  EXPECT_NE(m.find("'half.json'"), std::string::npos) << m;
  EXPECT_NE(m.find("truncated"), std::string::npos) << m;
}

TEST(Results, WrongVersionIsRefused) {
  std::string text = kwb::toJsonText(makeSampleDocument());
  const std::string current = "\"schemaVersion\": " + std::to_string(kwb::kSchemaVersion);
  text.replace(text.find(current), current.size(), "\"schemaVersion\": 99");
  const std::string m = errorOf(text);
  EXPECT_NE(m.find("schemaVersion 99 is not supported"), std::string::npos) << m;
}

TEST(Results, MissingFieldIsNamed) {
  std::string text = kwb::toJsonText(makeSampleDocument());
  text.replace(text.find("\"gflops\""), 8, "\"gflopz\"");
  const std::string m = errorOf(text);
  EXPECT_NE(m.find("gflops"), std::string::npos) << m;
}

TEST(Results, NotADocument) {
  EXPECT_NE(errorOf("[1,2]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(errorOf("{\"a\":1}").find("schemaVersion"), std::string::npos);
}

TEST(Results, BadStatusIsNamed) {
  std::string text = kwb::toJsonText(makeSampleDocument());
  text.replace(text.find("\"fail\""), 6, "\"meh\"");
  EXPECT_NE(errorOf(text).find("'meh'"), std::string::npos);
}

TEST(Results, FileRoundTripAndMissingFile) {
  const auto p = tempPath("ok.json");
  kwb::writeDocument(makeSampleDocument(), p);
  EXPECT_EQ(kwb::readDocument(p).cases.size(), 2u);
  EXPECT_FALSE(fs::exists(p.string() + ".tmp"));
  fs::remove(p);
  try {
    kwb::readDocument(p);
    FAIL();
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos);
  }
}

TEST(Results, UnwritablePathKeepsNothingHalfWritten) {
  const fs::path p = "/nonexistent-dir-kwb/r.json";
  try {
    kwb::writeDocument(makeSampleDocument(), p);
    FAIL();
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
  }
}

TEST(Results, FailedWriteKeepsOldFile) {
  const auto dir = tempPath("dir");
  fs::create_directories(dir);
  const auto p = dir / "r.json";
  kwb::writeDocument(makeSampleDocument(), p);
  // A file-size limit smaller than the document (a full disk, in effect) fails the write.
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = old;
  small.rlim_cur = 512;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  bool threw = false;
  try {
    kwb::writeDocument(kwb::RunDocument{}, p);
  } catch (const kwb::InputError&) {
    threw = true;
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, oldHandler);
  EXPECT_TRUE(threw);
  EXPECT_EQ(kwb::readDocument(p).cases.size(), 2u);
  fs::remove_all(dir);
}

TEST(Results, DocumentsWithoutErrorGridStillRead) {
  std::string text = kwb::toJsonText(makeSampleDocument());
  // Drop every "errorGrid": {...} member, as written before the grid existed.
  for (std::size_t at; (at = text.find(",\n          \"errorGrid\"")) != std::string::npos;) {
    const std::size_t end = text.find('}', at);
    text.erase(at, end + 1 - at);
  }
  ASSERT_EQ(text.find("errorGrid"), std::string::npos);
  const auto doc = kwb::parseDocument(text, "old.json");
  EXPECT_EQ(doc.cases[0].verification->compare.grid.rows, 0);
}

TEST(Results, ErrorGridOfWrongSizeIsRefused) {
  std::string text = kwb::toJsonText(makeSampleDocument());
  const auto at = text.find("\"rows\": 2");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 10, "\"rows\": 3");
  EXPECT_NE(errorOf(text).find("errorGrid"), std::string::npos);
}

TEST(AllPassed, EveryCaseTheKnownAnswerTestAndTheSweep) {
  kwb::RunDocument doc = makeSampleDocument();
  for (auto& c : doc.cases) c.status = kwb::CaseStatus::kPass;
  EXPECT_TRUE(kwb::allPassed(doc));
  doc.cases.back().status = kwb::CaseStatus::kFallback;  // a fallback is good
  EXPECT_TRUE(kwb::allPassed(doc));
  doc.knownAnswer.passed = false;  // the check of the reference itself failed
  EXPECT_FALSE(kwb::allPassed(doc));
  doc.knownAnswer.ran = false;  // not run (a stream that ended early): not held against it
  EXPECT_TRUE(kwb::allPassed(doc));
  doc.cases.front().status = kwb::CaseStatus::kSkipped;
  EXPECT_FALSE(kwb::allPassed(doc));
  doc.cases.front().status = kwb::CaseStatus::kPass;
  doc.tuning.emplace().results = {doc.cases.front()};
  EXPECT_TRUE(kwb::allPassed(doc));
  doc.tuning->results.front().status = kwb::CaseStatus::kFail;
  EXPECT_FALSE(kwb::allPassed(doc));
}

// The defences' fields (docs/RESULTS.md): written where set, read back; a document without
// them (every older one, and cases the checks did not run on) reads with their defaults.
TEST(Results, DefenceFieldsRoundTripAndOlderDocumentsReadWithout) {
  kwb::RunDocument doc = makeSampleDocument();
  const std::string plain = kwb::toJsonText(doc);
  EXPECT_EQ(plain.find("nanFromOutput"), std::string::npos);
  EXPECT_EQ(plain.find("suspicious"), std::string::npos);
  const auto old = kwb::parseDocument(plain, "old.json");
  EXPECT_EQ(old.cases[0].inputSets, 1);
  EXPECT_TRUE(old.cases[0].suspicious.empty());
  EXPECT_EQ(old.settings.freshInputs, 1);

  doc.settings.freshInputs = 3;
  kwb::CaseResult& c = doc.cases[0];
  ASSERT_TRUE(c.verification);
  c.verification->nanFromOutput = 7;
  kwb::CompareReport timed;
  timed.elements = 4;
  timed.mismatches = 2;
  c.verification->timedOutput = timed;
  c.inputSets = 3;
  c.suspicious = "median 0.005 ms is 84.4% below the least time";
  const std::string text = kwb::toJsonText(doc);
  const auto back = kwb::parseDocument(text, "mem");
  EXPECT_EQ(kwb::toJsonText(back), text);
  EXPECT_EQ(back.cases[0].verification->nanFromOutput, 7);
  ASSERT_TRUE(back.cases[0].verification->timedOutput);
  EXPECT_EQ(back.cases[0].verification->timedOutput->mismatches, 2);
  EXPECT_EQ(back.cases[0].inputSets, 3);
  EXPECT_EQ(back.cases[0].suspicious, c.suspicious);
  EXPECT_EQ(back.settings.freshInputs, 3);
}
