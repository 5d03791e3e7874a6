// SPDX-License-Identifier: Apache-2.0
// compute-sanitizer over `kwb verify` (ctest -L sanitizer): memcheck on every registered kernel
// at shapes that leave partial tiles in every dimension, racecheck and initcheck at one shape,
// and the proof that the memcheck check fails on a planted out-of-bounds read whose output is
// right (kwb_planted: kwb's commands with that test-only kernel registered).
//
// One sanitizer invocation per tool over all kernels and shapes: each start-up (CUDA context,
// cuBLAS, instrumenting the modules) costs more than these small cases.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "gpu_fixture.h"
#include "registry.h"
#include "sanitizer_support.h"

using kwb::test::SanitizerRun;

namespace {

// Partial tiles in every dimension for every stage (block tiles of 16 … 256 in M and N, 16 …
// 64 in K). K % 8 != 0 in 129x65x33, 17x31x47, 1x1x1 and 65x33x517, so the tensor-core stages
// take their fallback dispatch there; 144x80x336 is a multiple of 16 in every dimension, so
// they run their own kernels (cp.async and TMA pipelines wrapping round their stages, a
// partial last K tile). sgemm.warp_tiled splits K (workspace and reduction) at 144x80x336 on
// its float4 path and at 65x33x517 on its scalar path; sgemm.wgmma splits K across a cluster
// (distributed shared memory) at 144x80x1024 and 65x33x1029, where K is long over few tiles
// (tests/kernels/wgmma_choice_test.cpp checks its choice).
constexpr const char* kMemcheckShapes =
    "129x65x33,17x31x47,1x1x1,144x80x336,65x33x517,144x80x1024,65x33x1029";
constexpr int kMemcheckShapeCount = 7;
// racecheck and initcheck are slower: the one shape where every shared-memory pipeline and
// the split-K workspace and the cluster split's distributed shared memory are used.
constexpr const char* kOneShape = "144x80x1024";

class Sanitizer : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (IsSkipped()) return;
    std::string looked;
    m_sanitizer = kwb::test::findComputeSanitizer(&looked);
    if (m_sanitizer.empty())
      GTEST_SKIP() << "compute-sanitizer not found (looked in " << looked << ")";
  }
  // The kwb the clean tests check: the build's, or KWB_SANITIZER_KWB to show a failure, e.g.
  // the test-only kwb_planted, whose `--kernels all` includes the planted read.
  static std::string kwbUnderTest() {
    const char* other = std::getenv("KWB_SANITIZER_KWB");
    return other && *other ? other : KWB_EXE;
  }
  // Every GEMM kernel of the registry ran every shape: "N of N cases pass", N = kernels × shapes.
  static void expectAllCasesRan(const SanitizerRun& r, int shapes) {
    if (kwbUnderTest() != KWB_EXE) {
      std::cout << "KWB_SANITIZER_KWB is set: the case count is not checked\n";
      return;
    }
    std::size_t gemmKernels = 0;
    for (const auto& k : kwb::kernels::registry().all()) gemmKernels += k.problem == "gemm";
    const std::size_t cases = gemmKernels * std::size_t(shapes);
    const std::string want = std::to_string(cases) + " of " + std::to_string(cases) + " cases pass";
    EXPECT_NE(r.out.find(want), std::string::npos) << "expected '" << want << "'\n"
                                                   << kwb::test::kwbSummary(r);
  }
  SanitizerRun run(const std::string& tool, const std::string& kwb, const std::string& kernels,
                   const std::string& shapes, const std::string& name) const {
    return kwb::test::runSanitizer(m_sanitizer, tool, kwb,
                                   kwb::test::gemmSelection(kernels, shapes), KWB_SANITIZER_LOG_DIR,
                                   name);
  }
  std::string m_sanitizer;
};

}  // namespace

TEST_F(Sanitizer, MemcheckIsCleanOnEveryKernel) {
  const auto r = run("memcheck", kwbUnderTest(), "all", kMemcheckShapes, "memcheck");
  kwb::test::expectClean(r);
  expectAllCasesRan(r, kMemcheckShapeCount);
}

TEST_F(Sanitizer, RacecheckIsCleanOnEveryKernel) {
  const auto r = run("racecheck", kwbUnderTest(), "all", kOneShape, "racecheck");
  kwb::test::expectClean(r);
  expectAllCasesRan(r, 1);
}

TEST_F(Sanitizer, InitcheckIsCleanOnEveryKernel) {
  const auto r = run("initcheck", kwbUnderTest(), "all", kOneShape, "initcheck");
  kwb::test::expectClean(r);
  expectAllCasesRan(r, 1);
}

// The proof, in two halves. First: kwb verify alone passes the planted read at the memcheck
// shapes (C is right), so nothing but the sanitizer can catch it.
class PlantedReadKwb : public GpuTest {};

TEST_F(PlantedReadKwb, VerifyAlonePassesIt) {
  std::filesystem::create_directories(KWB_SANITIZER_LOG_DIR);
  const std::string base = std::string(KWB_SANITIZER_LOG_DIR) + "/planted-verify";
  const auto p = kwb::test::runProcess({KWB_PLANTED_EXE, "verify", "--kernels",
                                        "test.planted_oob_read", "--shapes", kMemcheckShapes},
                                       base + ".out", base + ".err");
  const std::string out = kwb::test::slurp(base + ".out");
  EXPECT_EQ(p.exitCode, 0) << out << kwb::test::slurp(base + ".err");
  const std::string want = std::to_string(kMemcheckShapeCount) + " of " +
                           std::to_string(kMemcheckShapeCount) + " cases pass";
  EXPECT_NE(out.find(want), std::string::npos) << out;
}

// Second: the memcheck tests' own assertion fails on it, and the first report it shows is the
// planted kernel's out-of-bounds read.
TEST_F(Sanitizer, MemcheckFailsOnThePlantedRead) {
  static SanitizerRun r;  // static: EXPECT_NONFATAL_FAILURE's statement may not use locals
  r = run("memcheck", KWB_PLANTED_EXE, "test.planted_oob_read", kMemcheckShapes,
          "memcheck-planted");
  EXPECT_NONFATAL_FAILURE(kwb::test::expectClean(r), "Invalid __global__ read");
  ASSERT_TRUE(r.errors.has_value()) << r.log;
  EXPECT_GT(*r.errors, 0);
  EXPECT_EQ(r.process.exitCode, kwb::test::kSanitizerErrorExitCode);
  EXPECT_NE(r.firstReport.find("plantedOobReadSgemm"), std::string::npos) << r.firstReport;
}

// The histogram family under memcheck, racecheck and initcheck: counts below, at and above a
// 16-byte vector and a block's tile, both sample types, uniform and one-bin input, and 37, 256
// and 4096 bins (stage 4's byte counters, and above 256 bins its run of stage 3's kernel),
// every kernel of the family.
TEST_F(Sanitizer, EveryToolIsCleanOnTheHistogramFamily) {
  std::string sizes = "0 u8 256 bins uniform";
  for (const char* count : {"31", "4099", "65537"})
    for (const char* type : {"u8", "f32"})
      for (const char* bins : {"37", "256", "4096"})
        for (const char* dist : {"uniform", "one-bin"})
          sizes += std::string(",") + count + " " + type + " " + bins + " bins " + dist;
  for (const char* tool : {"memcheck", "racecheck", "initcheck"}) {
    const auto r = kwb::test::runSanitizer(m_sanitizer, tool, kwbUnderTest(),
                                           {"--family", "histogram", "--sizes", sizes},
                                           KWB_SANITIZER_LOG_DIR, std::string("histogram-") + tool);
    kwb::test::expectClean(r);
    EXPECT_EQ(r.process.exitCode, 0) << kwb::test::kwbSummary(r);
  }
}

// The reduce and scan families under memcheck, racecheck and initcheck: sizes below, at and
// above a tile, a warp and a 16-byte vector, both element types, every kernel of the family
// (stages and CUB). The 1-D counterpart of the GEMM checks above.
TEST_F(Sanitizer, EveryToolIsCleanOnTheReduceAndScanFamilies) {
  for (const char* family : {"reduce", "scan"})
    for (const char* tool : {"memcheck", "racecheck", "initcheck"}) {
      const auto r = kwb::test::runSanitizer(
          m_sanitizer, tool, kwbUnderTest(),
          {"--family", family, "--sizes", "0,1,31,33,1000,4099,65537", "--types", "f32,i32"},
          KWB_SANITIZER_LOG_DIR, std::string(family) + "-" + tool);
      kwb::test::expectClean(r);
      EXPECT_EQ(r.process.exitCode, 0) << kwb::test::kwbSummary(r);
    }
}
