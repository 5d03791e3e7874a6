// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kwb/results.h"

namespace kwb::gui {

class ReportPainter;

// The report's correctness section, continued: a small heat map of |C − C_ref| for each case
// with mismatches (of the canary run where it has them, else of the α/β run), three a row.
// Cases whose document has no error grid are listed by name instead. Draws nothing when no
// case has mismatches.
void drawFailingErrorMaps(ReportPainter& rp, const RunDocument& doc);

}  // namespace kwb::gui
