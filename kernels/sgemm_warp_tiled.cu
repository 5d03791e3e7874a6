// sgemm.warp_tiled — stage 7: the default configuration of the warp-tiled kernel
// (sgemm_warp_tiled.cuh holds the kernel; kernels/tune instantiates the other configurations).
//
// Default: 128×128 block tile, BK = 16, four warps of 64×64 each, every thread 8×16 outputs
// (TM = 8 rows, WNITER = 4 sub-tiles of TN = 4 columns). 128 accumulators per thread and few
// threads per block: latency is hidden by instruction-level parallelism (128 independent
// FMAs per k) rather than by many warps, as in siboehm's tuned kernel 10.
#include <cstdint>

#include "perf_kernels.h"
#include "sgemm_warp_tiled.cuh"

namespace kwb::kernels {

namespace {
using DefaultConfig = WarpTiledConfig<128, 128, 16, 64, 64, 4, 8, 4>;
// Smaller tiles for shapes that would leave multiprocessors idle with the default one
// (1024^3 makes only 64 tiles of 128x128 for 132 SMs on an H100): same kernel, less reuse.
using MediumConfig = WarpTiledConfig<64, 128, 16, 32, 64, 4, 4, 4>;
using SmallConfig = WarpTiledConfig<64, 64, 16, 32, 32, 2, 4, 4>;
constexpr std::string_view kId = "sgemm.warp_tiled";

std::int64_t tiles(const Shape& s, int bm, int bn) {
  return ((s.m + bm - 1) / bm) * ((s.n + bn - 1) / bn);
}

int multiprocessors() {
  int device = 0, sms = 0;
  KWB_CUDA_CHECK(cudaGetDevice(&device));
  KWB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

// The largest block tile that still gives about one block per multiprocessor (3/4 of them,
// so 128 tiles on 132 SMs keep the medium tile), as a cuBLAS heuristic would.
LaunchInfo launch(const GemmArgs& g) {
  const std::int64_t enough = std::int64_t(multiprocessors()) * 3 / 4;
  if (tiles(g.shape, DefaultConfig::BM, DefaultConfig::BN) >= enough)
    return launchWarpTiled<DefaultConfig, true>(g, kId);
  if (tiles(g.shape, MediumConfig::BM, MediumConfig::BN) >= enough)
    return launchWarpTiled<MediumConfig, true>(g, kId);
  return launchWarpTiled<SmallConfig, true>(g, kId);
}
}  // namespace

LaunchInfo launchSgemmWarpTiled(const GemmArgs& g) { return launch(g); }

KernelDescriptor sgemmWarpTiled() {
  KernelDescriptor d;
  d.id = std::string(kId);
  d.displayName = "Warp tiled";
  d.family = "sgemm";
  d.stage = 7;
  d.precision = Precision::kFp32;
  d.alignment = 1;  // every shape runs this kernel; only its edge guards change
  d.description =
      "128x128x16 block tile (64x128 or 64x64 when that leaves SMs idle), 4 warps of 64x64, "
      "8x16 outputs per thread, double-buffered "
      "shared memory with register prefetch, grouped tile order for L2; K or N not a multiple "
      "of 4 takes element-wise loads";
  d.launch = &launch;
  return d;
}

}  // namespace kwb::kernels
