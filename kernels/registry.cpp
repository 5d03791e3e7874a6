#include "registry.h"

#include "perf_kernels.h"
#include "sgemm_kernels.h"

namespace kwb::kernels {

// One explicit list: static self-registration can be dropped by the linker from a static
// library. Stages in teaching order, then the cuBLAS references.
const KernelRegistry& registry() {
  static const KernelRegistry r(std::vector<KernelDescriptor>{
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
#endif
      cublasSgemmRef(),
      cublasHgemmF32AccRef(),
      cublasTf32Ref(),
  });
  return r;
}

}  // namespace kwb::kernels
