// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/check.h"

#include <cublas_v2.h>

#include <sstream>
#include <string_view>

namespace kwb::cuda {

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

namespace {
// The engine's source file relative to the project ("core/cuda/stream.cpp"), not the path of the
// machine that built it: a fault message is read by users, in documents shared between machines.
std::string_view sourceFile(std::string_view file) {
  constexpr std::string_view kRoot = KWB_SOURCE_ROOT "/";
  if (file.substr(0, kRoot.size()) == kRoot) file.remove_prefix(kRoot.size());
  return file;
}
}  // namespace

void throwCudaError(cudaError_t e, const char* call, const char* file, int line) {
  std::ostringstream os;
  os << sourceFile(file) << ':' << line << ": " << call << " failed: " << cudaGetErrorName(e)
     << " (" << cudaGetErrorString(e) << ')';
  throw CudaError(os.str(), int(e), isStickyError(e));
}

void throwCublasError(int status, const char* call, const char* file, int line) {
  const auto st = static_cast<cublasStatus_t>(status);
  std::ostringstream os;
  os << sourceFile(file) << ':' << line << ": " << call << " failed: " << cublasGetStatusName(st)
     << " (" << cublasGetStatusString(st) << ')';
  throw CudaError(os.str(), status, false);
}

}  // namespace kwb::cuda
