// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whether the merge job's merged.json agrees with the GUI's own incremental merge of the same
// Slurm job (docs/SCALE_OUT.md, "The GUI's Slurm target"): the same shards merged, failed or
// missing, and the same cases present and missing (holes).
#include <QString>

#include "kwb/run_document.h"

namespace kwb::gui {

// Empty when they agree; else one sentence saying how they differ (the first shard whose state
// differs, or how many cases one has that the other lacks or holds as a hole, with one named).
QString mergeDisagreement(const RunDocument& ours, const RunDocument& theirs);

}  // namespace kwb::gui
