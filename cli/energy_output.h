// SPDX-License-Identifier: Apache-2.0
#pragma once
// kwb run --energy in the CLI's tables (docs/MEASUREMENT.md, "Energy per launch").
#include <functional>
#include <string>
#include <vector>

#include "kwb/run_document.h"

namespace kwb::cli {

// Appends two columns, work per joule with its quantisation bound ("GFLOP/J" or "GB/J", from
// the first measured case's unit) and the window's average power ("W"), to `rows` (header
// first, then one row per case of doc.cases that `shown` keeps, in order); nothing when the
// run did not ask for energy.
void appendEnergyColumns(std::vector<std::vector<std::string>>& rows, const RunDocument& doc,
                         const std::function<bool(const CaseResult&)>& shown);
// What the figures are, and each timed case with no energy figure and why; empty when the run
// did not ask for energy. `listMeasured` (kwb ab, whose table has no energy columns) also gives
// each measured case's line: work per joule with its bound, watts, joules per launch.
std::string energyNotes(const RunDocument& doc, bool listMeasured = false);

}  // namespace kwb::cli
