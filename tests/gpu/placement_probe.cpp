// SPDX-License-Identifier: Apache-2.0
// Does where a case's buffers land in device memory move its median? For one kernel and shape,
// prepares the case `placements` times, keeping every earlier allocation alive so each set
// lands at new addresses, and times each set twice with the default timer. If the two timings
// of one set agree and different sets disagree, run-to-run spread comes from placement.
// Usage: placement_probe kernel-id shape [placements]   (e.g. sgemm.bank_free 512 8)
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "kwb/cuda/gemm_session.h"
#include "kwb/cuda/measure.h"
#include "kwb/shape.h"
#include "kwb/stats.h"
#include "registry.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: placement_probe kernel-id shape [placements]\n");
    return 2;
  }
  const int placements = argc > 3 ? std::atoi(argv[3]) : 8;
  try {
    const auto& k = kwb::kernels::registry().find(argv[1]);
    const kwb::Shape shape = kwb::parseShape(argv[2]);
    kwb::cuda::GemmSession session;
    kwb::cuda::MeasureOptions opt;
    opt.cuptiCheck = false;
    std::vector<std::unique_ptr<kwb::cuda::PreparedCase>> kept;
    std::printf("%s %s, default timer, median us (CV %%) of two timings per buffer set\n", argv[1],
                argv[2]);
    for (int p = 0; p < placements; ++p) {
      kept.push_back(session.prepare(k, shape, 42));
      const kwb::GemmArgs args = kept.back()->args(1.0f, 0.0f);
      std::printf("set %2d  A=%p B=%p C=%p ", p, (const void*)args.a, (const void*)args.b,
                  (void*)args.c);
      for (int t = 0; t < 2; ++t) {
        const auto m = kwb::cuda::measure([&] { k.launch(args); }, session.stream(), opt, nullptr);
        const auto s = kwb::stats::summarize(m.samplesMs);
        std::printf("  %9.3f (%.2f%%)", s.median * 1e3, 100 * s.cv);
      }
      std::printf("\n");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "placement_probe: %s\n", e.what());
    return 1;
  }
  return 0;
}
