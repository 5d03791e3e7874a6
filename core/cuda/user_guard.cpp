// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/user_guard.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/user_kernel.h"

namespace kwb::cuda {

std::string nameUserFault(const KernelDescriptor& k, const std::string& what, bool brokeRule) {
  const CompiledUserKernel* u = findUserKernel(k.id);
  std::string text =
      (u ? u->source.path + " (entry " + u->spec.entry.value_or(k.id) + ")" : k.id) + what;
  if (brokeRule) text += std::string("; ") + kUserFaultRule;
  return text;
}

std::string userFault(const KernelDescriptor& k, const Shape& s, int code) {
  const auto e = static_cast<cudaError_t>(code);
  return nameUserFault(k,
                       " faulted at " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                           std::to_string(s.k) + ": " + cudaGetErrorName(e) + " (" +
                           cudaGetErrorString(e) + ")",
                       e == cudaErrorIllegalAddress || e == cudaErrorMisalignedAddress);
}

std::string guardViolation(const KernelDescriptor& k, const PreparedCase& p, CUstream_st* stream) {
  const Shape& s = p.shape();
  // A whole 128-row band of C on each side (at least 1 MiB): a tile kernel without bounds
  // checks overruns by less than a tile.
  const std::size_t guard = std::max<std::size_t>(std::size_t(1) << 18, std::size_t(s.n) * 128);
  const std::size_t cElems = std::size_t(s.m) * std::size_t(s.n);
  DeviceBuffer<float> buf(cElems + 2 * guard);
  KWB_CUDA_CHECK(cudaMemsetAsync(buf.get(), 0xAA, buf.bytes(), stream));
  GemmArgs args = p.args(1.0f, 0.0f);
  args.c = buf.get() + guard;
  std::vector<float> before(guard), after(guard);
  try {
    k.launch(args);
    KWB_CUDA_CHECK(cudaMemcpyAsync(before.data(), buf.get(), guard * sizeof(float),
                                   cudaMemcpyDeviceToHost, stream));
    KWB_CUDA_CHECK(cudaMemcpyAsync(after.data(), buf.get() + guard + cElems, guard * sizeof(float),
                                   cudaMemcpyDeviceToHost, stream));
    KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
  } catch (const CudaError& e) {
    if (!e.sticky()) throw;
    throw CudaError(userFault(k, s, e.code()), e.code(), true);
  }
  auto firstWritten = [](const std::vector<float>& v) -> std::ptrdiff_t {
    for (std::size_t i = 0; i < v.size(); ++i) {
      std::uint32_t bits;
      std::memcpy(&bits, &v[i], 4);
      if (bits != 0xAAAAAAAAu) return std::ptrdiff_t(i);
    }
    return -1;
  };
  if (const auto i = firstWritten(before); i >= 0)
    return "wrote outside C: " + std::to_string(guard - std::size_t(i)) +
           " elements before C[0][0] (guard region)";
  if (const auto i = firstWritten(after); i >= 0)
    return "wrote outside C: element " + std::to_string(i) + " past C's last element (" +
           std::to_string(s.m) + "x" + std::to_string(s.n) + "), guard region";
  return "";
}

std::uint64_t freshSeed(std::uint64_t seed) { return seed ^ 0x9E3779B97F4A7C15ull; }

}  // namespace kwb::cuda
