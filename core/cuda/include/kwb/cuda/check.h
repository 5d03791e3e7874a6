// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace kwb::cuda {

// A failed CUDA runtime or cuBLAS call. `sticky` marks errors that poison the context
// (illegal address, launch failure): the process cannot run further cases after one.
class CudaError : public std::runtime_error {
 public:
  CudaError(const std::string& what, int code, bool sticky)
      : std::runtime_error(what), m_code(code), m_sticky(sticky) {}
  int code() const { return m_code; }
  bool sticky() const { return m_sticky; }

 private:
  int m_code;
  bool m_sticky;
};

bool isStickyError(cudaError_t e);
[[noreturn]] void throwCudaError(cudaError_t e, const char* call, const char* file, int line);
[[noreturn]] void throwCublasError(int status, const char* call, const char* file, int line);

}  // namespace kwb::cuda

// Every CUDA runtime call goes through this: the message carries file:line, the call's
// text, the error name and its description.
#define KWB_CUDA_CHECK(call)                                                                       \
  do {                                                                                             \
    const cudaError_t kwb_err_ = (call);                                                           \
    if (kwb_err_ != cudaSuccess) ::kwb::cuda::throwCudaError(kwb_err_, #call, __FILE__, __LINE__); \
  } while (0)

// After every kernel launch.
#define KWB_CHECK_LAUNCH() KWB_CUDA_CHECK(cudaGetLastError())

#define KWB_CUBLAS_CHECK(call)                                                           \
  do {                                                                                   \
    const int kwb_st_ = static_cast<int>(call);                                          \
    if (kwb_st_ != 0) ::kwb::cuda::throwCublasError(kwb_st_, #call, __FILE__, __LINE__); \
  } while (0)
