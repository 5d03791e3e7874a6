// SPDX-License-Identifier: Apache-2.0
// CLI tests of run, replay and export that need no GPU: bad input is refused before the
// device is touched, recorded streams replay byte for byte, documents export.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>

#include "../core/sample_document.h"
#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/exporters.h"
#include "run_process.h"

namespace fs = std::filesystem;

namespace {
fs::path temp(const std::string& name) {
  return fs::temp_directory_path() / ("kwb_engine_cli_" + std::to_string(::getpid()) + "_" + name);
}
std::string writeStream(const std::string& name, const std::vector<kwb::StreamEvent>& events) {
  const auto p = temp(name);
  std::ofstream out(p);
  for (const auto& e : events) out << kwb::toJsonLine(e) << '\n';
  return p.string();
}
}  // namespace

class BadRunInput : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(BadRunInput, ExitsTwoNamingTheInput) {
  auto args = GetParam();
  const std::string quoted = args.back();
  args.insert(args.begin(), "run");
  const auto r = runKwb(args);
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, quoted)) << "stderr should name '" << quoted << "': " << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Cli, BadRunInput,
    ::testing::Values(std::vector<std::string>{"--shapes", "0x5x5"},
                      std::vector<std::string>{"--shapes", "-3"},
                      std::vector<std::string>{"--shapes", "abc"},
                      std::vector<std::string>{"--shapes", "1x2"},
                      std::vector<std::string>{"--shapes", "5x5x5x5"},
                      std::vector<std::string>{"--shapes", "4294967296"},
                      std::vector<std::string>{"--kernels", "sgemm.nope"},
                      std::vector<std::string>{"--suite", "no-such-suite"},
                      std::vector<std::string>{"--suite", "/no/such/preset.json"},
                      std::vector<std::string>{"--json", "/no/such/dir/r.json"},
                      std::vector<std::string>{"--csv", "/no/such/dir/r.csv"}));

TEST(Cli, BadPresetFileIsNamed) {
  const auto p = temp("bad_preset.json");
  std::ofstream(p) << R"({"name":"x","shapes":["12","0x1x1"]})";
  const auto r = runKwb({"run", "--suite", p.string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, p.string())) << r.err;
  EXPECT_TRUE(contains(r.err, "0x1x1")) << r.err;
  fs::remove(p);
}

// Valid input on a machine without a GPU: exit 3, one readable line. With a GPU the run
// goes on; the contract checked then is the exit code of a passing quick case.
TEST(Cli, RunWithoutDeviceExitsThree) {
  const auto r = runKwb({"run", "--shapes", "16", "--kernels", "cublas.sgemm", "--samples", "3"});
  if (r.exitCode == kwb::kExitNoDevice) {
    EXPECT_TRUE(contains(r.err, "no CUDA device")) << r.err;
  } else {
    EXPECT_EQ(r.exitCode, 0) << r.err;
  }
}

TEST(Cli, ReplayReEmitsTheStreamExactly) {
  const auto events = sampleEvents(makeSampleDocument());
  const auto path = writeStream("ok.jsonl", events);
  const auto r = runKwb({"replay", path, "--speed", "0"});
  EXPECT_EQ(r.exitCode, 1) << r.err;  // the sample's done event says 1
  std::string expected;
  for (const auto& e : events) expected += kwb::toJsonLine(e) + "\n";
  EXPECT_EQ(r.out, expected);
  fs::remove(path);
}

TEST(Cli, ReplayedStreamRebuildsTheDocument) {
  const auto doc = makeSampleDocument();
  const auto path = writeStream("rebuild.jsonl", sampleEvents(doc));
  const auto r = runKwb({"replay", path, "--speed", "0"});
  kwb::DocumentBuilder b;
  std::istringstream lines(r.out);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) b.apply(kwb::parseEventLine(line, "stdout", ++n));
  EXPECT_TRUE(b.done());
  EXPECT_EQ(kwb::toJsonText(b.document()), kwb::toJsonText(doc));
  fs::remove(path);
}

TEST(Cli, ReplayRefusesMalformedAndTruncatedStreams) {
  auto events = sampleEvents(makeSampleDocument());
  const auto good = writeStream("good.jsonl", events);
  {
    std::ofstream out(good, std::ios::app);
    out << "{\"event\": \"case_started\"\n";
  }
  auto r = runKwb({"replay", good, "--speed", "0"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, good + ":" + std::to_string(events.size() + 1))) << r.err;
  EXPECT_TRUE(r.out.empty()) << "nothing is emitted from a bad file";
  events.pop_back();
  const auto truncated = writeStream("truncated.jsonl", events);
  r = runKwb({"replay", truncated, "--speed", "0"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "truncated")) << r.err;
  r = runKwb({"replay", "/no/such/stream.jsonl"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "/no/such/stream.jsonl")) << r.err;
  fs::remove(good);
  fs::remove(truncated);
}

TEST(Cli, ExportWritesCsvAndMarkdown) {
  const auto doc = makeSampleDocument();
  const auto in = temp("doc.json"), csv = temp("doc.csv"), md = temp("doc.md");
  kwb::writeDocument(doc, in);
  const auto r = runKwb({"export", in.string(), "--csv", csv.string(), "--md", md.string()});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(slurp(csv.string()), kwb::toCsv(doc));
  EXPECT_EQ(slurp(md.string()), kwb::toMarkdown(doc));
  for (const auto& p : {in, csv, md}) fs::remove(p);
}

TEST(Cli, ExportRefusesBadInputKeepingExistingOutput) {
  const auto bad = temp("bad.json"), csv = temp("keep.csv");
  std::ofstream(bad) << "{\"schemaVersion\": 1, \"cases\": [";
  std::ofstream(csv) << "precious";
  auto r = runKwb({"export", bad.string(), "--csv", csv.string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, bad.string())) << r.err;
  EXPECT_EQ(slurp(csv.string()), "precious");
  r = runKwb({"export", bad.string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "--csv")) << r.err;
  r = runKwb({"export", bad.string(), "--md", "/no/such/dir/x.md"});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput);
  EXPECT_TRUE(contains(r.err, "/no/such/dir")) << r.err;
  fs::remove(bad);
  fs::remove(csv);
}

// The bundled sample was recorded on a GPU as a stream and a document in one run
// (`kwb run --stream --json`): replaying the stream rebuilds that document exactly.
TEST(Cli, ReplayOfRecordedSampleRebuildsRecordedDocument) {
  const fs::path samples = fs::path(KWB_SOURCE_DIR) / "resources" / "samples";
  const auto stream = samples / "spec-benchmark-h100.jsonl";
  const auto recorded = kwb::readDocument(samples / "spec-benchmark-h100.json");
  const auto r = runKwb({"replay", stream.string(), "--speed", "0"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  kwb::DocumentBuilder b;
  std::istringstream lines(r.out);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) b.apply(kwb::parseEventLine(line, stream.string(), ++n));
  ASSERT_TRUE(b.done());
  EXPECT_EQ(b.finishedCases(), int(recorded.cases.size()));
  // Compared by position: gtest's diff of two 100k-line texts takes minutes and gigabytes.
  const std::string rebuilt = kwb::toJsonText(b.document()), want = kwb::toJsonText(recorded);
  const auto at = std::mismatch(rebuilt.begin(), rebuilt.end(), want.begin(), want.end());
  const auto offset = std::size_t(at.first - rebuilt.begin());
  EXPECT_TRUE(at.first == rebuilt.end() && at.second == want.end())
      << "first difference at character " << offset
      << ":\n rebuilt: " << rebuilt.substr(offset < 200 ? 0 : offset - 200, 400)
      << "\n recorded: " << want.substr(offset < 200 ? 0 : offset - 200, 400);
}
