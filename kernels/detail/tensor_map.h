// SPDX-License-Identifier: Apache-2.0
#pragma once
// TMA tensor maps for host launchers (sgemm.wgmma): cuTensorMapEncodeTiled, a driver API
// function, fetched through the runtime so the library needs no -lcuda.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kwb/cuda/check.h"

namespace kwb::kernels::detail {

inline PFN_cuTensorMapEncodeTiled_v12000 tensorMapEncoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    KWB_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                                    cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || !p)
      throw cuda::CudaError("sgemm.wgmma: the driver has no cuTensorMapEncodeTiled", 0, false);
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

// A row-major matrix of `rows` × `cols` (FP16 or FP32) seen as a 2-D tensor (cols innermost),
// copied in boxes of boxCols × boxRows with the 128-byte swizzle; out-of-range elements read
// as zero and are not written. `ld` is the row stride in elements (0: `cols`); its bytes must be
// a multiple of 16.
inline CUtensorMap tensorMap(const void* base, CUtensorMapDataType type, std::int64_t rows,
                             std::int64_t cols, std::uint32_t boxCols, std::uint32_t boxRows,
                             const char* what, std::int64_t ld = 0,
                             CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B) {
  CUtensorMap map{};
  const cuuint64_t elementBytes =
      type == CU_TENSOR_MAP_DATA_TYPE_FLOAT16 || type == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 ? 2 : 4;
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(ld > 0 ? ld : cols) * elementBytes};  // row to row
  const cuuint32_t box[2] = {boxCols, boxRows};
  const cuuint32_t elementStrides[2] = {1, 1};
  const CUresult r =
      tensorMapEncoder()(&map, type, 2, const_cast<void*>(base), dims, strides, box, elementStrides,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw cuda::CudaError(std::string("sgemm.wgmma: cuTensorMapEncodeTiled failed for ") + what +
                              " (CUresult " + std::to_string(int(r)) + ")",
                          int(r), false);
  return map;
}

}  // namespace kwb::kernels::detail
