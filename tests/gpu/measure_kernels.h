// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstddef>

struct CUstream_st;

// Test-only kernels with known behaviour for the measurement tests.
void launchSpin(double ms, CUstream_st* stream);
void launchRead(const float* in, std::size_t floats, float* out, CUstream_st* stream);
