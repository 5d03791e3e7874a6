// SPDX-License-Identifier: Apache-2.0
// Which CUPTI records ran outside the timed stream (kwb/cuda/cupti_tracer.h, recordsOutside):
// the rule behind "work outside the timed stream", on records made by hand.
#include <gtest/gtest.h>

#include "kwb/cuda/cupti_tracer.h"

namespace {

using kwb::cuda::KernelActivity;

KernelActivity at(const char* name, std::uint32_t context, std::uint32_t stream) {
  KernelActivity k;
  k.name = name;
  k.contextId = context;
  k.streamId = stream;
  return k;
}

TEST(StreamRecords, WorkOnTheTimedStreamIsNotNamed) {
  const kwb::cuda::StreamIdentity timed{1, 7};
  EXPECT_TRUE(kwb::cuda::recordsOutside({at("gemm", 1, 7), at(kwb::cuda::kMemsetName, 1, 7)}, timed)
                  .empty());
}

TEST(StreamRecords, AnotherStreamOrContextIsNamedOncePerKernelAndPlace) {
  const kwb::cuda::StreamIdentity timed{1, 7};
  const auto out = kwb::cuda::recordsOutside({at("gemm", 1, 7), at("side", 1, 9), at("side", 1, 9),
                                              at("side", 1, 13), at(kwb::cuda::kMemcpyName, 2, 7)},
                                             timed);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0], "side (stream 9)");
  EXPECT_EQ(out[1], "side (stream 13)");
  EXPECT_EQ(out[2], "[memcpy] (context 2)");
}

}  // namespace
