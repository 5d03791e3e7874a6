// SPDX-License-Identifier: Apache-2.0
// The files a command writes (kwb/output_files.h): checked before the work, written in order,
// and a failure names what was already written; and a percentage option (kwb/format.h).
#include "kwb/output_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "kwb/error.h"
#include "kwb/format.h"

namespace {

namespace fs = std::filesystem;
using kwb::InputError;

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

fs::path tempDir(const std::string& name) {
  const fs::path d =
      fs::temp_directory_path() / ("kwb_outputs_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(WriteOutputs, WritesEachGivenPathInOrderAndSkipsEmptyOnes) {
  const fs::path d = tempDir("order");
  const std::string a = (d / "a.json").string(), b = (d / "b.csv").string();
  bool skippedAsked = false;
  kwb::writeOutputs({{a, [] { return std::string("one"); }},
                     {"",
                      [&] {
                        skippedAsked = true;
                        return std::string("never");
                      }},
                     {b, [] { return std::string("two"); }}});
  EXPECT_EQ(slurp(a), "one");
  EXPECT_EQ(slurp(b), "two");
  EXPECT_FALSE(skippedAsked) << "an output nobody asked for was produced";
  fs::remove_all(d);
}

TEST(WriteOutputs, AFailureNamesTheFilesAlreadyWritten) {
  const fs::path d = tempDir("planted");
  const std::string a = (d / "a.json").string(), b = (d / "b.csv").string();
  const std::string bad = (d / "missing-folder" / "c.md").string();  // planted: cannot be written
  const std::string e = errorOf([&] {
    kwb::writeOutputs({{a, [] { return std::string("1"); }},
                       {b, [] { return std::string("2"); }},
                       {bad, [] { return std::string("3"); }}});
  });
  EXPECT_NE(e.find(bad), std::string::npos) << e;
  EXPECT_NE(e.find("; already written: '" + a + "', '" + b + "'"), std::string::npos) << e;
  EXPECT_EQ(slurp(a), "1");
  EXPECT_EQ(slurp(b), "2");
  fs::remove_all(d);
}

TEST(WriteOutputs, AFirstFailureSaysNothingWasWritten) {
  const fs::path d = tempDir("first");
  const std::string bad = (d / "missing-folder" / "c.md").string();
  const std::string ok = (d / "later.json").string();
  const std::string e = errorOf([&] {
    kwb::writeOutputs(
        {{bad, [] { return std::string("1"); }}, {ok, [] { return std::string("2"); }}});
  });
  EXPECT_NE(e.find("; nothing was written"), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(ok)) << "writing went on after a failure";
  fs::remove_all(d);
}

TEST(CheckWritable, NamesThePathAndWhy) {
  const fs::path d = tempDir("writable");
  EXPECT_EQ(errorOf([&] { kwb::checkWritable(d.string()); }),
            "cannot write '" + d.string() + "': it is a directory");
  const std::string missing = (d / "nowhere" / "r.json").string();
  EXPECT_EQ(
      errorOf([&] { kwb::checkWritable(missing); }),
      "cannot write '" + missing + "': folder '" + (d / "nowhere").string() + "' does not exist");
  EXPECT_EQ(errorOf([&] { kwb::checkWritable("/dev/null"); }),
            "cannot write '/dev/null': not a regular file (a device, FIFO or socket is never "
            "replaced)");
  EXPECT_EQ(errorOf([&] { kwb::checkWritable((d / "new.json").string()); }), "no error");
  EXPECT_EQ(errorOf([] { kwb::checkWritable("-"); }), "no error");
  EXPECT_EQ(errorOf([] { kwb::checkWritable(""); }), "no error");
  fs::remove_all(d);
}

TEST(CheckDistinct, RefusesTwoOutputsInOneFileAndTheInputAsOutput) {
  const fs::path d = tempDir("distinct");
  const std::string in = (d / "run.json").string();
  std::ofstream(in) << "{}";
  const std::string sameViaDot = (d / "." / "run.json").string();
  EXPECT_EQ(errorOf([&] {
              kwb::checkDistinct({{"input", in}, {"--csv", sameViaDot}});
            }),
            "cannot write '" + sameViaDot + "' (--csv): it is the input file");
  const std::string out = (d / "out.csv").string();
  EXPECT_EQ(errorOf([&] {
              kwb::checkDistinct({{"--csv", out}, {"--md", out}});
            }),
            "--csv and --md name the same file '" + out + "'; give each output its own file");
  EXPECT_EQ(errorOf([&] {
              kwb::checkDistinct({{"input", in}, {"--csv", out}, {"--md", "-"}, {"--json", "-"}});
            }),
            "no error");
  fs::remove_all(d);
}

TEST(ParsePercent, ReadsWithOrWithoutTheSign) {
  EXPECT_DOUBLE_EQ(kwb::parsePercent("3%", "--same-within"), 0.03);
  EXPECT_DOUBLE_EQ(kwb::parsePercent("3", "--same-within"), 0.03);
  EXPECT_DOUBLE_EQ(kwb::parsePercent("0", "--same-within"), 0.0);
  EXPECT_DOUBLE_EQ(kwb::parsePercent("1000%", "--same-within"), 10.0);
}

TEST(ParsePercent, RefusesAnythingElseNamingTheOptionAndValue) {
  for (const char* bad : {"", "%", "abc", "3%%", "-1", "1001", "nan", "inf", "3 %", "2x"})
    EXPECT_EQ(errorOf([&] { kwb::parsePercent(bad, "--fail-on-slower"); }),
              std::string("--fail-on-slower '") + bad +
                  "': expected a percentage from 0 to 1000, e.g. 3%")
        << bad;
}

}  // namespace
