// SPDX-License-Identifier: Apache-2.0
// conformance.subgroup — the SYCL sub-group test plan on CUDA tiles (docs/CONFORMANCE.md).
//
// A SYCL sub-group maps to cooperative_groups::thread_block_tile<T> of the thread block;
// T = 32 is the warp. Every thread answers the plan's calls and writes one record. Where
// the plan pairs a call with its "linear" twin, the twin is the same quantity obtained a
// second, independent way, so the host checks compare two computations, not one value
// with itself:
//   group id              tile.meta_group_rank()  (block thread rank / T, cooperative groups)
//   group linear id       warp index * (32 / T) + hardware lane id (%laneid) / T
//   group range           tile.meta_group_size()  (ceil(block threads / T), cooperative groups)
//   group linear range    tiles counted on the device: each tile's leader adds one
//   local id              tile.thread_rank()  (lane arithmetic on the block's thread rank)
//   local linear id       rank among the tile's live lanes (a lane mask from match_any)
//   local range           live lanes of the tile, labeled_partition (match_any)
//   local linear range    live lanes of the tile, tile.ballot (vote)
//   max local range       tile.num_threads() == T
//   leader                the lowest lane that voted, compared with this thread's rank
//
// "Live lanes" is what makes an incomplete tile visible. When the block's thread count is
// not a multiple of T, the last tile has lanes past the end of the block: those threads
// do not exist. tile.num_threads() still says T (it is a compile-time constant), so the
// plan's local range — the number of work-items in the sub-group — is counted instead: the
// tile's collectives (match_any, ballot over the tile's lane mask) wait for and count only
// lanes that exist, since lanes past the end of a block behave as exited threads.
// coalesced_threads() / __activemask() would report the lanes that happen to be converged
// at that instruction, which the programming guide does not promise to be all of them, so
// they are not used to size a tile.
#include <cooperative_groups.h>

#include <cstddef>
#include <memory>
#include <string>

#include "conformance_subgroup.h"
#include "kwb/cuda/check.h"
#include "kwb/error.h"

namespace cg = cooperative_groups;

namespace kwb::kernels {

namespace {

// The list is memset to 0xFF and copied back whole: no padding, nothing but int32 fields.
static_assert(sizeof(SubgroupRecord) == 12 * sizeof(std::int32_t));

template <unsigned int Tile>
__global__ void subgroupProbe(SubgroupRecord* out) {
  constexpr unsigned int kWarp = 32;
  __shared__ unsigned int tilesCounted;
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<Tile, cg::thread_block> tile = cg::tiled_partition<Tile>(block);

  // Row-major, x fastest: the order CUDA forms warps in. Computed from the built-in
  // indices, not from cooperative groups, so the tile's answers are checked against it.
  const unsigned int thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned int threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned int blockId = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  // The hardware's lane number: equal to thread % 32 only if warps are formed row-major.
  unsigned int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));

  if (thread == 0) tilesCounted = 0;
  block.sync();
  // Every thread of the tile that exists takes part. Both are *_sync collectives over the
  // tile's lane mask: they wait for every lane of it that exists, converged or not.
  const cg::coalesced_group live = cg::labeled_partition(tile, 0);
  const unsigned int votes = tile.ballot(1);  // bit i: lane i of the tile exists
  const bool leader = __ffs(int(votes)) - 1 == int(tile.thread_rank());
  if (leader) atomicAdd(&tilesCounted, 1u);
  block.sync();

  SubgroupRecord r;
  r.groupId = int(tile.meta_group_rank());
  r.groupLinearId = int((thread / kWarp) * (kWarp / Tile) + lane / Tile);
  r.groupRange = int(tile.meta_group_size());
  r.groupLinearRange = int(tilesCounted);
  r.localId = int(tile.thread_rank());
  r.localLinearId = int(live.thread_rank());
  r.localRange = int(live.num_threads());
  r.localLinearRange = __popc(votes);
  r.maxLocalRange = int(tile.num_threads());
  r.leader = leader ? 1 : 0;
  r.blockLinearId = int(blockId);
  r.threadLinearId = int(thread);
  out[std::size_t(blockId) * threads + thread] = r;
}

using ProbeFn = void (*)(SubgroupRecord*);

struct Probe {
  int tileSize;
  ProbeFn kernel;
};

constexpr Probe kProbes[] = {
    {32, subgroupProbe<32>}, {16, subgroupProbe<16>}, {8, subgroupProbe<8>},
    {4, subgroupProbe<4>},   {2, subgroupProbe<2>},   {1, subgroupProbe<1>},
};

struct DeviceFree {
  void operator()(SubgroupRecord* p) const { cudaFree(p); }
};

}  // namespace

std::vector<SubgroupRecord> runSubgroupProbe(const SubgroupLaunch& launch, int tileSize) {
  ProbeFn kernel = nullptr;
  for (const auto& p : kProbes)
    if (p.tileSize == tileSize) kernel = p.kernel;
  if (!kernel)
    throw InputError("conformance.subgroup: tile size " + std::to_string(tileSize) +
                     " is not one of 32, 16, 8, 4, 2, 1");
  if (launch.items() < 1) throw InputError("conformance.subgroup: empty launch");

  const std::size_t n = std::size_t(launch.items());
  const std::size_t bytes = n * sizeof(SubgroupRecord);
  SubgroupRecord* raw = nullptr;
  KWB_CUDA_CHECK(cudaMalloc(&raw, bytes));
  const std::unique_ptr<SubgroupRecord, DeviceFree> list(raw);
  // 0xFF bytes: every int32 field reads kUnwritten (-1) until a thread overwrites it.
  KWB_CUDA_CHECK(cudaMemset(list.get(), 0xFF, bytes));

  const dim3 block(unsigned(launch.block[0]), unsigned(launch.block[1]), unsigned(launch.block[2]));
  const dim3 grid(unsigned(launch.grid[0]), unsigned(launch.grid[1]), unsigned(launch.grid[2]));
  kernel<<<grid, block>>>(list.get());
  KWB_CHECK_LAUNCH();
  KWB_CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<SubgroupRecord> host(n);
  KWB_CUDA_CHECK(cudaMemcpy(host.data(), list.get(), bytes, cudaMemcpyDeviceToHost));
  return host;
}

}  // namespace kwb::kernels
