// SPDX-License-Identifier: Apache-2.0
#include "kwb/ncu_profile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <fstream>
#include <sstream>

#include "kwb/error.h"
#include "kwb/size_json.h"

namespace {

// The shape of `ncu --import R --csv --page raw --print-units base`: ncu's own lines first,
// a header, a units row, one row per profiled launch (trimmed to the columns kwb reads).
constexpr const char* kTable =
    "==PROF== Connected to process 123\n"
    "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\","
    "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\","
    "\"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed\","
    "\"sm__warps_active.avg.pct_of_peak_sustained_active\","
    "\"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio\","
    "\"smsp__average_warps_issue_stalled_selected_per_issue_active.ratio\","
    "\"smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio\","
    "\"smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio\"\n"
    "\"\",\"\",\"byte\",\"ns\",\"%\",\"%\",\"%\",\"ratio\",\"ratio\",\"ratio\",\"ratio\"\n"
    "\"0\",\"void sgemmWarpTiled<128, 128>(int, int, int, float, const float *)\","
    "\"3,145,728\",\"14,816\",\"71.52\",\"48.10\",\"15.87\",\"0.91\",\"1.00\",\"9.50\",\"2.25\"\n"
    "\"1\",\"splitKReduce\",\"1,048,576\",\"3,104\",\"12.00\",\"60.25\",\"80.10\",\"4.10\","
    "\"1.00\",\"0.20\",\"0.30\"\n";

TEST(NcuProfile, ReadsTheFiguresOfEachProfiledLaunch) {
  const auto ks = kwb::parseNcuRawCsv(kTable, "t.csv");
  ASSERT_EQ(ks.size(), 2u);
  EXPECT_EQ(ks[0].name, "void sgemmWarpTiled<128, 128>(int, int, int, float, const float *)");
  EXPECT_DOUBLE_EQ(ks[0].durationUs, 14.816);
  EXPECT_DOUBLE_EQ(ks[0].dramBytes, 3145728.0);
  EXPECT_DOUBLE_EQ(ks[0].smThroughputPct, 71.52);
  EXPECT_DOUBLE_EQ(ks[0].memoryThroughputPct, 48.10);
  EXPECT_DOUBLE_EQ(ks[0].achievedOccupancyPct, 15.87);
  // "not_selected" (9.5) and "selected" are not stalls: the top stall is mio_throttle.
  EXPECT_EQ(ks[0].topStall, "mio_throttle");
  EXPECT_DOUBLE_EQ(ks[0].topStallCyclesPerIssue, 2.25);
  EXPECT_EQ(ks[1].topStall, "long_scoreboard");
}

// A real table: cublas.sgemm 1024^3 profiled with --set full on an H100 (columns trimmed to
// the ones kwb reads; DRAM bytes come as reads and writes there).
TEST(NcuProfile, ReadsARealTableFromAnH100) {
  std::ifstream in(std::string(KWB_SOURCE_DIR) + "/tests/data/ncu-raw-cublas-sgemm-1024-h100.csv");
  std::stringstream text;
  text << in.rdbuf();
  const auto ks = kwb::parseNcuRawCsv(text.str(), "h100.csv");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].name.rfind("sm80_xmma_gemm_f32f32", 0), 0u) << ks[0].name;
  EXPECT_DOUBLE_EQ(ks[0].durationUs, 71.68);
  EXPECT_DOUBLE_EQ(ks[0].smThroughputPct, 69.46);
  EXPECT_DOUBLE_EQ(ks[0].memoryThroughputPct, 60.39);
  EXPECT_DOUBLE_EQ(ks[0].achievedOccupancyPct, 6.25);
  EXPECT_DOUBLE_EQ(ks[0].dramBytes, 8458496.0);
  EXPECT_EQ(ks[0].topStall, "short_scoreboard");
}

std::string readFixture(const std::string& name) {
  std::ifstream in(std::string(KWB_SOURCE_DIR) + "/tests/data/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A hand-made table in the form of ncu's raw page with the metrics kwb asks for beside --set
// full (ncuExtraMetrics): a split-K GEMM launches its tiles' kernel and a reduction, twice.
// Some units are not base (Kbyte/block, Mbyte, Gbyte/second) so their scaling is read too.
TEST(NcuProfile, ReadsLaunchStatisticsStallsAndTrafficOfEachLaunch) {
  const auto ks = kwb::parseNcuRawCsv(readFixture("ncu-raw-splitk-full.csv"), "full.csv");
  ASSERT_EQ(ks.size(), 4u);
  const kwb::NcuKernelFigures& k = ks[0];
  EXPECT_EQ(k.name,
            "sgemmWarpTiledKernel(int, int, int, float, float const*, float const*, "
            "float, float*)");
  EXPECT_EQ(ks[1].name.rfind("(anonymous namespace)::splitKReduce(", 0), 0u) << ks[1].name;
  EXPECT_TRUE(k.hasLaunchStatistics());
  EXPECT_TRUE(k.hasMemoryTraffic());
  EXPECT_EQ(k.grid, "(4, 8, 4)");
  EXPECT_EQ(k.block, "(256, 1, 1)");
  EXPECT_DOUBLE_EQ(k.registersPerThread, 168);
  EXPECT_DOUBLE_EQ(k.sharedMemPerBlockBytes, 48e3);  // 48 Kbyte/block
  EXPECT_DOUBLE_EQ(k.theoreticalOccupancyPct, 12.5);
  EXPECT_DOUBLE_EQ(k.achievedOccupancyPct, 6.24);
  EXPECT_DOUBLE_EQ(k.wavesPerSm, 0.24);
  EXPECT_DOUBLE_EQ(k.dramReadBytes, 2097152);
  EXPECT_DOUBLE_EQ(k.dramWriteBytes, 24832);
  EXPECT_DOUBLE_EQ(k.dram.bytes, 2097152 + 24832);
  EXPECT_DOUBLE_EQ(k.dram.bytesPerSecond, 133.7e9);
  EXPECT_DOUBLE_EQ(k.l2.bytes, 25.17e6);  // Mbyte
  EXPECT_DOUBLE_EQ(k.l2.bytesPerSecond, 1.587e12);
  EXPECT_DOUBLE_EQ(k.l1.bytes, 50331648);
  EXPECT_DOUBLE_EQ(k.l1.bytesPerSecond, 3171.05e9);  // Gbyte/second
  // Every stall but selected and not_selected, most first.
  ASSERT_EQ(k.stalls.size(), 7u);
  EXPECT_EQ(k.stalls[0], (kwb::NcuStall{"short_scoreboard", 0.45}));
  EXPECT_EQ(k.stalls[1], (kwb::NcuStall{"barrier", 0.30}));
  EXPECT_EQ(k.stalls.back(), (kwb::NcuStall{"no_instruction", 0.02}));
  EXPECT_EQ(k.topStall, "short_scoreboard");
  EXPECT_EQ(ks[1].topStall, "long_scoreboard");
  EXPECT_DOUBLE_EQ(ks[1].topStallCyclesPerIssue, 15.02);

  // Two launches of the case (counted by its first kernel), both kernels' bytes in each.
  kwb::NcuProfile p;
  p.kernels = ks;
  const kwb::NcuPerCase per = kwb::ncuPerCase(p);
  EXPECT_EQ(per.caseLaunches, 2);
  EXPECT_DOUBLE_EQ(
      per.dramBytes,
      (2097152 + 24832 + 4194304 + 1048576 + 2098176 + 24576 + 4194304 + 1048576) / 2.0);
  EXPECT_DOUBLE_EQ(per.durationUs, (15.872 + 4.256 + 16.096 + 4.096) / 2);

  // One entry per kernel, the mean of its two launches.
  const auto mean = kwb::ncuMeanPerKernel(p);
  ASSERT_EQ(mean.size(), 2u);
  EXPECT_EQ(mean[0].name, k.name);
  EXPECT_DOUBLE_EQ(mean[0].durationUs, (15.872 + 16.096) / 2);
  EXPECT_DOUBLE_EQ(mean[1].l1.bytesPerSecond, (1232e9 + 1280e9) / 2);
  EXPECT_EQ(mean[0].grid, "(4, 8, 4)");
  ASSERT_EQ(mean[0].stalls.size(), 7u);
  EXPECT_EQ(mean[0].stalls[1].reason, "barrier");
  EXPECT_NEAR(mean[0].stalls[1].cyclesPerIssue, 0.305, 1e-12);
  EXPECT_NEAR(mean[1].topStallCyclesPerIssue, 15.03, 1e-12);

  // The JSON keeps them.
  p.kernel = "sgemm.warp_tiled";
  p.size = kwb::gemmSize({512, 512, 512});
  const auto back = kwb::ncuProfileFromJson(kwb::ncuProfileToJson(p), "p.json");
  ASSERT_EQ(back.kernels.size(), 4u);
  EXPECT_EQ(back.kernels[0].grid, "(4, 8, 4)");
  EXPECT_EQ(back.kernels[0].stalls, k.stalls);
  EXPECT_EQ(back.kernels[0].l1, k.l1);
  EXPECT_EQ(back.kernels[0].dram, k.dram);
  EXPECT_DOUBLE_EQ(back.kernels[0].theoreticalOccupancyPct, 12.5);
  EXPECT_DOUBLE_EQ(back.kernels[0].dramWriteBytes, 24832);
}

// The bundled H200 profile, recorded by kwb profile on the GPU machine with the sample it
// belongs to, has the launch statistics, stalls and traffic the case dialog shows.
TEST(NcuProfile, TheBundledH200ProfileHasLaunchStatisticsAndTraffic) {
  const auto p = kwb::ncuProfileFromJson(
      readFixture("../../resources/samples/h200/sgemm.warp_tiled-512x512x512.profile.json"),
      "sample.json");
  ASSERT_FALSE(p.kernels.empty());
  EXPECT_TRUE(p.kernels[0].hasLaunchStatistics());
  EXPECT_GT(p.kernels[0].dramBytes, 0);
}

// The bundled profiles were written before profiles carried "size": their "shape" alone still
// reads as the GEMM case's size.
TEST(NcuProfile, BundledProfilesWithOnlyAShapeReadAsAGemmSize) {
  for (const char* sample :
       {"../../resources/samples/sgemm.warp_tiled-512x512x512.profile.json",
        "../../resources/samples/h200/sgemm.warp_tiled-512x512x512.profile.json",
        "ncu-profile-before-launch-statistics.json"}) {
    const std::string text = readFixture(sample);
    ASSERT_EQ(text.find("\"size\""), std::string::npos) << sample << " is not an old profile";
    const auto p = kwb::ncuProfileFromJson(text, sample);
    EXPECT_EQ(p.size, kwb::gemmSize({512, 512, 512})) << sample;
    EXPECT_TRUE(kwb::isGemm(p.size)) << sample;
  }
}

// A profile written before kwb read launch statistics (the H200 sample as recorded at 393b681)
// still opens: they are absent, not zeros shown as figures.
TEST(NcuProfile, AnOlderProfileHasNoLaunchStatistics) {
  const auto p = kwb::ncuProfileFromJson(readFixture("ncu-profile-before-launch-statistics.json"),
                                         "older.json");
  ASSERT_FALSE(p.kernels.empty());
  EXPECT_FALSE(p.kernels[0].hasLaunchStatistics());
  EXPECT_FALSE(p.kernels[0].hasMemoryTraffic());
  EXPECT_TRUE(p.kernels[0].stalls.empty());
  EXPECT_EQ(p.kernels[0].topStall, "short_scoreboard");
  EXPECT_EQ(kwb::ncuPerCase(p).caseLaunches, 3);
}

TEST(NcuProfile, ScalesUnitsThatAreNotBase) {
  const std::string t =
      "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes.sum\"\n"
      "\"\",\"\",\"usecond\",\"Mbyte\"\n"
      "\"0\",\"k\",\"2.5\",\"1.5\"\n";
  const auto ks = kwb::parseNcuRawCsv(t, "t.csv");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_DOUBLE_EQ(ks[0].durationUs, 2.5);
  EXPECT_DOUBLE_EQ(ks[0].dramBytes, 1.5e6);
}

TEST(NcuProfile, RefusesTextThatIsNotAnNcuTable) {
  try {
    kwb::parseNcuRawCsv("==ERROR== no kernels were profiled\n", "r.csv");
    FAIL() << "no table accepted";
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("r.csv"), std::string::npos);
  }
  const std::string ragged = "\"ID\",\"Kernel Name\"\n\"0\",\"k\",\"extra\"\n";
  try {
    kwb::parseNcuRawCsv(ragged, "r.csv");
    FAIL() << "ragged row accepted";
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(kwb::parseNcuRawCsv("\"ID\",\"Kernel Name\"\n\"0\",\"unterminated\n", "r.csv"),
               kwb::InputError);
  EXPECT_THROW(kwb::parseNcuRawCsv("\"ID\",\"Name\"\n\"0\",\"k\"\n", "r.csv"), kwb::InputError);
}

TEST(NcuProfile, JsonRoundTrips) {
  kwb::NcuProfile p;
  p.kernel = "sgemm.warp_tiled";
  p.size = kwb::gemmSize({512, 256, 128});
  p.ncuPath = "/usr/local/cuda/bin/ncu";
  p.reportPath = "/r/sgemm.warp_tiled-512x256x128.ncu-rep";
  p.kernels = kwb::parseNcuRawCsv(kTable, "t.csv");
  const auto back = kwb::ncuProfileFromJson(kwb::ncuProfileToJson(p), "p.json");
  EXPECT_EQ(back.kernel, p.kernel);
  EXPECT_EQ(back.size, p.size);
  EXPECT_EQ(back.reportPath, p.reportPath);
  ASSERT_EQ(back.kernels.size(), 2u);
  EXPECT_EQ(back.kernels[0].topStall, "mio_throttle");
  EXPECT_DOUBLE_EQ(back.kernels[1].durationUs, 3.104);
  EXPECT_THROW(kwb::ncuProfileFromJson("{\"kernel\": 3}", "p.json"), kwb::InputError);
  // A GEMM profile also writes its shape, for readers from before "size".
  const auto j = nlohmann::json::parse(kwb::ncuProfileToJson(p));
  EXPECT_EQ(j.at("shape"), "512x256x128");
  EXPECT_EQ(j.at("size").at("family"), "gemm");
}

// A 1-D case's profile writes its size as a results document writes a case's (family and
// axes), no "shape", and reads it back whole.
TEST(NcuProfile, AOneDimensionalProfileRoundTripsItsSize) {
  kwb::NcuProfile p;
  p.kernel = "reduce.vectorized";
  p.size = kwb::vectorSize("reduce", std::int64_t{1} << 28, "i32");
  p.ncuPath = "ncu";
  p.reportPath = "/r/reduce.vectorized-2^28-i32.ncu-rep";
  p.kernels = kwb::parseNcuRawCsv(kTable, "t.csv");
  const std::string text = kwb::ncuProfileToJson(p);
  const auto j = nlohmann::json::parse(text);
  EXPECT_FALSE(j.contains("shape")) << text;
  EXPECT_EQ(j.at("size"), nlohmann::json(p.size)) << text;
  const auto back = kwb::ncuProfileFromJson(text, "p.json");
  EXPECT_EQ(back.size, p.size);
  EXPECT_EQ(back.size.word("type"), "i32");
  EXPECT_EQ(back.size.number("count"), std::int64_t{1} << 28);
  EXPECT_FALSE(kwb::isGemm(back.size));
  ASSERT_EQ(back.kernels.size(), 2u);
  // A size out of its family's range is refused naming the file.
  auto bad = j;
  bad["size"]["axes"][1]["value"] = "f16";
  try {
    kwb::ncuProfileFromJson(bad.dump(), "bad.profile.json");
    FAIL() << "an f16 reduce size was read";
  } catch (const kwb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.profile.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("f16"), std::string::npos) << e.what();
  }
}

TEST(NcuProfile, ProfilesOnlyTheTimedSamplesAndNotTheClockProbe) {
  const auto args = kwb::ncuProfileArgs("ncu", "/bin/kwb", "cublas.sgemm",
                                        kwb::gemmSize({512, 512, 512}), "/r/x", 8);
  auto has = [&](const std::string& a) {
    return std::find(args.begin(), args.end(), a) != args.end();
  };
  EXPECT_TRUE(has("full"));
  EXPECT_TRUE(has("kwb_samples/"));
  EXPECT_TRUE(has("regex:^(?!blockingKernel)"));
  EXPECT_TRUE(has("host"));  // the host timer never holds the stream ncu serialises
  EXPECT_TRUE(has("512x512x512"));
  EXPECT_TRUE(has("--max-case-seconds"));  // never skipped by the case budget
  // The metrics read beyond --set full's are asked for by name.
  const auto m = std::find(args.begin(), args.end(), "--metrics");
  ASSERT_NE(m, args.end());
  ASSERT_NE(m + 1, args.end());
  for (const char* name : {"launch__registers_per_thread", "launch__waves_per_multiprocessor",
                           "sm__maximum_warps_per_active_cycle_pct", "lts__t_bytes.sum.per_second",
                           "l1tex__t_bytes.sum", "dram__bytes.sum.per_second"})
    EXPECT_NE(m[1].find(name), std::string::npos) << name;
  EXPECT_EQ(kwb::ncuReportStem("user.my kernel/x", kwb::gemmSize({1, 2, 3})),
            "user.my_kernel_x-1x2x3");
  // GEMM's run is named as it always was: --shapes, no --family.
  const auto run = std::find(args.begin(), args.end(), "run");
  ASSERT_NE(run, args.end());
  EXPECT_EQ(
      std::vector<std::string>(run, run + 5),
      (std::vector<std::string>{"run", "--kernels", "cublas.sgemm", "--shapes", "512x512x512"}));
  EXPECT_EQ(std::find(args.begin(), args.end(), "--family"), args.end());
}

}  // namespace
