// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kwb/results.h"

namespace kwb::cuda {

// The alpha/beta pair of the second verification run (alpha ≠ 1, beta ≠ 0 on a prefilled C).
inline constexpr float kCheckAlpha = 0.75f;
inline constexpr float kCheckBeta = -0.5f;

// Sets `c.status` and `c.message` from `c.verification` and `c.fallback` (pure, no CUDA):
//   negative control not rejected            → invalid ("comparator accepted a mangled reference")
//   unwritten > 0, or mismatches in a run    → fail, the message names each check that failed
//                                               and its first mismatch (row, col, got, expected)
//   NaN out of a NaN-filled output           → fail ("read C although beta = 0", 1-D: "read its
//                                               output before writing it")
//   the last timed launch's output mismatches → fail ("the last timed launch's output: ...")
//   c.suspicious set (kwb/plausibility.h)    → fail ("suspicious: ...")
//   otherwise                                → fallback when the FP32 path ran, else pass
// A case without a verification is a fail ("not verified").
void applyVerdict(CaseResult& c);

}  // namespace kwb::cuda
