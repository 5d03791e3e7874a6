// SPDX-License-Identifier: Apache-2.0
// Stage 4: single-pass scan with decoupled look-back (Merrill & Garland, "Single-pass Parallel
// Prefix Scan with Decoupled Look-back", 2016). Reduce-then-scan reads the input twice; here
// each element is read once and written once (2n, the minimum). Each tile publishes a status
// word as soon as it can: its own total (AGGREGATE) right after the in-register tile scan, its
// inclusive prefix (PREFIX) once it knows it. A warp of the next tile looks back over the
// preceding statuses: it adds aggregates until it meets a PREFIX, so a tile seldom waits for its
// predecessor's full prefix, only for its total. Two configurations, chosen by count
// (lookback_scan.cuh, StageLookbackScan): where the tiles outnumber the blocks resident at once,
// CUB's tile (128 x 24) and delays (a 1140 ns sleep before the first status read, 688 ns between
// re-reads) with a 32-wide look-back; where the grid is one wave, 512 x 16 tiles with a 128-wide
// look-back. lookback.cuh has the look-back and why it sleeps before reading. Nothing is cleared
// before a launch: the statuses carry the launch's epoch, which the last tile's block advances,
// and the many-wave grid is a programmatic dependent of the kernel before it (lookback_scan.cuh).
#include "scan/lookback_scan.cuh"
#include "scan/scan_descriptors.h"

namespace kwb::kernels {
namespace {

using Scan = scan::StageLookbackScan;  // its configuration, lookback_scan.cuh
constexpr const char* kId = "scan.decoupled_lookback";

LaunchInfo launch(const VectorArgs& a) {
  vec::dispatch(a.type, [&](auto zero) {
    using T = decltype(zero);
    Scan::launch<T>(static_cast<const T*>(a.in), static_cast<T*>(a.out), a.count, a.stream, kId);
  });
  return {false, kId};
}

}  // namespace

KernelDescriptor scanDecoupledLookback() {
  KernelDescriptor d = vectorDescriptor(
      kId, "Decoupled look-back", "scan", false,
      "Single pass: tiles in atomic-counter order, epoch-tagged 64-bit status words (no memset), "
      "warp look-back after CUB's first-read delay (128x24 tiles beyond one wave, 512x16 within "
      "one)",
      &launch);
  d.progressionNotes = {
      {.why =
           "small inputs: the 32-wide look-back measured slower than reduce-then-scan on an "
           "H100 at 2^20 elements (7.9 against 7.1 us, when it still cleared its statuses with a "
           "memset before each launch); its fixed costs are each block's tile-counter atomic "
           "and the look-back's dependent status reads, which 256 tiles do not hide",
       .maxCount = std::int64_t{1} << 21}};
  return d;
}

}  // namespace kwb::kernels
