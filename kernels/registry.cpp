// SPDX-License-Identifier: Apache-2.0
#include "registry.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "descriptors.h"
#include "histogram/histogram_descriptors.h"
#include "histogram/histogram_family.h"
#include "kwb/cuda/family_driver.h"
#include "kwb/cuda/vector_family.h"
#include "reduce/reduce_descriptors.h"
#include "reduce/reduce_family.h"
#include "scan/scan_descriptors.h"
#include "scan/scan_family.h"
#include "sort/sort_descriptors.h"
#include "sort/sort_family.h"
#include "tuning_variants.h"

namespace kwb::kernels {

std::vector<KernelDescriptor> inListOrder(std::vector<KernelDescriptor> list) {
  std::map<std::string, int> stagesSoFar;  // per family
  for (auto& d : list) {
    d.stage = d.reference ? 0 : ++stagesSoFar[d.family];
    d.tunable = !d.id.empty() && hasTuneVariants(d.id);
  }
  std::erase_if(list, [](const KernelDescriptor& d) { return d.id.empty(); });  // absentStage
  return list;
}

KernelDescriptor absentStage(std::string family) {
  KernelDescriptor d;
  d.family = std::move(family);
  return d;
}

// One explicit list: static self-registration can be dropped by the linker from a static
// library. The stages in teaching order (the position is the stage number), then the cuBLAS
// references; the reduce and scan families follow the same way. To add a stage, put its factory
// where it belongs in the progression.
void registerFamilies() {
  static const bool once = [] {
    // GEMM's driver is core's own: the driver catalog starts with it (family_driver.h).
    cuda::registerVectorFamily(reduceFamily());
    cuda::registerVectorFamily(scanFamily());
    cuda::registerFamilyDriver(sort::sortFamilyDriver());
    cuda::registerFamilyDriver(histogramDriver());
    return true;
  }();
  (void)once;
}

const KernelRegistry& registry() {
  registerFamilies();
  static const KernelRegistry r(inListOrder({
      sgemmNaive(),
      sgemmTiled(),
      sgemmBankFree(),
      sgemmDoubleBuffer(),
      sgemmTensorCore(),
      sgemmRegisterBlocked(),
      sgemmWarpTiled(),
      sgemmMmaMultistage(),
#ifdef KWB_HAVE_WGMMA  // sm_90a builds only: see kernels/CMakeLists.txt
      sgemmWgmma(),
#else
      absentStage("sgemm"),  // stage 9 in every build
#endif
      // The tensor-core stages with BF16 inputs, after their FP16 twins.
      sgemmMmaMultistageBf16(),
#ifdef KWB_HAVE_WGMMA
      sgemmWgmmaBf16(),
#endif
      cublasSgemmRef(),
      cublasHgemmF32AccRef(),
      cublasBgemmF32AccRef(),
      cublasTf32Ref(),
      // The 1-D families (problem "reduce" and "scan"): stages in order, then CUB.
      reduceAtomic(),
      reduceSharedTree(),
      reduceWarpShuffle(),
      reduceVectorized(),
      reduceCubBlock(),
      cubReduceSumRef(),
      scanHillisSteele(),
      scanBlelloch(),
      scanReduceThenScan(),
      scanDecoupledLookback(),
      cubInclusiveSumRef(),
      sort::sortBlockMerge(),
      sort::sortReduceThenScan(),
      sort::sortOnesweep(),
      sort::cubRadixSortRef(),
      // The histogram family (problem "histogram", its own launcher type): stages, then CUB.
      histogramGlobalAtomics(),
      histogramSharedAtomics(),
      histogramWarpPrivate(),
      histogramByteCounters(),
      cubHistogramEvenRef(),
  }));
  return r;
}

}  // namespace kwb::kernels
