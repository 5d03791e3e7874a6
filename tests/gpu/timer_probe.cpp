// SPDX-License-Identifier: Apache-2.0
// Launches the timer's spin kernels and an empty kernel plainly (one launch, then a stream
// synchronisation), for an outside profiler to time: scripts/ncu-compare.py --spin runs it
// under Nsight Compute to see how ncu reads kernels of known length.
// Usage: timer_probe [launches] [us ...]   (default: 50 launches of 3, 10, 30, 100, 300 us)
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "kwb/cuda/check.h"
#include "kwb/cuda/stream.h"
#include "kwb/cuda/timer_kernels.h"

int main(int argc, char** argv) {
  const int launches = argc > 1 ? std::atoi(argv[1]) : 50;
  std::vector<double> lengths;
  for (int i = 2; i < argc; ++i) lengths.push_back(std::atof(argv[i]));
  if (lengths.empty()) lengths = {3, 10, 30, 100, 300};
  if (launches <= 0) {
    std::fprintf(stderr, "timer_probe: launches must be positive, got '%s'\n", argv[1]);
    return 2;
  }
  try {
    kwb::cuda::Stream stream;
    for (int i = 0; i < launches; ++i) {
      kwb::cuda::launchEmptyKernel(stream.get());
      KWB_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    }
    for (const double us : lengths)
      for (int i = 0; i < launches; ++i) {
        kwb::cuda::launchSpinKernel(stream.get(), (unsigned long long)(us * 1e3));
        KWB_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
      }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "timer_probe: %s\n", e.what());
    return 1;
  }
  std::printf("launched %d empty kernels and %d spins of each length\n", launches, launches);
  return 0;
}
