// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sub-group (warp tile) conformance, after the SYCL sub-group test plan (docs/CONFORMANCE.md).
// Plain C++17 so the probe's .cu file can include it; the CUDA mapping of every field and
// check is written down in docs/CONFORMANCE.md.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kwb {

// What the unwritten list holds: the device list is memset to 0xFF, so every field of an
// entry no thread wrote reads -1, a value no field can take once written.
inline constexpr std::int32_t kUnwritten = -1;

// One thread's answers, the plan's list of calls mapped to cooperative groups. The "linear"
// fields are the same quantities obtained a second, independent way, as the plan pairs
// get_local_id()[0] with get_local_linear_id().
struct SubgroupRecord {
  std::int32_t groupId = kUnwritten;           // tile.meta_group_rank()
  std::int32_t groupLinearId = kUnwritten;     // warp index * (32 / T) + %laneid / T
  std::int32_t groupRange = kUnwritten;        // tile.meta_group_size()
  std::int32_t groupLinearRange = kUnwritten;  // tiles counted in the block (leaders)
  std::int32_t localId = kUnwritten;           // tile.thread_rank()
  std::int32_t localLinearId = kUnwritten;     // rank among the tile's live lanes (mask)
  std::int32_t localRange = kUnwritten;        // live lanes of the tile (match_any)
  std::int32_t localLinearRange = kUnwritten;  // live lanes of the tile (ballot)
  std::int32_t maxLocalRange = kUnwritten;     // tile.num_threads(): the tile size
  std::int32_t leader = kUnwritten;            // 1 on the lowest live lane of the tile, else 0
  std::int32_t blockLinearId = kUnwritten;     // the block's row-major index in the grid
  std::int32_t threadLinearId = kUnwritten;    // the thread's row-major index in its block
};

// Block and grid of one probe launch, x fastest. The list of records is indexed by
// blockLinearId * threadsPerBlock() + threadLinearId.
struct SubgroupLaunch {
  std::array<int, 3> block{1, 1, 1};
  std::array<int, 3> grid{1, 1, 1};
  std::int64_t threadsPerBlock() const { return std::int64_t(block[0]) * block[1] * block[2]; }
  std::int64_t blocks() const { return std::int64_t(grid[0]) * grid[1] * grid[2]; }
  std::int64_t items() const { return threadsPerBlock() * blocks(); }
};

// The plan's local range of 1023 in every dimension reduced to the device: each dimension
// is halved (rounding down, 1023 → 511 → 255 …) until it fits its limit, then the largest
// dimension (ties: the later one, so x stays widest) is halved until the block fits
// maxThreadsPerBlock. Every extent stays 2^k − 1, odd, so the thread count is odd and the
// last tile of every power-of-two size is incomplete. H100/H200: 15 × 7 × 7 = 735 threads.
// Throws InputError when a limit is below 1.
std::array<int, 3> conformanceBlockShape(const std::array<int, 3>& maxBlockDim,
                                         int maxThreadsPerBlock);
// That block and the plan's grid of 2 × 2 × 2 blocks.
SubgroupLaunch conformanceLaunch(const std::array<int, 3>& maxBlockDim, int maxThreadsPerBlock);

// The tile sizes the suite runs, largest (the whole warp) first.
inline constexpr std::array<int, 4> kConformanceTileSizes{32, 16, 8, 4};

// One named check of the plan. `failures` counts offending items (or groups or blocks for
// the checks over sets); `offenders` describes the first few of them. `notJudged` counts
// what the check could not judge because another check already failed on it (an unwritten
// entry, or a group whose members disagree on its size); the check that failed says why.
struct ConformanceCheck {
  std::string id;           // stable: "local_ids_once"
  std::string description;  // the plan's bullet, in CUDA words
  bool passed = true;
  std::int64_t failures = 0;
  std::int64_t notJudged = 0;
  std::vector<std::string> offenders;
};

// One launch at one tile size: its shape, what it saw, and every check.
struct SubgroupRun {
  int tileSize = 0;
  SubgroupLaunch launch;
  std::int64_t items = 0;            // entries in the list (threads launched)
  std::int64_t tiles = 0;            // distinct (block, group id) seen
  std::int64_t incompleteTiles = 0;  // of those, tiles reporting local range < max local range
  std::string error;                 // a CUDA error that stopped the launch; empty when it ran
  std::vector<ConformanceCheck> checks;

  bool passed() const;  // ran, and every check passed
};

// The outcome of `kwb conformance`, carried in the results document.
struct ConformanceReport {
  std::string suite = "conformance.subgroup";
  int warpSize = 0;
  std::vector<SubgroupRun> runs;  // one per tile size

  bool passed() const;  // at least one run, and every run passed
};

// How many offenders a failed check lists.
inline constexpr std::size_t kMaxOffenders = 8;

// Runs every check of the plan over the records of one launch. `records` must hold
// launch.items() entries (InputError otherwise). Checks come back in the plan's order.
SubgroupRun checkSubgroupRecords(const std::vector<SubgroupRecord>& records,
                                 const SubgroupLaunch& launch, int tileSize, int warpSize);

// The check with `id` in `run`, or nullptr.
const ConformanceCheck* findCheck(const SubgroupRun& run, const std::string& id);

}  // namespace kwb
