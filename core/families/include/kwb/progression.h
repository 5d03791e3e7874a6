// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/run_document.h"

namespace kwb {

// The progression rule (docs/RESULTS.md, "progression"): within a family, GFLOP/s must not
// drop from one stage to the next on any shape. Each stage timed with status pass is compared with
// its predecessor: the nearest earlier stage of the same precision, else the nearest earlier stage
// of any precision. So the chain naive → tiled → bank_free → double_buffer → tensor_core holds, and
// later FP32 stages follow double_buffer while later tensor-core stages follow tensor_core. A
// fallback case ran another stage's FP32 kernel, so it is left out rather than compared with its
// own twin. Each violation says whether the two medians' 95% confidence intervals overlap
// (withinNoise). `stageOf(id)` gives a kernel's stage, 0 for references and unknown ids (left out).
ProgressionCheck checkProgression(const std::vector<CaseResult>& cases,
                                  const std::function<int(std::string_view)>& stageOf);
// The same over a document, the one place the rule is applied (the engine at the end of a run,
// a reader on a live or merged document): stages from doc.kernels; references, unlisted ids
// and tuning configurations are not stages. A violation that the later stage's
// ProgressionNote covers (kwb/kernel_info.h) carries the note as its explanation.
ProgressionCheck checkProgression(const RunDocument& doc);

// One violation as a line of text, the same in kwb's output and the Markdown export:
// "512x512x512: sgemm.b 14923.0 GFLOP/s < sgemm.a 18496.0 GFLOP/s (within noise: …)
// — explained: …".
std::string violationText(const ProgressionViolation& v);
// "4 violation(s), 3 explained by the stages' notes" (or without the second part).
std::string violationCount(const ProgressionCheck& p);

}  // namespace kwb
