// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/device_compare.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "kwb/compare_summary.h"
#include "kwb/cuda/check.h"
#include "kwb/seeded.h"

namespace kwb::cuda {
namespace {

float readOne(const float* p, std::int64_t i, CUstream_st* stream) {
  float v = 0;
  KWB_CUDA_CHECK(cudaMemcpyAsync(&v, p + i, sizeof v, cudaMemcpyDeviceToHost, stream));
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return v;
}

}  // namespace

DeviceComparison DeviceComparer::compare(const DeviceCompareArgs& args, CUstream_st* stream) {
  const int gr = gridCellsFor(args.rows), gc = gridCellsFor(args.cols);
  launchCompareCells(args, gr, gc, m_cells.get(), stream);
  std::vector<CellSummary> cells(std::size_t(gr) * std::size_t(gc));
  KWB_CUDA_CHECK(cudaMemcpyAsync(cells.data(), m_cells.get(), cells.size() * sizeof(CellSummary),
                                 cudaMemcpyDeviceToHost, stream));
  KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
  DeviceComparison out;
  out.report = reportFromCells(cells, gr, gc, args.rows, args.cols);
  out.unwritten = unwrittenIn(cells);
  if (!out.report.firstMismatch) return out;
  // The values of a mismatch, with the kernel's own rules for each side.
  auto at = [&](std::int64_t i) {
    float e = readOne(args.expected, i, stream);
    if (args.alphaBeta)
      e = float(args.alpha * double(e) + args.beta * double(seededValue(args.prefillBase, i)));
    const float x = args.mangle ? mangledValue(e) : readOne(args.got, i, stream);
    return Mismatch{i / args.cols, i % args.cols, x, e};
  };
  std::int64_t i = out.report.firstMismatch->row * args.cols + out.report.firstMismatch->col;
  out.report.firstMismatch = at(i);
  out.report.firstMismatches.push_back(*out.report.firstMismatch);
  const auto wanted =
      std::size_t(std::min<std::int64_t>(std::int64_t(kReportedMismatches), out.report.mismatches));
  while (out.report.firstMismatches.size() < wanted) {
    launchFirstMismatchAfter(args, i, m_next.get(), stream);
    unsigned long long next = 0;
    KWB_CUDA_CHECK(
        cudaMemcpyAsync(&next, m_next.get(), sizeof next, cudaMemcpyDeviceToHost, stream));
    KWB_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (next == ~0ull) break;
    i = std::int64_t(next);
    out.report.firstMismatches.push_back(at(i));
  }
  return out;
}

}  // namespace kwb::cuda
