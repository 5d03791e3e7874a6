// SPDX-License-Identifier: Apache-2.0
#include "planted_read.h"

#include "kwb/cuda/check.h"
#include "planted_read_kernel.h"

namespace kwb::test {
namespace {

LaunchInfo launchPlantedRead(const GemmArgs& g) {
  KWB_CUDA_CHECK(launchPlantedReadSgemm(int(g.shape.m), int(g.shape.n), int(g.shape.k), g.alpha,
                                        g.a, g.b, g.beta, g.c, g.stream));
  return {false, kPlantedReadId};
}

}  // namespace

KernelDescriptor plantedReadDescriptor() {
  KernelDescriptor d;
  d.id = kPlantedReadId;
  d.displayName = "Planted out-of-bounds read (test only)";
  d.family = "test";
  d.stage = 1;
  d.description = "Reads one float past K in A's guard; C stays right. Test builds only.";
  d.launch = &launchPlantedRead;
  return d;
}

}  // namespace kwb::test
