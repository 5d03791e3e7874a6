// SPDX-License-Identifier: Apache-2.0
// kwb profile against a stand-in for ncu: a script that answers the two calls kwb makes
// (the profiled run, which writes the report, and --import, which prints the raw table).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.h"

namespace {

namespace fs = std::filesystem;

struct FakeNcu {
  fs::path dir;
  std::string ncu;
  // `profileExit`: what the profiled run exits with; the table comes from `table`.
  FakeNcu(int profileExit, const std::string& table) {
    dir = fs::temp_directory_path() /
          ("kwb_fake_ncu_" + std::to_string(::getpid()) + "_" + std::to_string(profileExit));
    fs::create_directories(dir);
    std::ofstream(dir / "table.csv") << table;
    ncu = (dir / "ncu").string();
    std::ofstream s(ncu);
    s << "#!/bin/sh\n"
      << "for a in \"$@\"; do [ \"$a\" = --import ] && exec cat '" << (dir / "table.csv").string()
      << "'; done\n"
      << "echo \"$@\" > '" << (dir / "args.txt").string() << "'\n"
      << "printf '%s\\n' \"$@\" > '" << (dir / "args.lines").string() << "'\n"
      << "prev=; for a in \"$@\"; do [ \"$prev\" = --export ] && : > \"$a.ncu-rep\"; prev=$a; "
         "done\n"
      << "echo '==PROF== profiling done'; exit " << profileExit << "\n";
    s.close();
    ::chmod(ncu.c_str(), 0755);
  }
  // The profiled command's arguments, one each (an argument may hold spaces: "2^20 f32").
  std::vector<std::string> args() const {
    std::vector<std::string> out;
    std::ifstream in(dir / "args.lines");
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }
  // The `kwb run` ncu was asked to profile, up to its --timer.
  std::vector<std::string> profiledRun() const {
    const auto a = args();
    const auto run = std::find(a.begin(), a.end(), "run");
    return {run, std::find(run, a.end(), "--timer")};
  }
  ~FakeNcu() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

constexpr const char* kTable =
    "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\","
    "\"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio\"\n"
    "\"\",\"\",\"ns\",\"byte\",\"ratio\"\n"
    "\"0\",\"sgemmTiled\",\"27,940\",\"3,145,728\",\"3.5\"\n";

TEST(ProfileCli, PrintsTheFiguresAndKeepsTheReport) {
  FakeNcu fake(0, kTable);
  const auto r = runKwb({"profile", "--kernel", "sgemm.tiled", "--shape", "64", "--out",
                         fake.dir.string(), "--ncu", fake.ncu, "--json", "-"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "\"topStall\": \"barrier\"")) << r.out;
  EXPECT_TRUE(contains(r.out, "27.94")) << r.out;
  EXPECT_TRUE(fs::exists(fake.dir / "sgemm.tiled-64x64x64.ncu-rep"));
  const std::string args = slurp((fake.dir / "args.txt").string());
  EXPECT_TRUE(contains(args, "--set full")) << args;
  EXPECT_TRUE(contains(args, "run --kernels sgemm.tiled --shapes 64x64x64 --timer host")) << args;
}

// A table with launch statistics and traffic (the hand-made one of tests/data, in ncu's raw
// form): the printout adds each kernel's launch and traffic line and the DRAM bytes of one
// launch of the case, and ncu was asked for those metrics by name.
TEST(ProfileCli, PrintsLaunchStatisticsAndTheDramBytesPerLaunchOfTheCase) {
  std::ifstream in(std::string(KWB_SOURCE_DIR) + "/tests/data/ncu-raw-splitk-full.csv");
  std::stringstream table;
  table << in.rdbuf();
  FakeNcu fake(0, table.str());
  const auto r = runKwb({"profile", "--kernel", "sgemm.tiled", "--shape", "64", "--out",
                         fake.dir.string(), "--ncu", fake.ncu});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "(4, 8, 4)")) << r.out;
  EXPECT_TRUE(contains(r.out, "12.5 / 6.2")) << r.out;  // theoretical / achieved occupancy
  EXPECT_TRUE(contains(r.out, "DRAM per launch of the case: 7.37 MB (2 launches profiled)"))
      << r.out;
  const std::string args = slurp((fake.dir / "args.txt").string());
  EXPECT_TRUE(contains(args, "--metrics launch__registers_per_thread,")) << args;
}

// A missing --out folder whose parent exists is made, as mkdir would (the report lands in it).
TEST(ProfileCli, AMissingOutFolderIsMadeWhereItsParentExists) {
  FakeNcu fake(0, kTable);
  const fs::path out = fake.dir / "reports";
  ASSERT_FALSE(fs::exists(out));
  const auto r = runKwb({"profile", "--kernel", "sgemm.tiled", "--shape", "64", "--out",
                         out.string(), "--ncu", fake.ncu});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(fs::exists(out / "sgemm.tiled-64x64x64.ncu-rep"));
}

TEST(ProfileCli, AFailedNcuRunEndsWithItsOutputAndExitOne) {
  FakeNcu fake(7, kTable);
  const auto r = runKwb({"profile", "--kernel", "sgemm.tiled", "--shape", "64", "--out",
                         fake.dir.string(), "--ncu", fake.ncu});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "exit 7")) << r.err;
  EXPECT_TRUE(contains(r.err, "profiling done")) << r.err;
}

TEST(ProfileCli, ATableWithNoKernelIsAFailureNotAnEmptyResult) {
  FakeNcu fake(0, "\"ID\",\"Kernel Name\"\n");
  const auto r = runKwb({"profile", "--kernel", "sgemm.tiled", "--shape", "64", "--out",
                         fake.dir.string(), "--ncu", fake.ncu});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(contains(r.err, "profiled no kernel")) << r.err;
}

TEST(ProfileCli, BadInputNamesIt) {
  FakeNcu fake(0, kTable);
  auto r = runKwb({"profile", "--kernel", "sgemm.nope", "--shape", "64", "--ncu", fake.ncu});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "sgemm.nope")) << r.err;
  r = runKwb({"profile", "--kernel", "sgemm.tiled", "--shape", "64", "--out", "/no/such/dir",
              "--ncu", fake.ncu});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "/no/such/dir")) << r.err;
  r = runKwb({"profile", "--kernel", "sgemm.tiled", "--shape", "64", "--out",
              (fake.dir / "table.csv").string(), "--ncu", fake.ncu});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "table.csv': exists and is not a folder")) << r.err;
  r = runKwb({"profile", "--kernel", "sgemm.tiled", "--shape", "64", "--ncu", "/no/such/ncu"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "/no/such/ncu")) << r.err;
}

// A reduce case: the family comes from the kernel, the size from --sizes and --types as kwb run
// takes them; the profiled run names the family and the whole size, and the report its size.
TEST(ProfileCli, ProfilesAReduceCaseByItsSizeAndType) {
  FakeNcu fake(0, kTable);
  const auto r = runKwb({"profile", "--kernel", "reduce.vectorized", "--sizes", "2^20", "--types",
                         "f32", "--out", fake.dir.string(), "--ncu", fake.ncu, "--json", "-"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(fake.profiledRun(),
            (std::vector<std::string>{"run", "--kernels", "reduce.vectorized", "--family", "reduce",
                                      "--sizes", "2^20 f32"}));
  const auto a = fake.args();
  EXPECT_NE(std::find(a.begin(), a.end(), "kwb_samples/"), a.end());
  EXPECT_TRUE(fs::exists(fake.dir / "reduce.vectorized-2^20-f32.ncu-rep"));
  EXPECT_TRUE(contains(r.out, "\"family\": \"reduce\"")) << r.out;
  EXPECT_FALSE(contains(r.out, "\"shape\"")) << r.out;
  EXPECT_TRUE(contains(r.out, "reduce.vectorized-2^20-f32.ncu-rep")) << r.out;
}

// Scan with the size's type in its text and the family named; sort with its one key type
// taken by default, as kwb run takes it.
TEST(ProfileCli, ProfilesAScanAndASortCase) {
  FakeNcu fake(0, kTable);
  auto r = runKwb({"profile", "--kernel", "scan.blelloch", "--family", "scan", "--size",
                   "1000003 i32", "--out", fake.dir.string(), "--ncu", fake.ncu});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(fake.profiledRun(),
            (std::vector<std::string>{"run", "--kernels", "scan.blelloch", "--family", "scan",
                                      "--sizes", "1000003 i32"}));
  EXPECT_TRUE(fs::exists(fake.dir / "scan.blelloch-1000003-i32.ncu-rep"));
  r = runKwb({"profile", "--kernel", "sort.onesweep", "--sizes", "2^20", "--out", fake.dir.string(),
              "--ncu", fake.ncu});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto run = fake.profiledRun();
  ASSERT_EQ(run.size(), 7u);
  EXPECT_EQ(run[4], "sort");
  EXPECT_EQ(run[6].rfind("2^20 ", 0), 0u) << run[6];  // the count, then the default key type
  std::string stem = "sort.onesweep-" + run[6];
  std::replace(stem.begin(), stem.end(), ' ', '-');
  EXPECT_TRUE(fs::exists(fake.dir / (stem + ".ncu-rep"))) << stem;
}

// A case that is not one case of the kernel's family is refused before ncu runs, exit 2,
// naming the option to change.
TEST(ProfileCli, ABadCaseIsRefusedNamingTheOption) {
  FakeNcu fake(0, kTable);
  struct Bad {
    std::vector<std::string> args;
    std::vector<std::string> said;
  };
  const std::vector<Bad> bad{
      {{"--kernel", "sgemm.tiled", "--sizes", "2^20"}, {"--sizes", "gemm"}},
      {{"--kernel", "sgemm.tiled", "--shape", "2^20"}, {"--shape", "2^20"}},
      {{"--kernel", "reduce.vectorized", "--shape", "64"}, {"--shape", "reduce", "--sizes"}},
      {{"--kernel", "reduce.vectorized", "--sizes", "2^20,2^24", "--types", "f32"},
       {"one case", "2^20 f32, 2^24 f32", "--sizes"}},
      {{"--kernel", "reduce.vectorized", "--sizes", "2^20"}, {"one case", "--types"}},
      {{"--kernel", "reduce.vectorized", "--sizes", "2^20", "--types", "f16"}, {"type", "f16"}},
      {{"--kernel", "sgemm.tiled", "--shape", "64,128"}, {"one case", "--shape"}},
      {{"--kernel", "reduce.vectorized"}, {"--sizes", "reduce"}},
      {{"--kernel", "scan.blelloch", "--family", "reduce", "--sizes", "2^20"},
       {"scan.blelloch", "--family scan"}},
  };
  for (const Bad& b : bad) {
    std::vector<std::string> args{"profile"};
    args.insert(args.end(), b.args.begin(), b.args.end());
    args.insert(args.end(), {"--out", fake.dir.string(), "--ncu", fake.ncu});
    const auto r = runKwb(args);
    std::string line;
    for (const auto& a : b.args) line += a + " ";
    EXPECT_EQ(r.exitCode, 2) << line << r.err;
    for (const auto& s : b.said) EXPECT_TRUE(contains(r.err, s)) << line << "\n" << r.err;
  }
  EXPECT_FALSE(fs::exists(fake.dir / "args.lines")) << "ncu ran for a refused case";
}

}  // namespace
