// SPDX-License-Identifier: Apache-2.0
#pragma once
// A non-blocking CUDA stream, move-only, destroyed by its destructor.
struct CUstream_st;

namespace kwb::cuda {

class Stream {
 public:
  Stream();  // cudaStreamCreateWithFlags(cudaStreamNonBlocking); throws CudaError
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& o) noexcept;
  Stream& operator=(Stream&& o) noexcept;

  CUstream_st* get() const { return m_stream; }
  void synchronize() const;  // throws CudaError

 private:
  CUstream_st* m_stream = nullptr;
};

}  // namespace kwb::cuda
