// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/blocking_kernel.h"

#include <cuda_runtime_api.h>

#include <atomic>

#include "kwb/cuda/check.h"
#include "kwb/cuda/timer_kernels.h"

namespace kwb::cuda {
namespace {

// One mapped allocation holds the flag and the report; freed by the destructor.
struct MappedBlock {
  int flag;
  BlockerReport report;
};

}  // namespace

BlockingKernel::BlockingKernel(double timeoutS, double minSpinUs)
    : m_minNs((unsigned long long)(minSpinUs * 1e3)),
      m_timeoutNs((unsigned long long)(timeoutS * 1e9)) {
  void* host = nullptr;
  KWB_CUDA_CHECK(cudaHostAlloc(&host, sizeof(MappedBlock), cudaHostAllocMapped));
  void* device = nullptr;
  const cudaError_t e = cudaHostGetDevicePointer(&device, host, 0);
  if (e != cudaSuccess) {
    cudaFreeHost(host);
    throwCudaError(e, "cudaHostGetDevicePointer(&device, host, 0)", __FILE__, __LINE__);
  }
  auto* h = static_cast<MappedBlock*>(host);
  auto* d = static_cast<MappedBlock*>(device);
  m_flag = &h->flag;
  m_report = &h->report;
  m_flagDevice = &d->flag;
  m_reportDevice = &d->report;
  *m_flag = 1;
  *m_report = BlockerReport{0, 0, 0};
}

BlockingKernel::~BlockingKernel() {
  if (m_flag) {
    *m_flag = 1;  // a kernel still spinning ends at once
    cudaFreeHost(const_cast<int*>(m_flag));
  }
}

void BlockingKernel::block(CUstream_st* stream) {
  *m_report = BlockerReport{0, 0, 0};
  *m_flag = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  try {
    launchBlockingKernel(stream, m_flagDevice, m_reportDevice, m_minNs, m_timeoutNs);
  } catch (...) {
    *m_flag = 1;
    throw;
  }
}

void BlockingKernel::probe(CUstream_st* stream) {
  *m_report = BlockerReport{0, 0, 0};
  *m_flag = 1;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  launchBlockingKernel(stream, m_flagDevice, m_reportDevice, m_minNs, m_timeoutNs);
}

void BlockingKernel::release() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *m_flag = 1;
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

bool BlockingKernel::timedOut() const { return m_report->timedOut != 0; }

double BlockingKernel::smClockMhz() const {
  const BlockerReport r = const_cast<const BlockerReport&>(*m_report);
  return r.ns > 0 ? double(r.cycles) / double(r.ns) * 1e3 : 0.0;
}

}  // namespace kwb::cuda
