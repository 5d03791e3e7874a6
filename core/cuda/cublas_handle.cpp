// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/cublas_handle.h"

#include <cublas_v2.h>

#include <utility>

#include "kwb/cuda/check.h"

namespace kwb::cuda {

CublasHandle::CublasHandle(CUstream_st* stream) {
  KWB_CUBLAS_CHECK(cublasCreate(&m_handle));
  try {
    KWB_CUBLAS_CHECK(cublasSetStream(m_handle, stream));
  } catch (...) {
    cublasDestroy(m_handle);
    throw;
  }
}

CublasHandle::~CublasHandle() {
  if (m_handle) (void)cublasDestroy(m_handle);
}

CublasHandle::CublasHandle(CublasHandle&& o) noexcept
    : m_handle(std::exchange(o.m_handle, nullptr)) {}

CublasHandle& CublasHandle::operator=(CublasHandle&& o) noexcept {
  if (this != &o) {
    CublasHandle dying(std::move(*this));
    m_handle = std::exchange(o.m_handle, nullptr);
  }
  return *this;
}

}  // namespace kwb::cuda
