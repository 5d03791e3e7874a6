// SPDX-License-Identifier: Apache-2.0
// --shard I/N's parts of a real plan (kwb/cuda/shard_plan.h) over the build's kernels and their
// families' declared work: deterministic, every case owned by exactly one part, each part's
// stages beside their size's references, balanced by estimated cost rather than by count (a
// size costlier than a fair part is cut into pieces).
#include "kwb/cuda/shard_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "kwb/error.h"
#include "kwb/shard_cost.h"
#include "registry.h"

namespace {

using kwb::cuda::PlanCase;

const bool kRegistered = (kwb::kernels::registerFamilies(), true);

std::vector<const kwb::KernelDescriptor*> gemmKernels() {
  std::vector<const kwb::KernelDescriptor*> out;
  for (const auto& k : kwb::kernels::registry().all())
    if (k.problem == "gemm") out.push_back(&k);
  return out;
}

std::vector<PlanCase> plan(const std::vector<kwb::Shape>& shapes) {
  return kwb::cuda::orderPlan(gemmKernels(), shapes);
}

std::string key(const PlanCase& p) { return p.kernel->id + " " + kwb::sizeKey(p.size); }

// The kernels a GEMM stage's samples are paired with (its % of reference figures).
bool isReference(const PlanCase& p) {
  return p.kernel->id == "cublas.sgemm" || p.kernel->id == "cublas.hgemm_f32acc" ||
         p.kernel->id == "cublas.bgemm_f32acc";
}

TEST(ShardPlan, EveryCaseRunsExactlyOnceOverTheParts) {
  ASSERT_TRUE(kRegistered);
  const auto whole = plan({{128, 128, 128},
                           {256, 384, 640},
                           {512, 512, 512},
                           {1024, 1024, 1024},
                           {511, 513, 1025},
                           {64, 64, 64},
                           {2048, 2048, 2048}});
  const kwb::cuda::RunConfig cfg;
  for (int n : {1, 2, 3, 4, 7, 9}) {
    std::multiset<std::string> seen;
    std::string hash;
    for (int i = 1; i <= n; ++i) {
      const auto part = kwb::cuda::selectShard(whole, cfg, {i, n});
      if (i == 1) hash = part.info.planHash;
      EXPECT_EQ(part.info.planHash, hash) << "shard " << i << "/" << n;
      EXPECT_EQ(part.info.plan.size(), whole.size());
      // Each case is owned by one part (its plan entry); a part runs what it owns and, for
      // every size it has a case of, that size's references, so each stage pairs with them.
      std::set<std::string> owned, sizesHere;
      for (const auto& e : part.info.plan)
        if (e.shard == i) owned.insert(e.kernel + " " + kwb::sizeKey(e.size));
      for (const PlanCase& p : part.cases) sizesHere.insert(kwb::sizeKey(p.size));
      for (const PlanCase& p : whole) {
        const bool here = std::any_of(part.cases.begin(), part.cases.end(),
                                      [&](const PlanCase& c) { return key(c) == key(p); });
        const bool reference = isReference(p);
        if (owned.count(key(p))) {
          EXPECT_TRUE(here) << key(p) << " owned but not run";
        }
        if (reference && sizesHere.count(kwb::sizeKey(p.size))) {
          EXPECT_TRUE(here) << key(p) << ": a size without its reference in " << i << "/" << n;
        }
        if (!reference && here) {
          EXPECT_TRUE(owned.count(key(p))) << key(p) << " run twice";
        }
      }
      seen.insert(owned.begin(), owned.end());
    }
    std::multiset<std::string> all;
    for (const PlanCase& p : whole) all.insert(key(p));
    EXPECT_EQ(seen, all) << n << " shards: every case owned exactly once";
  }
}

TEST(ShardPlan, IsDeterministicAndNamesItsPlan) {
  const auto whole = plan({{512, 512, 512}, {1024, 1024, 1024}, {64, 64, 64}});
  kwb::cuda::RunConfig cfg;
  const auto a = kwb::cuda::selectShard(whole, cfg, {2, 3});
  const auto b = kwb::cuda::selectShard(whole, cfg, {2, 3});
  ASSERT_EQ(a.cases.size(), b.cases.size());
  for (std::size_t i = 0; i < a.cases.size(); ++i) EXPECT_EQ(key(a.cases[i]), key(b.cases[i]));
  EXPECT_EQ(a.info.planHash, b.info.planHash);
  // Another seed or another case list is another plan.
  cfg.seed = 7;
  EXPECT_NE(kwb::cuda::selectShard(whole, cfg, {2, 3}).info.planHash, a.info.planHash);
  cfg.seed = kwb::cuda::RunConfig{}.seed;
  const auto fewer = plan({{512, 512, 512}, {1024, 1024, 1024}});
  EXPECT_NE(kwb::cuda::selectShard(fewer, cfg, {2, 3}).info.planHash, a.info.planHash);
}

TEST(ShardPlan, AHugeSizeIsCutIntoPiecesThatEachTimeItsReferences) {
  // Eight small sizes and one 8192³ GEMM whose estimated cost exceeds all of theirs together.
  std::vector<kwb::Shape> shapes;
  for (int s = 64; s <= 512; s += 64) shapes.push_back({s, s, s});
  shapes.push_back({8192, 8192, 8192});
  const auto whole = plan(shapes);
  const kwb::cuda::RunConfig cfg;
  const double hugeCost = kwb::cuda::shardCosts(plan({{8192, 8192, 8192}}), cfg, 1).front();
  int partsWithHuge = 0;
  for (int i = 1; i <= 3; ++i) {
    const auto part = kwb::cuda::selectShard(whole, cfg, {i, 3}).cases;
    int stages = 0;
    bool reference = false;
    for (const PlanCase& p : part) {
      if (p.shape().m != 8192) continue;
      reference = reference || p.kernel->id == "cublas.sgemm";
      stages += !isReference(p);
    }
    if (stages == 0) continue;
    ++partsWithHuge;
    EXPECT_TRUE(reference) << "part " << i << " times 8192³ stages without cuBLAS beside them";
  }
  EXPECT_GE(partsWithHuge, 2) << "the huge size was not cut";
  const auto costs = kwb::cuda::shardCosts(whole, cfg, 3);
  EXPECT_LT(*std::max_element(costs.begin(), costs.end()), hugeCost)
      << "no part is as costly as the uncut huge size";
}

// The estimated wall time of `costs` handed out costliest first to `gpus` GPUs.
double makespan(const std::vector<double>& costs, int gpus) {
  const std::vector<int> part = kwb::partitionByCost(costs, gpus);
  std::vector<double> load(std::size_t(gpus), 0.0);
  for (std::size_t i = 0; i < costs.size(); ++i) load[std::size_t(part[i])] += costs[i];
  return *std::max_element(load.begin(), load.end());
}

TEST(ShardPlan, APoolCutsASizeOnlyWhereThatShortensItsWallTime) {
  // Five sizes of about one cost: uncut, two GPUs get three and two sizes (the queue's end is
  // uneven); cutting one size into two pieces, each with its references, evens them out.
  const auto whole = plan({{1024, 1024, 1024},
                           {1024, 1024, 1032},
                           {1024, 1032, 1024},
                           {1032, 1024, 1024},
                           {1032, 1032, 1024}});
  const kwb::cuda::RunConfig cfg;
  // One GPU: a shard per size, nothing timed twice.
  ASSERT_EQ(kwb::cuda::poolShardCount(whole, cfg, 1), 5);
  std::size_t cases = 0;
  for (int i = 1; i <= 5; ++i) cases += kwb::cuda::selectShard(whole, cfg, {i, 5}, 1).cases.size();
  EXPECT_EQ(cases, whole.size()) << "a pool of one GPU timed a reference twice";

  const int n = kwb::cuda::poolShardCount(whole, cfg, 2);
  EXPECT_GT(n, 5) << "no size was cut for two GPUs";
  EXPECT_LT(makespan(kwb::cuda::shardCosts(whole, cfg, n, 2), 2),
            makespan(kwb::cuda::shardCosts(whole, cfg, 5, 1), 2))
      << "the cut does not shorten the pool's estimated wall time";
  std::map<std::string, int> owner;
  for (int i = 1; i <= n; ++i) {
    const auto part = kwb::cuda::selectShard(whole, cfg, {i, n}, 2);
    for (const auto& e : part.info.plan) owner[e.kernel + " " + kwb::sizeKey(e.size)] = e.shard;
    std::set<std::string> sizesHere;
    for (const PlanCase& p : part.cases) sizesHere.insert(kwb::sizeKey(p.size));
    for (const PlanCase& p : whole) {
      const bool here = std::any_of(part.cases.begin(), part.cases.end(),
                                    [&](const PlanCase& c) { return key(c) == key(p); });
      if (owner[key(p)] == i) {
        EXPECT_TRUE(here) << key(p) << " owned by " << i << " but not run";
      }
      if (isReference(p) && sizesHere.count(kwb::sizeKey(p.size))) {
        EXPECT_TRUE(here) << key(p) << ": a piece without its reference in " << i << "/" << n;
      }
      if (!isReference(p) && here) {
        EXPECT_EQ(owner[key(p)], i) << key(p) << " run twice";
      }
    }
  }
  EXPECT_EQ(owner.size(), whole.size());
  // A worker told another count than the pool's cut refuses it.
  EXPECT_THROW((void)kwb::cuda::selectShard(whole, cfg, {1, n + 1}, 2), kwb::InputError);
}

TEST(ShardCost, GrowsWithTheDeclaredWorkAndTheSettings) {
  kwb::CaseResult small, big, reduce;
  small.kernel = big.kernel = "sgemm.tiled";
  small.size = kwb::gemmSize({256, 256, 256});
  big.size = kwb::gemmSize({4096, 4096, 4096});
  reduce.kernel = "reduce.tree";
  reduce.size = kwb::vectorSize("reduce", std::int64_t{1} << 28, "f32");
  EXPECT_GT(kwb::estimateLaunchSeconds(big), 100 * kwb::estimateLaunchSeconds(small));
  // 2^28 floats read at the nominal bandwidth: about 0.7 ms, no FLOPs to speak of.
  EXPECT_NEAR(kwb::estimateLaunchSeconds(reduce), 4.0 * (1 << 28) / 1.5e12, 1e-4);
  kwb::RunSettings s;
  s.minSamples = 10;
  s.maxTimeS = 0.3;
  s.minTimeS = 0.08;
  const double timed = kwb::estimateCaseSeconds(big, s);
  s.verifyOnly = true;
  EXPECT_LT(kwb::estimateCaseSeconds(big, s), timed);
}

}  // namespace

namespace {

TEST(ShardCost, AMeasuredCaseCostsItsSamplesAndItsChecksAtItsMedian) {
  kwb::CaseResult c;
  c.kernel = "sgemm.naive";
  c.size = kwb::gemmSize({64, 64, 64});
  c.samplesMs = {3.0, 1.0, 2.0};  // per launch; median 2 ms
  c.launchesPerSample = 10;
  kwb::RunSettings s;
  s.warmups = 2;
  kwb::NominalRates r;
  r.caseOverheadS = 0.5;
  r.caseBytesPerS = 1e300;  // the buffers' term out of the way
  // Samples: (3 + 1 + 2) ms x 10 launches; checks and warm-ups: 14 launches at the median.
  EXPECT_NEAR(*kwb::measuredCaseSeconds(c, s, r), 0.5 + 0.06 + 14 * 0.002, 1e-9);
  s.verifyOnly = true;  // the checks alone
  EXPECT_NEAR(*kwb::measuredCaseSeconds(c, s, r), 0.5 + 12 * 0.002, 1e-9);
  c.samplesMs.clear();  // failed or skipped: the model's estimate instead
  EXPECT_FALSE(kwb::measuredCaseSeconds(c, s, r).has_value());
  EXPECT_EQ(kwb::caseCostKey(c), "sgemm.naive " + kwb::sizeKey(c.size));
}

TEST(ShardPlan, CostHintsCutTheSizeThatMeasuredCostliestAndNameTheirCut) {
  // Five sizes the model holds alike; measured, the last took ten times the others: a pool of
  // two GPUs then cuts that size, the model alone another, and the plan's identity says which.
  const auto whole = plan({{1024, 1024, 1024},
                           {1024, 1024, 1032},
                           {1024, 1032, 1024},
                           {1032, 1024, 1024},
                           {1032, 1032, 1024}});
  const kwb::cuda::RunConfig model;
  kwb::cuda::RunConfig hinted;
  const std::string heavy = kwb::sizeKey(whole.back().size);
  for (const PlanCase& p : whole) {
    const kwb::CaseResult planned = kwb::cuda::skippedPlanCase(p, "");
    hinted.measuredCaseSeconds[kwb::caseCostKey(planned)] =
        kwb::sizeKey(p.size) == heavy ? 1.0 : 0.1;
  }
  const int n = kwb::cuda::poolShardCount(whole, hinted, 2);
  ASSERT_GT(n, 5) << "the size measured costliest was not cut";
  std::map<std::string, int> piecesOf;  // shards holding each size's non-reference cases
  for (int i = 1; i <= n; ++i) {
    std::set<std::string> sizes;
    for (const PlanCase& p : kwb::cuda::selectShard(whole, hinted, {i, n}, 2).cases)
      if (!isReference(p)) sizes.insert(kwb::sizeKey(p.size));
    for (const std::string& s : sizes) ++piecesOf[s];
  }
  EXPECT_GT(piecesOf[heavy], 1) << "the costliest size was kept whole";
  for (const auto& [size, pieces] : piecesOf) {
    if (size != heavy) {
      EXPECT_EQ(pieces, 1) << size << " was cut, not the costliest";
    }
  }
  const std::vector<double> costs = kwb::cuda::shardCosts(whole, hinted, n, 2);
  EXPECT_GT(*std::max_element(costs.begin(), costs.end()), 2.0) << "the hints were not the costs";
  EXPECT_NE(kwb::cuda::planText(whole, hinted), kwb::cuda::planText(whole, model))
      << "shards cut by other hints would merge as one plan";
}

}  // namespace
