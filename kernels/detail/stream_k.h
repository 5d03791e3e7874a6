// SPDX-License-Identifier: Apache-2.0
#pragma once
// Stream-K on the last partial wave, for sgemm.wgmma's persistent grid (measurement builds,
// KWB_WGMMA_STREAMK=1; measured slower than the default, kernels/PERF_NOTES.md): the tiles that
// fill whole waves run whole K, grid-strided as usual; the rest (tiles mod CTAs) form one run of
// 64-wide k blocks, tile after tile, cut into one contiguous range per CTA, so the partial wave's
// work is spread over every SM instead of leaving some idle (4096^3's 512 tiles of 128x256 on 132
// SMs: 3 waves and 116 tiles, 16 SMs idle for a whole tile's time). A range that starts or ends
// inside a tile computes a segment of it; a tile's segments are summed by whichever arrives last
// (reduceSegments in detail/wgmma_splitk.cuh), so no CTA waits for another. Host and device: the
// producer and the consumers of a CTA walk the same items, and the host sizes the workspace and
// tests the walk.
#include <cstdint>

#if defined(__CUDACC__)
#define KWB_STREAM_K_HD __host__ __device__
#else
#define KWB_STREAM_K_HD
#endif

namespace kwb::kernels::detail {

// One item of a CTA's walk: the tile (in the launch's grouped order), its k blocks [kBegin, kEnd),
// and for a tile in segments the segment's index, the tile's count of them and its workspace slot
// (its index among the segmented tiles); segments == 1: the whole tile, stored at once.
struct StreamKWork {
  int tile = 0;
  int kBegin = 0, kEnd = 0;
  int segment = 0, segments = 1;
  int slot = 0;
};

struct StreamKSchedule {
  int tiles = 0;    // output tiles of the launch
  int ctas = 1;     // the persistent grid
  int kBlocks = 1;  // 64-wide k blocks of a whole tile

  KWB_STREAM_K_HD constexpr int segmentedTiles() const { return tiles % ctas; }
  KWB_STREAM_K_HD constexpr int wholeTiles() const { return tiles - tiles % ctas; }
  KWB_STREAM_K_HD constexpr std::int64_t iterations() const {
    return std::int64_t(segmentedTiles()) * kBlocks;
  }
  // CTA b's range: iterations [begin(b), begin(b + 1)).
  KWB_STREAM_K_HD constexpr std::int64_t begin(int b) const { return iterations() * b / ctas; }
  // The CTA whose range holds iteration x: the last b with begin(b) <= x.
  KWB_STREAM_K_HD constexpr int owner(std::int64_t x) const {
    return int(((x + 1) * ctas + iterations() - 1) / iterations() - 1);
  }
  // Whether there is a partial wave to spread, in a range of at least one k block for every CTA
  // (so a tile's segments are those of consecutive CTAs).
  KWB_STREAM_K_HD constexpr bool runs() const {
    return segmentedTiles() > 0 && iterations() >= ctas;
  }
  // The most segments a tile can be cut into (each range holds ⌊iterations / ctas⌋ k blocks or
  // more): the workspace's partials per slot.
  KWB_STREAM_K_HD constexpr int segmentStride() const {
    const std::int64_t least = iterations() / ctas;
    return least > 0 ? int((kBlocks + least - 1) / least + 1) : 1;
  }
};

// The walk of CTA `cta`: its whole tiles (unless `wholes` is false: the kernel walks those in its
// own loop), then its range's segments.
class StreamKCursor {
 public:
  KWB_STREAM_K_HD constexpr StreamKCursor(const StreamKSchedule& s, int cta, bool wholes = true)
      : s_(s),
        cta_(cta),
        unit_(wholes ? cta : s.wholeTiles()),
        at_(s.begin(cta)),
        end_(s.begin(cta + 1)) {}

  KWB_STREAM_K_HD constexpr bool next(StreamKWork& w) {
    if (unit_ < s_.wholeTiles()) {
      w = {unit_, 0, s_.kBlocks, 0, 1, 0};
      unit_ += s_.ctas;
      return true;
    }
    if (at_ >= end_) return false;
    const int j = int(at_ / s_.kBlocks);  // the segmented tile this iteration lies in
    const std::int64_t first = std::int64_t(j) * s_.kBlocks, last = first + s_.kBlocks;
    const std::int64_t stop = end_ < last ? end_ : last;
    const int owner0 = s_.owner(first);
    w = {s_.wholeTiles() + j,
         int(at_ - first),
         int(stop - first),
         cta_ - owner0,
         s_.owner(last - 1) - owner0 + 1,
         j};
    at_ = stop;
    return true;
  }

 private:
  StreamKSchedule s_;
  int cta_;
  int unit_;
  std::int64_t at_, end_;
};

}  // namespace kwb::kernels::detail

#undef KWB_STREAM_K_HD
