// SPDX-License-Identifier: Apache-2.0
// Includes itself twice at every level: 2^depth files for NVRTC. Refused at --max-include-depth.
#include "self_include.cu"
#include "self_include.cu"
