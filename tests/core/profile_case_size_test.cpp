// SPDX-License-Identifier: Apache-2.0
// The size of a profiled case as `kwb profile` names it to `kwb run` and to its report's file,
// for every family kernels/ registers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "kwb/family.h"
#include "kwb/ncu_profile.h"
#include "registry.h"

namespace {

// Any other family's case is named by its family and its whole size label, which `kwb run
// --sizes` reads back as exactly that size (every axis given: nothing crossed, nothing
// defaulted): a size of every family, each word axis at its last word, each number at 2^20 or
// its range.
TEST(NcuProfile, EveryFamilysCaseIsNamedToKwbRunByItsWholeSize) {
  kwb::kernels::registerFamilies();
  int checked = 0;
  for (const kwb::Family& f : kwb::families()) {
    std::vector<kwb::SizeAxis> axes;
    for (const kwb::AxisSpec& a : f.axes) {
      kwb::SizeAxis x{a.name, a.kind};
      x.unit = a.unit;
      if (a.kind == kwb::AxisKind::kWord)
        x.word = a.words.back();
      else
        x.number = std::clamp(std::int64_t{1} << 20, std::max<std::int64_t>(a.min, 1), a.max);
      axes.push_back(x);
    }
    const kwb::CaseSize size(f.id, axes);
    const auto opts = kwb::caseSizeOptions(size, "--shapes");
    if (kwb::isGemm(size)) {
      EXPECT_EQ(opts, (std::vector<std::string>{"--shapes", "1048576x1048576x1048576"}));
      continue;
    }
    ASSERT_EQ(opts.size(), 4u) << f.id;
    EXPECT_EQ(opts[0], "--family");
    EXPECT_EQ(opts[1], f.id);
    EXPECT_EQ(opts[2], "--sizes");
    EXPECT_EQ(kwb::parseSize(f, opts[3]), size) << f.id << ": " << opts[3];
    const std::string stem = kwb::ncuReportStem(f.id + ".k", size);
    EXPECT_EQ(stem.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789._-^"),
              std::string::npos)
        << stem;
    ++checked;
  }
  EXPECT_GE(checked, 4);  // reduce, scan, sort, histogram
  const auto reduce = kwb::vectorSize("reduce", std::int64_t{1} << 28, "f32");
  EXPECT_EQ(kwb::ncuReportStem("reduce.vectorized", reduce), "reduce.vectorized-2^28-f32");
  const auto args = kwb::ncuProfileArgs("ncu", "/bin/kwb", "reduce.vectorized", reduce, "/r/x", 8);
  const auto run = std::find(args.begin(), args.end(), "run");
  ASSERT_NE(run, args.end());
  EXPECT_EQ(std::vector<std::string>(run, run + 9),
            (std::vector<std::string>{"run", "--kernels", "reduce.vectorized", "--family", "reduce",
                                      "--sizes", "2^28 f32", "--timer", "host"}));
}

}  // namespace
