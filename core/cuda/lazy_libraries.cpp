// SPDX-License-Identifier: Apache-2.0
// cuBLAS and NVRTC loaded on first use (docs/RELIABILITY.md, "Start-up memory"). Linked
// normally, the two libraries (and cuBLASLt behind cuBLAS) cost every kwb process about
// 180 MB of resident memory at start, also `kwb compare`, `kwb export` or a refused input
// that never touches the GPU. kwb calls 8 cuBLAS and 9 NVRTC functions; each is defined here
// with the library's own signature and forwards to the real one, which is looked up with
// dlopen/dlsym the first time any function of that library is called. A library that cannot
// be loaded is a CudaError naming it and the loader's reason (the case, or the compile, fails).
#include <cublas_v2.h>
#include <dlfcn.h>
#include <nvrtc.h>

#include <mutex>
#include <string>

#include "kwb/cuda/check.h"

namespace kwb::cuda {
namespace {

class LazyLibrary {
 public:
  LazyLibrary(const char* soname, const char* dir) : m_soname(soname), m_dir(dir) {}

  // The address of `symbol`; throws CudaError when the library or the symbol is missing.
  void* symbol(const char* symbol) {
    std::call_once(m_once, [this] { load(); });
    if (!m_handle) throw CudaError(m_error, 0, false);
    void* p = dlsym(m_handle, symbol);
    if (!p) throw CudaError(std::string(m_soname) + " has no " + symbol, 0, false);
    return p;
  }

 private:
  void load() {
    // The loader's search path first (LD_LIBRARY_PATH, ld.so.conf), then the toolkit the build
    // used, where a machine's loader does not know it.
    m_handle = dlopen(m_soname, RTLD_NOW | RTLD_LOCAL);
    if (m_handle) return;
    const std::string first = dlerror();
    const std::string path = std::string(m_dir) + "/" + m_soname;
    m_handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!m_handle)
      m_error = "cannot load " + std::string(m_soname) + ": " + first + "; " + dlerror();
  }

  const char* m_soname;
  const char* m_dir;
  std::once_flag m_once;
  void* m_handle = nullptr;
  std::string m_error;
};

LazyLibrary& cublasLibrary() {
  static LazyLibrary lib(KWB_CUBLAS_SONAME, KWB_CUDA_LIBRARY_DIR);
  return lib;
}
LazyLibrary& nvrtcLibrary() {
  static LazyLibrary lib(KWB_NVRTC_SONAME, KWB_CUDA_LIBRARY_DIR);
  return lib;
}

// The real function `name` of `lib`, typed as the declaration `F` this file defines.
template <typename F>
F* real(LazyLibrary& lib, const char* name) {
  return reinterpret_cast<F*>(lib.symbol(name));
}

}  // namespace
}  // namespace kwb::cuda

using kwb::cuda::cublasLibrary;
using kwb::cuda::nvrtcLibrary;
using kwb::cuda::real;

// Each forwarder looks its function up once (a function-local static per call site): a cuBLAS
// reference is launched for every timed sample, so no dlsym on that path. A failed lookup
// throws and is tried again at the next call.
// NOLINTBEGIN(bugprone-macro-parentheses): F is a type, which parentheses would not take
#define KWB_REAL(lib, F, name)                 \
  ([] {                                        \
    static F* const fn = real<F>(lib(), name); \
    return fn;                                 \
  }())
// NOLINTEND(bugprone-macro-parentheses)
#define KWB_CUBLAS(name) KWB_REAL(cublasLibrary, decltype(name), #name)
#define KWB_NVRTC(name) KWB_REAL(nvrtcLibrary, decltype(name), #name)

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  return KWB_CUBLAS(cublasCreate_v2)(handle);
}
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  return KWB_CUBLAS(cublasDestroy_v2)(handle);
}
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
  return KWB_CUBLAS(cublasSetStream_v2)(handle, stream);
}
const char* cublasGetStatusName(cublasStatus_t status) {
  return KWB_CUBLAS(cublasGetStatusName)(status);
}
const char* cublasGetStatusString(cublasStatus_t status) {
  return KWB_CUBLAS(cublasGetStatusString)(status);
}
cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k, const float* alpha,
                              const float* a, int lda, const float* b, int ldb, const float* beta,
                              float* c, int ldc) {
  return KWB_CUBLAS(cublasSgemm_v2)(handle, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c,
                                    ldc);
}
cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k, const double* alpha,
                              const double* a, int lda, const double* b, int ldb,
                              const double* beta, double* c, int ldc) {
  return KWB_CUBLAS(cublasDgemm_v2)(handle, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c,
                                    ldc);
}
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k, const void* alpha,
                            const void* a, cudaDataType aType, int lda, const void* b,
                            cudaDataType bType, int ldb, const void* beta, void* c,
                            cudaDataType cType, int ldc, cublasComputeType_t computeType,
                            cublasGemmAlgo_t algo) {
  // cublas_api.h overloads cublasGemmEx in C++ (a wrapper taking cudaDataType as computeType):
  // the C function is named by its type.
  using GemmEx =
      cublasStatus_t(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                     const void*, const void*, cudaDataType, int, const void*, cudaDataType, int,
                     const void*, void*, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
  return KWB_REAL(cublasLibrary, GemmEx, "cublasGemmEx")(handle, transa, transb, m, n, k, alpha, a,
                                                         aType, lda, b, bType, ldb, beta, c, cType,
                                                         ldc, computeType, algo);
}

nvrtcResult nvrtcVersion(int* major, int* minor) { return KWB_NVRTC(nvrtcVersion)(major, minor); }
const char* nvrtcGetErrorString(nvrtcResult result) {
  return KWB_NVRTC(nvrtcGetErrorString)(result);
}
nvrtcResult nvrtcCreateProgram(nvrtcProgram* prog, const char* src, const char* name,
                               int numHeaders, const char* const* headers,
                               const char* const* includeNames) {
  return KWB_NVRTC(nvrtcCreateProgram)(prog, src, name, numHeaders, headers, includeNames);
}
nvrtcResult nvrtcDestroyProgram(nvrtcProgram* prog) { return KWB_NVRTC(nvrtcDestroyProgram)(prog); }
nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char* const* options) {
  return KWB_NVRTC(nvrtcCompileProgram)(prog, numOptions, options);
}
nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t* ptxSizeRet) {
  return KWB_NVRTC(nvrtcGetPTXSize)(prog, ptxSizeRet);
}
nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char* ptx) { return KWB_NVRTC(nvrtcGetPTX)(prog, ptx); }
nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t* logSizeRet) {
  return KWB_NVRTC(nvrtcGetProgramLogSize)(prog, logSizeRet);
}
nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char* log) {
  return KWB_NVRTC(nvrtcGetProgramLog)(prog, log);
}
nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char* const nameExpression) {
  return KWB_NVRTC(nvrtcAddNameExpression)(prog, nameExpression);
}

}  // extern "C"
