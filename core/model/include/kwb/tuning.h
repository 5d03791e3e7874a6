// SPDX-License-Identifier: Apache-2.0
#pragma once
// A tuning sweep: the compile-time configurations of one tunable kernel, each verified and,
// when it passes, timed on one shape (`kwb tune`). Each configuration's outcome is a
// CaseResult carrying its TuneConfig; the grid is kwb::TuneGrid in kwb/results.h.
#include <optional>
#include <span>

#include "kwb/run_document.h"

namespace kwb {

// The fastest configuration that passed verification and was timed (lowest median; ties keep
// the earlier one), or nullopt when none was.
std::optional<std::size_t> fastest(std::span<const CaseResult> results);

}  // namespace kwb
