// SPDX-License-Identifier: Apache-2.0
#include "output.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "kwb/family.h"

namespace kwb::cli {

std::string formatTable(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width;
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], r[i].size());
    }
  std::ostringstream os;
  for (std::size_t ri = 0; ri < rows.size(); ++ri) {
    for (std::size_t i = 0; i < rows[ri].size(); ++i) {
      os << rows[ri][i];
      if (i + 1 < rows[ri].size()) os << std::string(width[i] - rows[ri][i].size() + 2, ' ');
    }
    os << '\n';
    if (ri == 0) {
      std::size_t total = 0;
      for (std::size_t w : width) total += w + 2;
      os << std::string(total > 2 ? total - 2 : 0, '-') << '\n';
    }
  }
  return os.str();
}

std::string formatBanner(const DeviceInfo& d) {
  std::ostringstream os;
  os << "Device " << d.index << ": " << d.name << " (sm_" << d.ccMajor << d.ccMinor << ")\n"
     << "  " << d.smCount << " SMs @ " << d.smClockMhz << " MHz, " << d.warpSize
     << "-thread warps, max " << d.maxThreadsPerBlock << " threads/block\n"
     << "  memory " << fixed(double(d.totalMemoryBytes) / (1 << 30), 1) << " GiB, "
     << d.memBusWidthBits << "-bit @ " << d.memClockMhz << " MHz, L2 " << d.l2Bytes / (1 << 20)
     << " MiB, shared/block (opt-in) " << d.sharedMemPerBlockOptin / 1024 << " KiB\n"
     << "  peaks: FP32 " << fixed(d.peakFp32Tflops, 1) << " TFLOP/s, FP16 tensor "
     << fixed(d.peakFp16TensorTflops, 0) << " TFLOP/s, TF32 tensor "
     << fixed(d.peakTf32TensorTflops, 0) << " TFLOP/s, DRAM " << fixed(d.peakBandwidthGBs, 0)
     << " GB/s\n"
     << "  driver " << d.driverVersion / 1000 << "." << (d.driverVersion % 1000) / 10
     << ", runtime " << d.runtimeVersion / 1000 << "." << (d.runtimeVersion % 1000) / 10 << '\n';
  return os.str();
}

std::string progressLine(const CaseResult& r, int done, std::size_t planSize) {
  std::ostringstream line;
  line << '[' << done << '/' << planSize << "] " << r.kernel << ' ' << sizeLabel(r) << ": "
       << toString(r.status);
  if (r.timed())
    line << ' '
         << (isOneDimensional(r) ? fixed(r.bandwidthGBs, 1) + " GB/s"
                                 : fixed(r.gflops, 1) + " GFLOP/s");
  if (r.status == CaseStatus::kSkipped) line << " (" << r.message << ')';
  line << '\n';
  return line.str();
}

std::string thisKwb() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("kwb") : self.string();
}

}  // namespace kwb::cli
