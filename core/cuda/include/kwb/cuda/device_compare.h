// SPDX-License-Identifier: Apache-2.0
#pragma once
// The device comparison, host side: launches the one-pass kernel (device_kernels.h), brings
// back the per-cell summaries (kilobytes) and merges them into a CompareReport.
#include "kwb/cell_summary.h"
#include "kwb/compare.h"
#include "kwb/cuda/device_buffer.h"
#include "kwb/cuda/device_kernels.h"

namespace kwb::cuda {

struct DeviceComparison {
  CompareReport report;        // as compareMatrices would give for the same inputs
  std::int64_t unwritten = 0;  // elements of `got` holding the canary bits (countCanary)
};

class DeviceComparer {
 public:
  // Synchronises `stream` (a kernel's asynchronous fault surfaces here as CudaError). On a
  // mismatch, one more pass per further reported mismatch (kReportedMismatches at most).
  DeviceComparison compare(const DeviceCompareArgs& args, CUstream_st* stream);

 private:
  DeviceBuffer<CellSummary> m_cells{std::size_t(kErrorGridCells) * kErrorGridCells};
  DeviceBuffer<unsigned long long> m_next{1};  // launchFirstMismatchAfter's answer
};

}  // namespace kwb::cuda
