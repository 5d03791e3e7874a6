// SPDX-License-Identifier: Apache-2.0
#include "kwb/device_info.h"

namespace kwb {
namespace {

// FP32 FMA lanes per SM: 64 on sm_70/75/80, 128 on sm_86/89/90 and later.
int fp32LanesPerSm(int major, int minor) {
  if (major >= 9) return 128;
  if (major == 8) return minor == 0 ? 64 : 128;
  return 64;
}

// Dense FP16-in/FP32-accumulate tensor FLOP per SM per clock.
int fp16TensorFlopsPerSmClock(int major, int minor) {
  if (major >= 9) return 4096;  // H100/H200 (wgmma); mma.sync reaches about 2/3 of it
  if (major == 8) return minor == 0 ? 2048 : 1024;  // A100 : GA10x/AD10x (FP32 accumulate)
  if (major == 7) return 1024;
  return 0;
}

}  // namespace

// Peaks at the maximum SM clock; memory bandwidth from the memory clock and bus width
// (double data rate). These are leads for the roofline, not promises.
void derivePeaks(DeviceInfo& d) {
  const double ghz = d.smClockMhz / 1000.0;
  d.peakFp32Tflops = 2.0 * fp32LanesPerSm(d.ccMajor, d.ccMinor) * d.smCount * ghz / 1000.0;
  d.peakFp16TensorTflops =
      double(fp16TensorFlopsPerSmClock(d.ccMajor, d.ccMinor)) * d.smCount * ghz / 1000.0;
  d.peakTf32TensorTflops = d.peakFp16TensorTflops / 2.0;
  d.peakBandwidthGBs = 2.0 * d.memClockMhz * 1e6 * (d.memBusWidthBits / 8.0) / 1e9;
}

double peakBf16TensorTflops(const DeviceInfo& d) {
  return d.ccMajor >= 8 ? d.peakFp16TensorTflops : 0.0;
}

}  // namespace kwb
