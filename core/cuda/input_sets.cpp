// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/input_sets.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "kwb/cuda/check.h"
#include "kwb/cuda/family_driver.h"
#include "kwb/cuda/runner.h"
#include "kwb/run_document.h"

namespace kwb::cuda {
namespace {
constexpr std::uint64_t kSetStride = 0xD1B54A32D192ED03ull;  // odd: K steps, K distinct seeds
}  // namespace

std::uint64_t inputSetSeed(std::uint64_t seed, int set) {
  return seed + std::uint64_t(std::max(set, 0)) * kSetStride;
}

int inputSetsWanted(const DriverContext& ctx) {
  if (!ctx.run || ctx.run->verifyOnly) return 1;
  return std::max(ctx.run->freshInputs, 1);
}

int inputSetsThatFit(int wanted, double setBytes, double freeBytes, double headroomBytes) {
  wanted = std::max(wanted, 1);
  if (wanted == 1 || setBytes <= 0) return wanted;
  const double room = freeBytes - headroomBytes;
  if (room < setBytes) return 1;
  const double further = std::floor(room / setBytes);
  return int(std::min<double>(wanted, 1.0 + further));
}

int inputSetsThatFitNow(int wanted, double setBytes, double headroomBytes) {
  if (wanted <= 1) return 1;
  std::size_t freeBytes = 0, total = 0;
  KWB_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &total));
  return inputSetsThatFit(wanted, setBytes, double(freeBytes), headroomBytes);
}

void recordInputSets(CaseResult& c, int sets, int wanted) {
  c.inputSets = sets;
  if (sets >= wanted) return;
  c.timerNote += std::string(c.timerNote.empty() ? "" : "; ") + "rotated through " +
                 std::to_string(sets) + " of " + std::to_string(wanted) +
                 " input sets (--fresh-inputs): the device memory held no more";
}

std::function<void()> rotatedLaunch(std::shared_ptr<InputRotation> rotation,
                                    const std::function<std::function<void()>(int set)>& launchOn) {
  std::vector<std::function<void()>> perSet;
  perSet.reserve(std::size_t(rotation->sets()));
  for (int j = 0; j < rotation->sets(); ++j) perSet.emplace_back(launchOn(j));
  return [sets = std::move(perSet), rotation = std::move(rotation)] {
    sets[std::size_t(rotation->take())]();
  };
}

}  // namespace kwb::cuda
