// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "kwb/device_info.h"

TEST(Peaks, H100SxmFromClocks) {
  kwb::DeviceInfo d;
  d.ccMajor = 9;
  d.smCount = 132;
  d.smClockMhz = 1980;
  d.memClockMhz = 2619;
  d.memBusWidthBits = 5120;
  kwb::derivePeaks(d);
  // 2 · 128 lanes · 132 SMs · 1.98 GHz = 66.9 TFLOP/s, the datasheet's FP32 figure.
  EXPECT_NEAR(d.peakFp32Tflops, 66.9, 0.05);
  // 4096 · 132 · 1.98 GHz = 1070 TFLOP/s dense FP16 at the boost clock.
  EXPECT_NEAR(d.peakFp16TensorTflops, 1070.5, 0.5);
  EXPECT_NEAR(d.peakTf32TensorTflops, d.peakFp16TensorTflops / 2, 1e-9);
  // 2 · 2619 MHz · 640 bytes = 3352 GB/s.
  EXPECT_NEAR(d.peakBandwidthGBs, 3352.3, 0.1);
}

TEST(Peaks, A100HasHalfTheFp32LanesPerSm) {
  kwb::DeviceInfo d;
  d.ccMajor = 8;
  d.smCount = 108;
  d.smClockMhz = 1410;
  kwb::derivePeaks(d);
  EXPECT_NEAR(d.peakFp32Tflops, 19.5, 0.05);
  EXPECT_NEAR(d.peakFp16TensorTflops, 312.0, 0.5);
}
