// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/stream_check.h"

#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "kwb/cuda/check.h"
#include "kwb/cuda/cupti_tracer.h"

namespace kwb::cuda {

std::optional<std::string> workOutsideStream(const std::function<void()>& enqueue,
                                             CUstream_st* stream) {
  std::unique_ptr<CuptiTracer> tracer;
  StreamIdentity timed;
  try {
    tracer = std::make_unique<CuptiTracer>();
    timed = cuptiStreamIdentity(stream);
  } catch (const CuptiUnavailable&) {
    return std::nullopt;
  }
  // Work already queued (verification) is not the launch's: finish it and drop its records.
  KWB_CUDA_CHECK(cudaDeviceSynchronize());
  tracer->take();
  enqueue();
  // The whole device: work on another stream may still be running when the case's stream ends.
  KWB_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<KernelActivity> records;
  try {
    records = tracer->take();
  } catch (const CuptiUnavailable&) {
    return std::nullopt;
  }
  std::string names;
  for (const std::string& n : recordsOutside(records, timed))
    names += (names.empty() ? "" : ", ") + n;
  return names;
}

}  // namespace kwb::cuda
