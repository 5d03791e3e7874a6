// SPDX-License-Identifier: Apache-2.0
#include "sgemm_wgmma_choice.h"

#include "detail/half_restride.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <stdexcept>
#include <string>

namespace kwb::kernels {

namespace {

constexpr int kTileWidths[] = {256, 128, 64};  // widest first: ties go to the wider tile

// A split's range is at least two k blocks: one block per CTA leaves the 4-stage ring nothing to
// overlap, and the partial tile it writes costs as much as the block's MMAs.
constexpr std::int64_t kMinKBlocksPerSplit = 2;

// Split-K is chosen only where the model puts it at least 5% ahead of the best unsplit width: its
// partial-tile cost is an estimate, and inside that margin the measured unsplit choice stays
// (1024^3: 128x64 unsplit, 91% of cuBLAS on an H200, against 4% predicted for 128x128 in 2).
constexpr double kSplitMargin = 0.05;

// A forced plan whose partial tiles would pass 1 GiB (8192^3 in 8 splits: 2 GiB) runs unsplit and
// says so in its name: split-K is for grids that leave SMs idle, never that large.
constexpr std::size_t kMaxPartialBytes = std::size_t(1) << 30;

// The cost model's constants, ns, from the forced tile widths measured on an H100 at 512³ and
// 1024³ (PERF_NOTES.md, "Small and medium shapes"): those shapes are one wave for every width, so
// time ≈ fixed + k blocks · per block fits them (64: 1.0 µs + 0.36 µs per block; 128: 2.4 +
// 0.36; 256: 4.3 + 0.575). The partial tile's cost is measured too (`kwb tune --kernel
// sgemm.wgmma` on an H200, 2026-11-27, PERF_NOTES.md "Split-K for wgmma: measured, did not pay"):
// 2.2-4.8 µs a split on the 128x64 tile, 4.1 on 128x128, 8.4 on 128x256, where one warp sums
// the partials; at these costs the model splits no shape of the sweep, as measured.
//
// Split-K across a cluster (clusterReduceNs) is measured (`kwb tune --kernel sgemm.wgmma`, one
// H200, 2026-11-27, PERF_NOTES.md "Split-K across a cluster: measured"): a cluster of two 128x64
// CTAs at 512^3 took 4.9 us against 4.4 whole, where the k blocks it saves are worth 1.4 us, so
// its reduction and cluster launch cost about 2.5 us; the wider tiles more. Clusters of 4 or more
// took a second wave or worse at every shape (the cluster's CTAs must share a GPC), so the
// default asks for at most kMaxDefaultClusterSplits; the tune cells still time 2-8. The one shape
// of the sweep where it paid is a long K over few tiles: 511x513x1025, 17.5 us in 3 against 20.2.
struct TileCost {
  int tileN;
  double fixedNs, perKBlockNs, perPartialNs, clusterReduceNs;
};
constexpr TileCost kCosts[] = {
    {256, 4300, 575, 8400, 5000}, {128, 2400, 360, 4100, 3500}, {64, 1000, 360, 2500, 2500}};
constexpr int kMaxDefaultClusterSplits = 3;

const TileCost& costOf(int tileN) {
  for (const TileCost& c : kCosts)
    if (c.tileN == tileN) return c;
  return kCosts[0];
}

// The widths a tile name can have: kTileWidths, the unsplit-only 192 and 48, and the 64-row tile's
// 96; a name's index is the width's place here (an unknown width takes the last).
constexpr int kNamedWidths[] = {64, 128, 256, 192, 48, 96};
constexpr int kNamedWidthCount = int(std::size(kNamedWidths));
int widthIndex(int tileN) {
  for (int i = 0; i + 1 < kNamedWidthCount; ++i)
    if (kNamedWidths[i] == tileN) return i;
  return kNamedWidthCount - 1;
}

// Clusters of two CTAs sharing B for long runs of the 128x256 tile: at least 8 tiles per SM
// (8192^3 has 15.5). Measured on an H100 (kernels/PERF_NOTES.md): they halve B's L2 reads but
// tie each CTA's pipeline to its peer's; at 8192^3 that paid (99.2-100.0% of cuBLAS against
// 98.6-99.3%), at 4096^3 (3.9 tiles per SM) it did not (98.1-98.8% against 98.5%), and at
// 2048^3 (one wave) it cost 5%.
bool clustersPay(const Shape& s, int sms) { return wgmmaTiles(s, 256) >= 8 * std::int64_t(sms); }

// Whole K per tile, as measured before split-K (PERF_NOTES.md, "Small and medium shapes"): the
// widest tile whose grid gives 3/4 of the SMs a tile each (128x256 from 2048^2 of C up, 128x64 at
// 1024^2), else the narrowest, which gives the most.
WgmmaPlan wholeKPlan(const Shape& s, int sms) {
  const std::int64_t enough = std::int64_t(sms) * 3 / 4;
  if (wgmmaTiles(s, 256) >= enough) return {256, 1, clustersPay(s, sms)};
  if (wgmmaTiles(s, 128) >= enough) return {128, 1, false};
  return {64, 1, false};
}

// The unsplit tiles' wave model, fitted to `kwb tune --kernel sgemm.wgmma` on an H200 (132 SMs,
// 2026-11-27; 39 shapes from 256^3 to 4096^3, PERF_NOTES.md "Choosing the tile by waves"): a
// tile's time is a fixed cost plus, per k block, a cost for each tile the busiest SM runs
// (⌈tiles / SMs⌉; the 64x64 tile's cost per block is that of a tile sharing its SM with another).
// Relative error 1-10% on shapes whose rows start on 128-byte lines; rows off the line run up to
// twice slower on narrow tiles, which this model does not know (onTheLine). The 128x192 tile's
// constants are fitted the same way to its times at 10 shapes from 768^3 to 3072^3 and
// 1536x1536x4096 (kwb tune on an H200, 2026-12-02; relative error -7% to +9%): one wave of 96
// tiles at 1536^3 where 128x256 makes 72 and 128x128 two waves of 144 (15.3 against 19.0 us).
struct WaveCost {
  int tileM, tileN;
  double fixedNs, perTileKBlockNs;
};
constexpr WaveCost kWaveCosts[] = {  // widest first: ties go to the wider tile
    {kWgmmaTileM, 256, 3420, 711},
    {kWgmmaTileM, 192, 2350, 522},
    {kWgmmaTileM, 128, 2640, 383},
    {kWgmmaTileM, 64, 2170, 269},
    {kWgmmaShortTileM, 64, 2220, 155}};

double waveNs(const WaveCost& c, const Shape& s, int sms) {
  const std::int64_t tiles = wgmmaTiles(s, c.tileN, c.tileM);
  const std::int64_t perSm = sms > 0 ? (tiles + sms - 1) / sms : tiles;
  return c.fixedNs + double(perSm * wgmmaKBlocks(s)) * c.perTileKBlockNs;
}

// Rows of A (K halves) and of B (N halves) that start on 128-byte lines as the launch loads them,
// TMA's fast case: as they lie, or copied to such rows first (detail::relayMultiple 64: the copy
// made where TMA cannot load an operand as it lies).
bool onTheLine(const Shape& s) {
  return detail::relayMultiple(s.n, s.k) == 64 ||
         (s.k % kWgmmaKBlock == 0 && s.n % kWgmmaKBlock == 0);
}

// CTAs of a grid of tileM x tileN tiles in clusters of cm x cn (cm along M), in whole clusters.
std::int64_t clusteredCtas(const Shape& s, int tileM, int tileN, int cm, int cn) {
  const std::int64_t rows = (s.m + tileM - 1) / tileM, cols = (s.n + tileN - 1) / tileN;
  return (rows + cm - 1) / cm * cm * ((cols + cn - 1) / cn * cn);
}

// Rows off the line, loaded as they lie: every 128-byte box row straddles two lines, and the
// narrow tiles, which load the most rows per multiply-add, pay the most. Measured on an H100
// (kwb tune --kernel sgemm.wgmma, 18 shapes from 500^3 to 4000x4000x1000 with K or N not a
// multiple of 64, PERF_NOTES.md "Rows off the line: the tile"): 128x64 was never the fastest
// tile; the widest of 128x256 and 128x128 whose grid gives about half the SMs (15/32) a tile was
// the fastest unsplit tile at every shape, and where neither does, 64x64 (1000^3 128x128 15%
// faster than 128x64, 640x640x1000 64x64 55%). Among the 64-row tiles, 64x96 where 64x64's grid
// is more than one CTA per SM and 64x96's is not (kwb tune on an H200, 2026-12-02: 800^3 5.44
// against 6.18 us, 800x800x1000 7.84 against 8.49, 768x768x1000 7.56 against 7.63; at
// 640x640x1000, whose 100 tiles of 64x64 already fit, 64x96 took 7.73 against 5.03). Its B boxes
// are 64-byte rows, which 800-half rows (1600 bytes) start on where 128-byte rows straddle.
//
// Before those, clusters that share operands, so that each CTA loads fewer of the line-straddling
// rows (PERF_NOTES.md "Clusters sharing A, and 2x2"; kwb tune on an H200, 2026-12-02, 20 shapes
// off the line):
// - 128x64 or 128x128 in pairs sharing A (WgmmaPlan::sharesA; 128x64 loads 8 + 8 KB a stage, not
//   16 + 8) where the tile's grid is one wave of at least 7/8 of the SMs: 1000^3 8.42 against
//   9.87 us (128x128), 1000x1000x2000 13.15 against 15.14, 1400^3 15.09 against 17.29 (128x256);
//   held out, 968^3 -5%, 1352^3 -13%, 1300x1304x1000 -11%, 1000x960x1000 +0.5%.
// - Else 2x2 clusters sharing A and B (a quarter of each less: 128x128 loads 8 + 8 KB, not 16 +
//   16) of the wider of 128x128 and 128x64 whose grid, rounded up to whole clusters, gives at
//   least half the SMs a CTA and at most 7/8 (a cluster of four must sit in one GPC: on an H200
//   30 of this kernel fit at once, cudaOccupancyMaxActiveClusters, and 1000^3's 32 of 128x64
//   took 11.1 us, two waves, against 8.42 in pairs); 128x64 only where rows of A or B also
//   start off the 32-byte sectors (K or N 8 mod 16): 1032^3 10.48 against 14.16 us (128x128),
//   1200x1000x1000 9.16 against 13.97, 1200^3 9.79 against 10.53, 840^3 (128x64) 6.95 against
//   9.77 (64x96), 768x768x1000 6.64 against 7.31; on the sectors 128x64 lost (800^3 6.80 against
//   5.44, 880^3 6.91 against 6.99 and 6.13 for 128x64 alone), and past one wave (1400^3's 144
//   CTAs) 2x2 took 19.72 against 15.09 in pairs.
//
// Where either rule picks 128x64 (in pairs or 2x2), the 64x128 tile in pairs along M sharing B
// runs instead if its grid, in whole pairs, fits the SMs (it always does where 2x2 of 128x64 would
// run: 2·⌈M/128⌉·⌈N/128⌉ CTAs, at most the 2x2 grid's): the same bytes a stage as 128x64 in
// pairs (half of 16 KB of B, 8 KB of A), one consumer warpgroup issuing m64n128k16 where two issue
// m64n64k16 (kwb tune on an H200, 2026-12-03, against the pairs of 128x64: 1000^3 +6.4%,
// 1000x1000x2000 +13%, 900x1000x1000 +15%, 968^3 +6.9%, 1000x1000x1500 +6.8%, 1016x1000x1000
// +4.6%, 1000x1000x520 +4.0%, 1000x1000x3000 +0.6%, 1000x960x1000 -2.7%; against 2x2 of 128x64:
// 800x800x1000 +16%, 840^3 +1.2%, 768x768x1000 +1.0%).
WgmmaPlan pairsSharingBOr(const Shape& s, int sms, const WgmmaPlan& otherwise) {
  if (clusteredCtas(s, kWgmmaShortTileM, 128, 2, 1) > sms) return otherwise;
  return {128, 1, true, false, kWgmmaShortTileM};
}

// Large products whose A and B rows both start off the 32-byte sectors (K and N ≡ 8 mod 16: each
// 128-byte box row touches a fifth sector), loaded as they lie: 2x2 clusters of 128x128 however
// many waves (each CTA loads a quarter less of A and of B), not the wave model's tile on copied
// operands, which they replace (kwb tune on an H200, 2026-12-03, as they lie against the copy:
// 3000^3 93.4 against 97.9 us, 5000^3 416 against 461, 5000x1000x1000 22.1 against 30.2,
// 1000x1000x5000 27.2 against 33.4 (a cluster split), 3000x3000x1000 37.2 against 39.7: 9 of
// the 10 shapes it takes faster by 2-27%; 2000x3000x3000 1.1% slower). On the sectors 2x2 lost
// past one wave (2000^3 35.7 against 26.0 us, 4000x4000x1000 63.1 against 60.9).
constexpr std::int64_t kOffSectorsTwoByTwoMnk = 4'000'000'000;
bool offSectorsAtScale(const Shape& s) {
  return s.k % 16 == 8 && s.n % 16 == 8 && s.m > kWgmmaTileM && s.n > 128 &&
         s.m * s.n * s.k >= kOffSectorsTwoByTwoMnk;
}

WgmmaPlan offTheLineWholeTile(const Shape& s, int sms) {
  WgmmaPlan shared{0, 1, false};
  shared.sharesA = true;
  for (int tileN : {64, 128}) {
    const std::int64_t tiles = wgmmaTiles(s, tileN);
    if (8 * tiles >= 7 * std::int64_t(sms) && tiles <= sms && s.n > tileN) {  // two tiles a row
      // Off the sectors at scale the 2x2 of 128x128 below beats the 64-wide pairs (1000x1000x5000:
      // 27.2 against 29.2 us for 64x128's pairs, 28.8 for 128x64's); 128x128's pairs stay
      // (2000x1000x3000: 26.7 against 33.7 for 2x2, whose 32 clusters of four make two waves).
      if (tileN == 64 && offSectorsAtScale(s)) continue;
      shared.tileN = tileN;
      return tileN == 64 ? pairsSharingBOr(s, sms, shared) : shared;
    }
  }
  const bool offSectors = s.k % 16 == 8 || s.n % 16 == 8;
  shared.clusters = true;
  for (int tileN : {128, 64}) {
    const std::int64_t ctas = clusteredCtas(s, kWgmmaTileM, tileN, 2, 2);
    const bool twoByTwo = s.m > kWgmmaTileM && s.n > tileN;  // no cluster wholly past M or N
    if ((tileN == 128 || offSectors) && twoByTwo && 2 * ctas >= sms && 8 * ctas <= 7 * sms) {
      shared.tileN = tileN;
      return tileN == 64 ? pairsSharingBOr(s, sms, shared) : shared;
    }
  }
  if (offSectorsAtScale(s)) return sharedAWgmmaPlan(128, true);
  for (int tileN : {256, 128})
    if (32 * wgmmaTiles(s, tileN) >= 15 * std::int64_t(sms))
      return {tileN, 1, tileN == 256 && clustersPay(s, sms)};
  const bool wide =
      wgmmaTiles(s, 64, kWgmmaShortTileM) > sms && wgmmaTiles(s, 96, kWgmmaShortTileM) <= sms;
  return {wide ? 96 : 64, 1, false, false, kWgmmaShortTileM};
}

// The unsplit tile of least wave-model time; where clusters pay, 128x256 in clusters, whose gain
// the model's (unclustered) costs do not hold: at 8192^3 the model puts 128x192 4% ahead of
// 128x256, and clustered 128x256 measured 0.9% ahead of it (kwb tune, one H200, 2026-12-02).
WgmmaPlan fastestWholeTile(const Shape& s, int sms) {
  if (clustersPay(s, sms)) return {256, 1, true};
  const WaveCost* best = nullptr;
  double bestNs = 0;
  for (const WaveCost& c : kWaveCosts) {
    const double ns = waveNs(c, s, sms);
    if (best == nullptr || ns < bestNs) best = &c, bestNs = ns;
  }
  return {best->tileN, 1, false, false, best->tileM};
}

// How a plan clusters, as wgmmaRanName indexes its names: clusters · 2 + clusterSplit, or
// kSharesA (+ 1 with clusters: 2x2 sharing A and B).
constexpr int kSharesA = 4, kClusterKinds = 6;
int clusterKind(const WgmmaPlan& p) {
  if (p.sharesA) return kSharesA + (p.clusters ? 1 : 0);
  return (p.clusters ? 2 : 0) + (p.clusterSplit ? 1 : 0);
}

std::string buildName(std::string_view id, int tileM, int tileN, int splits, int kind,
                      bool relaid) {
  const bool clusters = kind == 2 || kind == 3, clusterSplit = kind == 1 || kind == 3;
  const bool sharesA = kind >= kSharesA;
  std::string parts;
  auto add = [&parts](const std::string& p) { parts += (parts.empty() ? "" : ", ") + p; };
  if (tileM != kWgmmaTileM || tileN != 256 || kind != 0 || splits > 1)
    add(std::to_string(tileM) + "x" + std::to_string(tileN) + " tile");
  if (clusters) add("clusters of 2 sharing B");
  if (sharesA) add(kind == kSharesA ? "clusters of 2 sharing A" : "2x2 clusters sharing A and B");
  if (splits > 1) add((clusterSplit ? "cluster split-K " : "split-K ") + std::to_string(splits));
  if (relaid) add("A/B re-laid for TMA");
  return std::string(id) + (parts.empty() ? "" : " (" + parts + ")");
}

// The 128-row tile's widths that run only unsplit and without clusters sharing B (like the 64-row
// tiles): B in three slabs or in part of one, which neither the split kernels nor those clusters'
// even halves of B are built for. (48 runs in pairs sharing A: sharedAWgmmaPlan.)
bool wholeOnly(int tileN) { return tileN == 192 || tileN == 48; }

}  // namespace

std::int64_t wgmmaTiles(const Shape& s, int tileN, int tileM) {
  return ((s.m + tileM - 1) / tileM) * ((s.n + tileN - 1) / tileN);
}

std::int64_t wgmmaKBlocks(const Shape& s) { return (s.k + kWgmmaKBlock - 1) / kWgmmaKBlock; }

std::int64_t wgmmaKBlocksPerSplit(const Shape& s, int splits) {
  const std::int64_t kb = wgmmaKBlocks(s);
  return splits > 1 ? (kb + splits - 1) / splits : kb;
}

int wgmmaEffectiveSplits(const Shape& s, int splits) {
  if (splits <= 1 || wgmmaKBlocks(s) <= 1) return 1;
  if (splits > kWgmmaMaxSplits) splits = kWgmmaMaxSplits;
  const std::int64_t per = wgmmaKBlocksPerSplit(s, splits);
  return int((wgmmaKBlocks(s) + per - 1) / per);
}

int wgmmaEffectiveClusterSplits(const Shape& s, int splits) {
  const std::int64_t most = std::min<std::int64_t>(wgmmaKBlocks(s), kWgmmaMaxSplits);
  return splits <= 1 ? 1 : int(std::min<std::int64_t>(splits, most));
}

double wgmmaEstimateNs(const Shape& s, int tileN, int splits, int sms, bool clusterSplit) {
  const TileCost& c = costOf(tileN);
  const std::int64_t units = wgmmaTiles(s, tileN) * splits;
  const std::int64_t waves = sms > 0 ? (units + sms - 1) / sms : units;
  double ns = c.fixedNs + double(waves * wgmmaKBlocksPerSplit(s, splits)) * c.perKBlockNs;
  if (splits > 1 && clusterSplit)
    ns += c.clusterReduceNs;  // the cluster's CTAs reduce their row bands at once
  else if (splits > 1)
    ns += double(splits) * c.perPartialNs;  // one partial written, splits-1 read
  return ns;
}

double wgmmaWaveNs(const Shape& s, int tileM, int tileN, int sms) {
  for (const WaveCost& c : kWaveCosts)
    if (c.tileM == tileM && c.tileN == tileN) return waveNs(c, s, sms);
  throw std::invalid_argument("no wave cost for a " + std::to_string(tileM) + "x" +
                              std::to_string(tileN) + " tile");
}

namespace {

// The choice before the wave model, kept for split-K:
// the width rule, and the split (tile width, count) of least estimated time where it wins by the
// margin. A split runs in one wave: split grids past the SMs (a cluster split of 3 on 81 tiles of
// 128x128 at 1152^3) measured up to 2.4x slower than the whole tile on an H200.
WgmmaPlan splitOrWholeKPlan(const Shape& s, int sms) {
  const WgmmaPlan whole = wholeKPlan(s, sms);
  if (whole.tileN == 256) return whole;
  WgmmaPlan split = whole;
  double splitNs = 0;
  for (bool cluster : {true, false})  // ties go to the cluster, which needs no workspace
    for (int tileN : kTileWidths)
      for (int splits = 2; splits <= kWgmmaMaxSplits; ++splits) {
        const int runs =
            cluster ? wgmmaEffectiveClusterSplits(s, splits) : wgmmaEffectiveSplits(s, splits);
        if (runs != splits) continue;  // the same run as fewer splits
        if (cluster && splits > kMaxDefaultClusterSplits) continue;
        if (wgmmaKBlocksPerSplit(s, splits) < kMinKBlocksPerSplit) continue;
        if (wgmmaTiles(s, tileN) * splits > sms) continue;  // one wave
        const double ns = wgmmaEstimateNs(s, tileN, splits, sms, cluster);
        if (split.splits == 1 || ns < splitNs)
          split = {tileN, splits, false, cluster}, splitNs = ns;
      }
  const double wholeNs = wgmmaEstimateNs(s, whole.tileN, 1, sms);
  return split.splits > 1 && splitNs < (1.0 - kSplitMargin) * wholeNs ? split : whole;
}

}  // namespace

WgmmaPlan chooseWgmmaPlan(const Shape& s, int sms) {
  const WgmmaPlan measured = splitOrWholeKPlan(s, sms);
  if (onTheLine(s)) return measured.splits > 1 ? measured : fastestWholeTile(s, sms);
  // Off the line a split is kept only where the whole tile's grid leaves half the SMs idle: at
  // 640x640x1000 the rule's cluster split of 2 measured 35% slower than 100 tiles of 64x64.
  const WgmmaPlan whole = offTheLineWholeTile(s, sms);
  if (offSectorsAtScale(s)) return whole;  // 1000x1000x5000: 2x2 19% faster than its split
  const bool fewTiles = 2 * wgmmaTiles(s, whole.tileN, whole.tileM) < std::int64_t(sms);
  return measured.splits > 1 && fewTiles ? measured : whole;
}

WgmmaPlan forcedWgmmaPlan(const Shape& s, int tileN, int splits, int sms, bool clusterSplit,
                          int tileM) {
  if (tileM == kWgmmaShortTileM)  // unsplit; 64x128 only in pairs sharing B
    return {tileN, 1, tileN == 128, false, tileM};
  if (wholeOnly(tileN))  // unsplit, unclustered
    return {tileN, 1, false, false, tileM};
  WgmmaPlan p{tileN, wgmmaEffectiveSplits(s, splits), false};
  if (clusterSplit) p.splits = wgmmaEffectiveClusterSplits(s, splits);
  p.clusterSplit = clusterSplit && p.splits > 1;
  if (wgmmaPartialBytes(s, p) > kMaxPartialBytes) p.splits = 1;
  p.clusters = tileN == 256 && p.splits == 1 && clustersPay(s, sms);
  return p;
}

void requireWgmmaTile(int tileM, int tileN) {
  const std::string tile = std::to_string(tileM) + "x" + std::to_string(tileN) + " tile";
  if (tileM != kWgmmaTileM && tileM != kWgmmaShortTileM)
    throw std::invalid_argument(std::string(kWgmmaId) + ": no " + tile +
                                " (block tiles are 128 or 64 rows high)");
  if (tileM == kWgmmaTileM && tileN != 48 && tileN != 64 && tileN != 128 && tileN != 192 &&
      tileN != 256)
    throw std::invalid_argument(std::string(kWgmmaId) + ": no " + tile +
                                " (48, 64, 128, 192 or 256)");
  if (tileM == kWgmmaShortTileM && tileN != 64 && tileN != 96 && tileN != 128)
    throw std::invalid_argument(std::string(kWgmmaId) + ": no " + tile +
                                " (the 64-row tile is 64, 96 or 128 wide)");
}

WgmmaPlan sharedAWgmmaPlan(int tileN, bool alsoB) {
  if (alsoB ? tileN != 64 && tileN != 128 : tileN != 48 && tileN != 64 && tileN != 128)
    throw std::invalid_argument(std::string(kWgmmaId) + ": no 128x" + std::to_string(tileN) +
                                (alsoB ? " tile in 2x2 clusters (64 or 128 wide)"
                                       : " tile in clusters sharing A (48, 64 or 128 wide)"));
  WgmmaPlan p{tileN, 1, alsoB};
  p.sharesA = true;
  return p;
}

std::size_t wgmmaPartialBytes(const Shape& s, const WgmmaPlan& p) {
  if (p.splits <= 1 || p.clusterSplit) return 0;
  return std::size_t(wgmmaTiles(s, p.tileN, p.tileM)) * std::size_t(p.splits) *
         std::size_t(p.tileM) * std::size_t(p.tileN) * sizeof(float);
}

std::size_t wgmmaCounterBytes(const Shape& s, const WgmmaPlan& p) {
  if (p.splits <= 1 || p.clusterSplit) return 0;
  return std::size_t(wgmmaTiles(s, p.tileN, p.tileM)) * kWgmmaWarpSlots * sizeof(int);
}

std::string_view wgmmaRanName(const WgmmaPlan& p, bool relaid, bool bf16) {
  // [bf16][height][width][splits - 1][clusterKind][relaid], built once; height 0 is the 128-row
  // tile, 1 the 64-row one.
  using Names = std::array<
      std::array<std::array<std::array<std::array<std::array<std::string, 2>, kClusterKinds>,
                                       kWgmmaMaxSplits>,
                            kNamedWidthCount>,
                 2>,
      2>;
  static const Names names = [] {
    Names n;
    for (int b = 0; b < 2; ++b)
      for (int h = 0; h < 2; ++h)
        for (int w : kNamedWidths)
          for (int sp = 1; sp <= kWgmmaMaxSplits; ++sp)
            for (int cl = 0; cl < kClusterKinds; ++cl)
              for (int re = 0; re < 2; ++re)
                n[std::size_t(b)][std::size_t(h)][std::size_t(widthIndex(w))][std::size_t(sp - 1)]
                 [std::size_t(cl)][std::size_t(re)] =
                     buildName(b != 0 ? kWgmmaBf16Id : kWgmmaId,
                               h != 0 ? kWgmmaShortTileM : kWgmmaTileM, w, sp, cl, re != 0);
    return n;
  }();
  const int sp = p.splits < 1 ? 1 : p.splits > kWgmmaMaxSplits ? kWgmmaMaxSplits : p.splits;
  const int cl = clusterKind(p);
  const int h = p.tileM == kWgmmaShortTileM ? 1 : 0;
  return names[bf16 ? 1 : 0][std::size_t(h)][std::size_t(widthIndex(p.tileN))][std::size_t(sp - 1)]
              [std::size_t(cl)][relaid ? 1 : 0];
}

}  // namespace kwb::kernels
