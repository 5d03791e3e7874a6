// SPDX-License-Identifier: Apache-2.0
#pragma once
// The cases left after a fault that lost the CUDA context, run in a fresh engine (a child kwb
// with a new context; docs/RELIABILITY.md, "A crashing kernel costs one case"). Its event stream
// joins the parent's: the child's hello, device, plan and done stay inside, its case events come
// back with the parent's plan indices, so a reader sees one run.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "kwb/events.h"

namespace kwb {

// Runs `argv` (a kwb run --stream over the parent's cases `indices`, in that order) to its end
// and hands each case_started, case_finished, case_failed and log event to `onEvent`, its index
// mapped through `indices`. Returns "" when the child sent `done`, else why it did not (its exit
// status or signal, a line it could not parse, an index outside `indices`), naming the child as
// "the fresh engine". Throws InputError when the child cannot be started.
std::string runInFreshEngine(const std::vector<std::string>& argv,
                             const std::vector<std::size_t>& indices,
                             const std::function<void(StreamEvent)>& onEvent);

// "3,5,9": the --continue-cases text of `indices`.
std::string caseIndexList(const std::vector<std::size_t>& indices);
// The indices of a --continue-cases text, strictly increasing and below `planSize`; throws
// InputError naming the option and the text otherwise.
std::vector<std::size_t> parseCaseIndexList(const std::string& text, std::size_t planSize);

}  // namespace kwb
