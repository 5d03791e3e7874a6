// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shard documents as `kwb run --shard I/4` writes them, for the merge and host pool tests.
#include <filesystem>
#include <string>

#include "kwb/results.h"

// Shard documents of one plan of four parts (one size each), as kwb run --shard writes them.
inline void writeShard(const std::filesystem::path& path, int index,
                       const std::string& hash = "feedfacecafebeef") {
  kwb::RunDocument d;
  d.device = kwb::DeviceInfo{};
  d.device->name = "NVIDIA H100 80GB HBM3";
  d.device->uuid = "GPU-1";
  d.shard = kwb::ShardInfo{{index, 4}, hash, {}};
  const int sizes[] = {64, 128, 256, 512};
  for (int i = 0; i < 4; ++i) {
    const kwb::CaseSize size = kwb::gemmSize({sizes[i], sizes[i], sizes[i]});
    d.shard->plan.push_back({"cublas.sgemm", size, kwb::Precision::kFp32, i + 1});
    if (i + 1 != index) continue;
    kwb::CaseResult c;
    c.kernel = "cublas.sgemm";
    c.size = size;
    c.status = kwb::CaseStatus::kPass;
    c.samplesMs = {1.0, 1.0};
    c.summary.count = 2;
    c.summary.median = 1.0;
    c.summary.ci95 = {0.99, 1.01};
    d.cases.push_back(c);
  }
  kwb::listMissingKernels(d);
  kwb::writeDocument(d, path);
}
