// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test-only kernels that fail on purpose (never in the user registry). Both throw CudaError.
struct CUstream_st;

void launchIllegalWrite(CUstream_st* stream);         // sticky: loses the CUDA context
void launchBadConfig(CUstream_st* stream, float* c);  // not sticky: invalid configuration
// Work the timer cannot see: a small kernel, sideStreamWork, on a stream of its own (created on
// the first call), beside whatever the caller launches on its stream.
void launchOnSideStream();
