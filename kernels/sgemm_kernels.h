#pragma once
// Descriptor factories of the SGEMM progression and the cuBLAS references, gathered by the
// one registration list in registry.cpp.
#include "kwb/kernel_descriptor.h"

namespace kwb::kernels {

KernelDescriptor sgemmNaive();            // sgemm_naive.cu
KernelDescriptor sgemmTiled();            // sgemm_tiled.cu
KernelDescriptor sgemmBankFree();         // sgemm_bank_free.cu
KernelDescriptor sgemmDoubleBuffer();     // sgemm_double_buffer.cu
KernelDescriptor sgemmTensorCore();       // sgemm_tensor_core.cu
KernelDescriptor cublasSgemmRef();        // cublas_refs.cpp
KernelDescriptor cublasHgemmF32AccRef();  // cublas_refs.cpp
KernelDescriptor cublasTf32Ref();         // cublas_refs.cpp

// The tensor-core stage's FP32 fallback for shapes that are not multiples of 16.
LaunchInfo launchSgemmDoubleBuffer(const GemmArgs& args);

}  // namespace kwb::kernels
