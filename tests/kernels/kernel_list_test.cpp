// SPDX-License-Identifier: Apache-2.0
// The registry list decides the stage numbers (its order) and which kernels are tunable (the
// table kernels/tune/tune.cmake generates); the descriptor factories set neither.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "descriptors.h"
#include "registry.h"
#include "tuning_variants.h"

namespace {

using kwb::KernelDescriptor;
namespace kernels = kwb::kernels;

std::vector<std::pair<std::string, int>> idsAndStages(const std::vector<KernelDescriptor>& v) {
  std::vector<std::pair<std::string, int>> out;
  out.reserve(v.size());
  for (const auto& d : v) out.emplace_back(d.id, d.stage);
  return out;
}

// Known answer: the ids and stage numbers kwb has always registered.
TEST(KernelList, RegistersTheProgressionInStageOrder) {
  const auto all = kernels::registry().all();
  std::vector<std::pair<std::string, int>> expected = {
      {"sgemm.naive", 1},         {"sgemm.tiled", 2},          {"sgemm.bank_free", 3},
      {"sgemm.double_buffer", 4}, {"sgemm.tensor_core", 5},    {"sgemm.register_blocked", 6},
      {"sgemm.warp_tiled", 7},    {"sgemm.mma_multistage", 8},
  };
  // sm_90a builds add the wgmma stages: the FP16 one after mma_multistage, the BF16 one last.
  // Their numbers are kept in every build: mma_multistage_bf16 is 10 with or without them.
  const bool wgmma = kernels::registry().tryFind("sgemm.wgmma") != nullptr;
  if (wgmma) expected.emplace_back("sgemm.wgmma", 9);
  expected.emplace_back("sgemm.mma_multistage_bf16", 10);
  if (wgmma) expected.emplace_back("sgemm.wgmma_bf16", 11);
  expected.insert(expected.end(), {{"cublas.sgemm", 0},
                                   {"cublas.hgemm_f32acc", 0},
                                   {"cublas.bgemm_f32acc", 0},
                                   {"cublas.tf32", 0},
                                   // The 1-D families: stages numbered from 1 per family, then CUB.
                                   {"reduce.atomic", 1},
                                   {"reduce.shared_tree", 2},
                                   {"reduce.warp_shuffle", 3},
                                   {"reduce.vectorized", 4},
                                   {"reduce.cub_block", 5},
                                   {"cub.reduce_sum", 0},
                                   {"scan.hillis_steele", 1},
                                   {"scan.blelloch", 2},
                                   {"scan.reduce_then_scan", 3},
                                   {"scan.decoupled_lookback", 4},
                                   {"cub.inclusive_sum", 0},
                                   {"sort.block_merge", 1},
                                   {"sort.reduce_then_scan", 2},
                                   {"sort.onesweep", 3},
                                   {"cub.radix_sort", 0},
                                   {"histogram.global_atomics", 1},
                                   {"histogram.shared_atomics", 2},
                                   {"histogram.warp_private", 3},
                                   {"histogram.byte_counters", 4},
                                   {"cub.histogram_even", 0}});
  EXPECT_EQ(idsAndStages({all.begin(), all.end()}), expected);
  for (const auto& d : all) {
    EXPECT_EQ(d.reference, d.family == "cublas" || d.family == "cub") << d.id;
    // One launcher per kind: GEMM's, the 4-byte 1-D families', or the family's own type.
    const bool vector = d.problem == "reduce" || d.problem == "scan";
    EXPECT_EQ(d.problem == "gemm", bool(d.launch)) << d.id;
    EXPECT_EQ(vector, bool(d.launchVector)) << d.id;
    EXPECT_EQ(d.problem != "gemm" && !vector, d.launcher.has_value()) << d.id;
  }
}

// The factories leave the stage alone: a reordered list renumbers, per family, and a stage
// number a factory did set is overwritten.
TEST(KernelList, StageIsThePositionInTheList) {
  KernelDescriptor other = kernels::sgemmNaive();
  other.id = "other.first";
  other.family = "other";
  KernelDescriptor planted = kernels::sgemmBankFree();
  planted.stage = 7;
  const auto v = kernels::inListOrder(
      {kernels::sgemmTiled(), other, kernels::cublasSgemmRef(), kernels::sgemmNaive(), planted});
  const std::vector<std::pair<std::string, int>> expected = {{"sgemm.tiled", 1},
                                                             {"other.first", 1},
                                                             {"cublas.sgemm", 0},
                                                             {"sgemm.naive", 2},
                                                             {"sgemm.bank_free", 3}};
  EXPECT_EQ(idsAndStages(v), expected);
}

// An absent stage takes its number and leaves the list: the stages after it are numbered as in a
// build that has it.
TEST(KernelList, AnAbsentStageKeepsItsNumber) {
  const auto v = kernels::inListOrder({kernels::sgemmNaive(), kernels::absentStage("sgemm"),
                                       kernels::sgemmTiled(), kernels::cublasSgemmRef()});
  const std::vector<std::pair<std::string, int>> expected = {
      {"sgemm.naive", 1}, {"sgemm.tiled", 3}, {"cublas.sgemm", 0}};
  EXPECT_EQ(idsAndStages(v), expected);
}

// tunable and the configurations come from one table: they agree in both directions.
TEST(KernelList, TunableMeansConfigurations) {
  std::vector<std::string> tunable;
  for (const auto& d : kernels::registry().all()) {
    EXPECT_EQ(d.tunable, !kernels::tuneVariants(d.id).empty()) << d.id;
    if (d.tunable) tunable.push_back(d.id);
  }
  std::vector<std::string> expected{"sgemm.warp_tiled", "sgemm.mma_multistage"};
  if (kernels::registry().tryFind("sgemm.wgmma")) expected.emplace_back("sgemm.wgmma");
  EXPECT_EQ(tunable, expected);
  EXPECT_EQ(kernels::tunableKernels(), tunable);
  // A factory alone is not tunable: the list sets it.
  EXPECT_FALSE(kernels::sgemmWarpTiled().tunable);
  EXPECT_TRUE(kernels::inListOrder({kernels::sgemmWarpTiled()}).front().tunable);
}

TEST(KernelList, EveryTunableKernelHasConfigurations) {
  for (const auto& id : kernels::tunableKernels()) {
    const KernelDescriptor* base = kernels::registry().tryFind(id);
    ASSERT_NE(base, nullptr) << id;
    const auto variants = kernels::tuneVariants(id);
    EXPECT_GE(variants.size(), 2u) << id;
    // sgemm.wgmma's configurations instantiate no kernel (tune/wgmma_cfg.cu.in): tile width x
    // split count, global or across a cluster, and the whole-K tiles; the others compile a kernel
    // each.
    EXPECT_LE(variants.size(), id == "sgemm.wgmma" ? 37u : 8u) << id << ": keep the CI build small";
    for (const auto& v : variants) {
      EXPECT_NE(v.launch, nullptr) << v.config.name;
      EXPECT_TRUE(v.config.params.count("BM") && v.config.params.count("BN")) << v.config.name;
      const KernelDescriptor k = kernels::withVariant(*base, v);
      EXPECT_EQ(k.id, id + "[" + v.config.name + "]");
      EXPECT_EQ(k.launch, v.launch);
    }
  }
  EXPECT_TRUE(kernels::tuneVariants("sgemm.naive").empty());
  EXPECT_FALSE(kernels::hasTuneVariants("sgemm.naive"));
}

// sgemm.wgmma's cells (sm_90a builds): the 128-row tile's 27 (3 widths x split 1, 2, 4 and
// csplit 2-6, 8) and its 192- and 48-wide tiles, whole K, then the 64-row tiles, 64x64 and
// 64x96, whole K, whose CTAs have one consumer warpgroup, and last the 128-row tiles 48, 64 and
// 128 wide in clusters sharing A, then 64 and 128 wide in 2x2 clusters sharing A and B, and the
// 64x128 tile in pairs sharing B.
TEST(KernelList, WgmmaConfigurationsNameTheirTile) {
  if (!kernels::registry().tryFind("sgemm.wgmma"))
    GTEST_SKIP() << "sgemm.wgmma is built only for sm_90a (CMAKE_CUDA_ARCHITECTURES naming 90a)";
  const auto variants = kernels::tuneVariants("sgemm.wgmma");
  ASSERT_EQ(variants.size(), 37u);
  for (std::size_t i = 0; i < variants.size(); ++i) {
    if (i == 29 || i == 30 || i == 36) continue;  // the 64-row tiles
    const auto& p = variants[i].config.params;
    EXPECT_EQ(variants[i].config.name.rfind("128x", 0), 0u) << variants[i].config.name;
    EXPECT_EQ(p.at("BM"), 128) << variants[i].config.name;
    EXPECT_EQ(p.at("threads"), 384) << variants[i].config.name;
    EXPECT_EQ(p.at("sharesA"), i >= 31 ? 1 : 0) << variants[i].config.name;
    EXPECT_EQ(p.at("sharesB"), i >= 34 ? 1 : 0) << variants[i].config.name;
  }
  EXPECT_EQ(variants.front().config.name, "128x64x64_split1");
  for (int width : {192, 48}) {
    const kwb::TuneConfig& c = variants[width == 192 ? 27 : 28].config;
    EXPECT_EQ(c.name, "128x" + std::to_string(width) + "x64_split1");
    EXPECT_EQ(c.params.at("BN"), width);
    EXPECT_EQ(c.params.at("splits"), 1);
  }
  for (int width : {64, 96}) {
    const kwb::TuneConfig& c = variants[width == 64 ? 29 : 30].config;
    EXPECT_EQ(c.name, "64x" + std::to_string(width) + "x64_split1");
    EXPECT_EQ(c.params.at("BM"), 64);
    EXPECT_EQ(c.params.at("BN"), width);
    EXPECT_EQ(c.params.at("BK"), 64);
    EXPECT_EQ(c.params.at("splits"), 1);
    EXPECT_EQ(c.params.at("cluster"), 0);
    EXPECT_EQ(c.params.at("threads"), 256);  // one producer and one consumer warpgroup
  }
  const kwb::TuneConfig& pairsB = variants[36].config;  // 64x128 in pairs sharing B
  EXPECT_EQ(pairsB.name, "64x128x64_bshare1");
  EXPECT_EQ(pairsB.params.at("BM"), 64);
  EXPECT_EQ(pairsB.params.at("BN"), 128);
  EXPECT_EQ(pairsB.params.at("sharesA"), 0);
  EXPECT_EQ(pairsB.params.at("sharesB"), 1);
  EXPECT_EQ(pairsB.params.at("threads"), 256);
  const int shared[] = {48, 64, 128, 64, 128};
  for (std::size_t i = 0; i < 5; ++i) {
    const kwb::TuneConfig& c = variants[31 + i].config;
    EXPECT_EQ(c.name,
              "128x" + std::to_string(shared[i]) + (i < 3 ? "x64_ashare1" : "x64_abshare1"));
    EXPECT_EQ(c.params.at("BN"), shared[i]);
    EXPECT_EQ(c.params.at("splits"), 1);
    EXPECT_EQ(c.params.at("cluster"), 0);
  }
}

}  // namespace
