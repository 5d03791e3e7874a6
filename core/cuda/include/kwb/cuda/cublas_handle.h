// SPDX-License-Identifier: Apache-2.0
#pragma once
// A cuBLAS handle bound to one stream, move-only, destroyed by its destructor.
struct cublasContext;
struct CUstream_st;

namespace kwb::cuda {

class CublasHandle {
 public:
  explicit CublasHandle(CUstream_st* stream);  // throws CudaError
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  CublasHandle(CublasHandle&& o) noexcept;
  CublasHandle& operator=(CublasHandle&& o) noexcept;

  cublasContext* get() const { return m_handle; }

 private:
  cublasContext* m_handle = nullptr;
};

}  // namespace kwb::cuda
