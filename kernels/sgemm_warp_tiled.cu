// sgemm.warp_tiled — stage 7: the default configuration of the warp-tiled kernel
// (sgemm_warp_tiled.cuh holds the kernel; kernels/tune instantiates the other configurations).
//
// Default: 128×128 block tile, BK = 16, four warps of 64×64 each, every thread 8×16 outputs
// (TM = 8 rows, WNITER = 4 sub-tiles of TN = 4 columns). 128 accumulators per thread and few
// threads per block: latency is hidden by instruction-level parallelism (128 independent
// FMAs per k) rather than by many warps, as in siboehm's tuned kernel 10.
#include "perf_kernels.h"
#include "sgemm_warp_tiled.cuh"

namespace kwb::kernels {

namespace {
using DefaultConfig = WarpTiledConfig<128, 128, 16, 64, 64, 4, 8, 4>;
constexpr std::string_view kId = "sgemm.warp_tiled";

LaunchInfo launch(const GemmArgs& g) { return launchWarpTiled<DefaultConfig, true>(g, kId); }
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
      "128x128x16 block tile, 4 warps of 64x64, 8x16 outputs per thread, double-buffered "
      "shared memory with register prefetch, grouped tile order for L2; K or N not a multiple "
      "of 4 takes element-wise loads";
  d.launch = &launch;
  return d;
}

}  // namespace kwb::kernels
