// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/device_health.h"

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "kwb/cuda/check.h"
#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/device_kernels.h"
#include "kwb/seeded.h"

namespace kwb::cuda {

std::string deviceHealthProblem(CUstream_st* stream) {
  constexpr std::int64_t kCount = 4096;
  constexpr std::uint64_t kBase = 0x4845414C5448;  // "HEALTH"
  // An error left pending by the case (a failed launch) surfaces here, not in the next case.
  KWB_CUDA_CHECK(cudaGetLastError());
  KWB_CUDA_CHECK(cudaDeviceSynchronize());
  DeviceBuffer<float> out(kCount);
  launchFillSeeded(out.get(), kCount, kBase, stream);
  std::vector<float> got(kCount);
  KWB_CUDA_CHECK(
      cudaMemcpyAsync(got.data(), out.get(), out.bytes(), cudaMemcpyDeviceToHost, stream));
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (const char* fake = std::getenv("KWB_FAKE_UNHEALTHY_DEVICE"); fake && *fake == '1')
    got[7] += 1.0f;
  for (std::int64_t i = 0; i < kCount; ++i) {
    // Bit for bit: the generator's values are exact on the device and the host.
    if (std::bit_cast<std::uint32_t>(got[std::size_t(i)]) !=
        std::bit_cast<std::uint32_t>(seededValue(kBase, i)))
      return "the device's known-answer check failed: element " + std::to_string(i) + " of " +
             std::to_string(kCount) + " came back wrong";
  }
  return "";
}

}  // namespace kwb::cuda
