// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/reference_dgemm.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <stdexcept>

#include "kwb/cuda/check.h"
#include "kwb/cuda/device.h"
#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/device_kernels.h"

namespace kwb::cuda {

bool referenceDgemm(const GemmArgs& args) {
  if (!args.cublas) throw std::invalid_argument("referenceDgemm: args.cublas is not set");
  const Shape& s = args.shape;
  const double mk = double(s.m) * double(s.k), kn = double(s.k) * double(s.n);
  const double mn = double(s.m) * double(s.n);
  constexpr double kHeadroom = 256.0 * (1 << 20);  // cuBLAS workspace and context growth
  std::size_t freeBytes = 0, totalBytes = 0;
  memoryInfo(&freeBytes, &totalBytes);
  if (8.0 * (mk + kn + mn) + kHeadroom > double(freeBytes)) return false;

  DeviceBuffer<double> a{std::size_t(mk)}, b{std::size_t(kn)}, c{std::size_t(mn)};
  launchWiden(a.get(), args.a, s.m * s.k, args.stream);
  launchWiden(b.get(), args.b, s.k * s.n, args.stream);
  const double one = 1.0, zero = 0.0;
  const int m = int(s.m), n = int(s.n), k = int(s.k);
  // Column-major view, as sgemmRowMajor: Cᵀ (n×m, ld n) = Bᵀ (n×k, ld n) · Aᵀ (k×m, ld k).
  KWB_CUBLAS_CHECK(cublasDgemm(args.cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b.get(), n,
                               a.get(), k, &zero, c.get(), n));
  launchNarrow(args.c, c.get(), s.m * s.n, args.stream);
  // The double copies are freed at return: the work that reads them must be done.
  KWB_CUDA_CHECK(cudaStreamSynchronize(args.stream));
  return true;
}

}  // namespace kwb::cuda
