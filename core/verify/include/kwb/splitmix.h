// SPDX-License-Identifier: Apache-2.0
#pragma once
// splitmix64, the counter-based mixer behind every seeded input kwb generates (kwb/seeded.h):
// element i of a stream is splitmixAt(base, i). One definition for the host generators and the
// device ones (core/cuda's and each family's under kernels/), so a device-generated input is the
// host's bit for bit and a failing case is reproduced from its seed alone.
#include <cstdint>

#if defined(__CUDACC__)
#define KWB_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define KWB_HOST_DEVICE inline
#endif

namespace kwb {

inline constexpr std::uint64_t kSplitmixGolden = 0x9E3779B97F4A7C15ull;

// splitmix64's finaliser.
KWB_HOST_DEVICE std::uint64_t splitmixFinalise(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The value of element `i` of the stream that starts at `base`.
KWB_HOST_DEVICE std::uint64_t splitmixAt(std::uint64_t base, std::int64_t i) {
  return splitmixFinalise(base + std::uint64_t(i) * kSplitmixGolden);
}

}  // namespace kwb
