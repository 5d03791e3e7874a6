// SPDX-License-Identifier: Apache-2.0
// Stage 4: single-pass scan with decoupled look-back (Merrill & Garland, "Single-pass Parallel
// Prefix Scan with Decoupled Look-back", 2016). Reduce-then-scan reads the input twice; here
// each element is read once and written once (2n, the minimum). Each tile publishes a status
// word as soon as it can: its own total (AGGREGATE) right after the in-register tile scan, its
// inclusive prefix (PREFIX) once it knows it. A warp of the next tile looks back over the
// preceding statuses, 128 at a time (four a lane): it adds aggregates until it meets a PREFIX,
// so a tile seldom waits for its predecessor's full prefix, only for its total, and the chain
// of PREFIX values advances 128 tiles per status round trip. lookback_scan.cuh has the kernel,
// lookback.cuh the look-back and why the window is wide.
#include "scan/lookback_scan.cuh"
#include "scan/scan_descriptors.h"

namespace kwb::kernels {
namespace {

using Scan = scan::StageLookbackScan;  // its configuration, lookback_scan.cuh
constexpr const char* kId = "scan.decoupled_lookback";

std::size_t scratch(std::int64_t count, ElementType) { return Scan::scratchBytes(count); }

LaunchInfo launch(const VectorArgs& a) {
  vec::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    Scan::launch<T>(static_cast<const T*>(a.in), static_cast<T*>(a.out), a.count, a.scratch,
                    a.scratchBytes, a.stream, kId);
  });
  return {false, kId};
}

}  // namespace

KernelDescriptor scanDecoupledLookback() {
  KernelDescriptor d = vectorDescriptor(
      kId, "Decoupled look-back", "scan", false,
      "Single pass: tiles in atomic-counter order, 64-bit status words, 128-wide warp look-back",
      &launch, &scratch);
  d.progressionNotes = {
      {.why = "small inputs: the 32-wide look-back measured slower than reduce-then-scan on an "
              "H100 at 2^20 elements (7.9 against 7.1 us); its fixed costs are clearing the tile "
              "statuses before each launch (a memset node), each block's tile-counter atomic and "
              "the look-back's dependent status reads, which 256 tiles do not hide",
       .maxCount = std::int64_t{1} << 21}};
  return d;
}

}  // namespace kwb::kernels
