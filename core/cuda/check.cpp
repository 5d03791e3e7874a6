// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/check.h"

#include <cublas_v2.h>

#include <cstring>
#include <sstream>

namespace kwb::cuda {
namespace {

// The source file's name without the folder it was built in: messages reach users and
// documents, where a build machine's path says nothing.
const char* fileName(const char* file) {
  const char* slash = std::strrchr(file, '/');
  return slash ? slash + 1 : file;
}

}  // namespace

bool isStickyError(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorIllegalInstruction:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

void throwCudaError(cudaError_t e, const char* call, const char* file, int line) {
  std::ostringstream os;
  os << fileName(file) << ':' << line << ": " << call << " failed: " << cudaGetErrorName(e) << " ("
     << cudaGetErrorString(e) << ')';
  throw CudaError(os.str(), int(e), isStickyError(e));
}

void throwCublasError(int status, const char* call, const char* file, int line) {
  const auto st = static_cast<cublasStatus_t>(status);
  std::ostringstream os;
  os << fileName(file) << ':' << line << ": " << call << " failed: " << cublasGetStatusName(st)
     << " (" << cublasGetStatusString(st) << ')';
  throw CudaError(os.str(), status, false);
}

}  // namespace kwb::cuda
