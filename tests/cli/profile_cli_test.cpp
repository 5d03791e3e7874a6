// SPDX-License-Identifier: Apache-2.0
// kwb profile against a stand-in for ncu: a script that answers the two calls kwb makes
// (the profiled run, which writes the report, and --import, which prints the raw table).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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
      << "prev=; for a in \"$@\"; do [ \"$prev\" = --export ] && : > \"$a.ncu-rep\"; prev=$a; "
         "done\n"
      << "echo '==PROF== profiling done'; exit " << profileExit << "\n";
    s.close();
    ::chmod(ncu.c_str(), 0755);
  }
  ~FakeNcu() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

const char* kTable =
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
  r = runKwb({"profile", "--kernel", "sgemm.tiled", "--shape", "64", "--ncu", "/no/such/ncu"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_TRUE(contains(r.err, "/no/such/ncu")) << r.err;
}

}  // namespace
