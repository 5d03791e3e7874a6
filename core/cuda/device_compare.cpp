#include "kwb/cuda/device_compare.h"

#include <cuda_runtime_api.h>

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
  if (auto& m = out.report.firstMismatch) {
    // The two values of the first mismatch, with the kernel's own rules for each side.
    const std::int64_t i = m->row * args.cols + m->col;
    float e = readOne(args.expected, i, stream);
    if (args.alphaBeta)
      e = float(args.alpha * double(e) + args.beta * double(seededValue(args.prefillBase, i)));
    float x = 0;
    if (!args.mangle)
      x = readOne(args.got, i, stream);
    else
      x = mangledCopy(std::span<const float>(&e, 1))[0];
    m->got = x;
    m->expected = e;
  }
  return out;
}

}  // namespace kwb::cuda
