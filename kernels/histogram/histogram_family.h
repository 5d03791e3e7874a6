// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <memory>

namespace kwb::cuda {
class FamilyDriver;
}

namespace kwb::kernels {

// The histogram family's driver (histogram_family.cpp): u8 or f32 samples counted into even
// bins, against cub::DeviceHistogram::HistogramEven, exactly.
std::shared_ptr<cuda::FamilyDriver> histogramDriver();

}  // namespace kwb::kernels
