// SPDX-License-Identifier: Apache-2.0
// kwb's output files (docs/RELIABILITY.md, "Atomic outputs"; issue #33): never an input, never
// another output, never a device, FIFO or socket, through links too; a link stays a link; a
// file-size limit exits 2 and leaves no temporary file. None of these needs a GPU: each refusal
// comes before the device is looked for (exit 3 here would mean the run went ahead).
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "../core/sample_document.h"
#include "kwb/error.h"
#include "kwb/exporters.h"
#include "kwb/results.h"
#include "run_process.h"

namespace fs = std::filesystem;

namespace {

const std::string kExample = KWB_SOURCE_DIR "/resources/examples/sgemm_tiled_user.cu";
const std::string kPreset = KWB_SOURCE_DIR "/resources/presets/quick.json";

std::size_t entries(const fs::path& dir) {
  return std::size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

// Expects exit 2 with stderr naming the option, the path and `why`.
void expectRefused(const std::vector<std::string>& args, const std::string& option,
                   const std::string& path, const std::string& why) {
  const auto r = runKwb(args);
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << args[0] << " " << option << ": " << r.err;
  EXPECT_TRUE(contains(r.err, "'" + path + "' (" + option + ")")) << r.err;
  EXPECT_TRUE(contains(r.err, why)) << r.err;
}

}  // namespace

TEST(CliOutputs, CompileNeverReplacesItsSourceDirectlyOrThroughALink) {
  const fs::path d = tempDir("compile");
  const fs::path src = d / "m.cu";
  fs::copy_file(kExample, src);
  fs::create_symlink("m.cu", d / "link.ptx");
  fs::create_hard_link(src, d / "hard.ptx");
  for (const fs::path& ptx : {src, d / "link.ptx", d / "hard.ptx"})
    expectRefused({"compile", "--source", src.string(), "--ptx", ptx.string()}, "--ptx",
                  ptx.string(), "it is the input file (--source '" + src.string() + "')");
  EXPECT_EQ(slurp(src.string()), slurp(kExample)) << "the source was replaced";
  EXPECT_TRUE(fs::is_symlink(d / "link.ptx"));
  fs::remove_all(d);
}

TEST(CliOutputs, RunAndVerifyRefuseToWriteOntoTheirSuiteOrSourceBeforeRunning) {
  const fs::path d = tempDir("run");
  const fs::path preset = d / "p.json", src = d / "m.cu";
  fs::copy_file(kPreset, preset);
  fs::copy_file(kExample, src);
  fs::create_symlink(preset, d / "link.json");
  for (const char* cmd : {"run", "verify"})
    for (const fs::path& json : {preset, d / "link.json"})
      expectRefused({cmd, "--suite", preset.string(), "--json", json.string()}, "--json",
                    json.string(), "it is the input file (--suite");
  expectRefused({"run", "--source", src.string(), "--shapes", "64", "--csv", src.string()}, "--csv",
                src.string(), "it is the input file (--source");
  EXPECT_EQ(slurp(preset.string()), slurp(kPreset));
  EXPECT_EQ(slurp(src.string()), slurp(kExample));
  fs::remove_all(d);
}

TEST(CliOutputs, ExportRefusesTwoOutputsOneThroughALinkToTheOther) {
  const fs::path d = tempDir("export-link");
  const fs::path in = d / "r.json";
  kwb::writeDocument(makeSampleDocument(), in.string());
  fs::create_symlink("o.x", d / "l.x");  // dangling: o.x is written first
  const auto r =
      runKwb({"export", in.string(), "--csv", (d / "o.x").string(), "--md", (d / "l.x").string()});
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << r.err;
  EXPECT_TRUE(contains(r.err, "name the same file")) << r.err;
  EXPECT_FALSE(fs::exists(d / "o.x")) << "checked before anything was written";
  fs::remove_all(d);
}

// Dangling links are written through: the file the link names is created and the link stays.
TEST(CliOutputs, ExportThroughADanglingLinkCreatesItsFileAndKeepsTheLink) {
  const fs::path d = tempDir("dangling");
  const fs::path in = d / "r.json";
  kwb::writeDocument(makeSampleDocument(), in.string());
  fs::create_symlink("real.md", d / "l.md");
  const auto r = runKwb({"export", in.string(), "--md", (d / "l.md").string()});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(d / "l.md")) << "the link was replaced by a file";
  EXPECT_EQ(slurp((d / "real.md").string()), kwb::toMarkdown(kwb::readDocument(in.string())));
  fs::remove_all(d);
}

TEST(CliOutputs, ExportRefusesFifosAndSocketsThroughALink) {
  const fs::path d = tempDir("nonregular");
  const fs::path in = d / "r.json";
  kwb::writeDocument(makeSampleDocument(), in.string());
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0600), 0);
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", (d / "sock").c_str());
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  for (const char* name : {"fifo", "sock"}) {
    const fs::path link = d / (std::string(name) + ".csv");
    fs::create_symlink(name, link);
    for (const fs::path& out : {d / name, link})
      expectRefused({"export", in.string(), "--csv", out.string()}, "--csv", out.string(),
                    "not a regular file");
  }
  ::close(s);
  EXPECT_TRUE(fs::is_fifo(d / "fifo"));
  EXPECT_TRUE(fs::is_socket(d / "sock"));
  fs::remove_all(d);
}

// ulimit -f: SIGXFSZ killed kwb and left ".o.csv.XXXXXX" behind; now the write fails (EFBIG),
// exit 2 names the file, the old file is kept and no temporary file stays.
TEST(CliOutputs, AFileSizeLimitExitsTwoAndLeavesNoTemporaryFile) {
  const fs::path d = tempDir("fsize");
  const fs::path in = d / "r.json", csv = d / "o.csv";
  kwb::writeDocument(makeSampleDocument(), in.string());
  { std::ofstream(csv) << "old"; }
  const rlim_t limit = 400;
  ASSERT_GT(kwb::toCsv(makeSampleDocument()).size(), limit);
  const auto r = runKwb({"export", in.string(), "--csv", csv.string()}, "/dev/null", limit);
  EXPECT_EQ(r.exitCode, kwb::kExitBadInput) << "killed by a signal? " << r.err;
  EXPECT_TRUE(contains(r.err, "'" + csv.string() + "' (--csv)")) << r.err;
  EXPECT_EQ(slurp(csv.string()), "old");
  EXPECT_EQ(entries(d), 2u) << "a temporary file was left behind";
  fs::remove_all(d);
}
