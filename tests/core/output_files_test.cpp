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
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using kwb::InputError;

TEST(WriteOutputs, WritesEachGivenPathInOrderAndSkipsEmptyOnes) {
  const fs::path d = tempDir("order");
  const std::string a = (d / "a.json").string(), b = (d / "b.csv").string();
  bool skippedAsked = false;
  kwb::writeOutputs({{a, [] { return std::string("one"); }, "--json"},
                     {"",
                      [&] {
                        skippedAsked = true;
                        return std::string("never");
                      },
                      "--md"},
                     {b, [] { return std::string("two"); }, "--csv"}});
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
    kwb::writeOutputs({{a, [] { return std::string("1"); }, "--json"},
                       {b, [] { return std::string("2"); }, "--csv"},
                       {bad, [] { return std::string("3"); }, "--md"}});
  });
  EXPECT_NE(e.find("'" + bad + "' (--md)"), std::string::npos) << e;
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
    kwb::writeOutputs({{bad, [] { return std::string("1"); }, "--md"},
                       {ok, [] { return std::string("2"); }, "--json"}});
  });
  EXPECT_NE(e.find("; nothing was written"), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(ok)) << "writing went on after a failure";
  fs::remove_all(d);
}

TEST(CheckOutputs, NamesTheOptionThePathAndWhy) {
  const fs::path d = tempDir("writable");
  auto check = [](const std::string& path) {
    return errorOf([&] { kwb::checkOutputs({}, {{"--json", path}}); });
  };
  EXPECT_EQ(check(d.string()), "cannot write '" + d.string() + "' (--json): it is a folder");
  const std::string missing = (d / "nowhere" / "r.json").string();
  EXPECT_EQ(check(missing), "cannot write '" + missing + "' (--json): folder '" +
                                (d / "nowhere").string() + "' does not exist");
  EXPECT_EQ(check("/dev/null"),
            "cannot write '/dev/null' (--json): not a regular file (a device, FIFO or socket is "
            "never replaced)");
  EXPECT_EQ(check((d / "new.json").string()), "no error");
  EXPECT_EQ(check("-"), "no error");
  EXPECT_EQ(check(""), "no error");
  fs::remove_all(d);
}

TEST(CheckOutputs, RefusesTwoOutputsInOneFileAndAnInputAsOutput) {
  const fs::path d = tempDir("distinct");
  const std::string in = (d / "run.json").string();
  std::ofstream(in) << "{}";
  const std::string sameViaDot = (d / "." / "run.json").string();
  EXPECT_EQ(
      errorOf([&] {
        kwb::checkOutputs({{"--source", in}}, {{"--csv", sameViaDot}});
      }),
      "cannot write '" + sameViaDot + "' (--csv): it is the input file (--source '" + in + "')");
  const std::string out = (d / "out.csv").string();
  EXPECT_EQ(errorOf([&] {
              kwb::checkOutputs({}, {{"--csv", out}, {"--md", out}});
            }),
            "--csv '" + out + "' and --md '" + out +
                "' name the same file; give each output its own file");
  EXPECT_EQ(errorOf([&] {
              kwb::checkOutputs({{"--suite", in}, {"--tuning", (d / "absent.json").string()}},
                                {{"--csv", out}, {"--md", "-"}, {"--json", "-"}});
            }),
            "no error");
  fs::remove_all(d);
}

// An input reached through a symbolic or hard link, and two outputs of which one is a link
// (dangling: its file is not written yet) to the other, are the same file.
TEST(CheckOutputs, FollowsSymbolicAndHardLinks) {
  const fs::path d = tempDir("links");
  const fs::path in = d / "m.cu";
  std::ofstream(in) << "source";
  fs::create_symlink(in, d / "soft.ptx");
  fs::create_hard_link(in, d / "hard.ptx");
  for (const char* name : {"soft.ptx", "hard.ptx"}) {
    const std::string e = errorOf([&] {
      kwb::checkOutputs({{"--source", in.string()}}, {{"--ptx", (d / name).string()}});
    });
    EXPECT_NE(e.find("it is the input file (--source"), std::string::npos) << name << ": " << e;
  }
  fs::create_symlink("o.x", d / "l.x");  // dangling, relative
  const std::string e = errorOf([&] {
    kwb::checkOutputs({}, {{"--csv", (d / "o.x").string()}, {"--md", (d / "l.x").string()}});
  });
  EXPECT_NE(e.find("name the same file"), std::string::npos) << e;
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
