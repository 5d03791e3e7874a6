// SPDX-License-Identifier: Apache-2.0
#pragma once
// A run's energy windows (kwb run --energy) in the CSV and Markdown exports (exporters.cpp).
#include <sstream>
#include <string>

#include "kwb/run_document.h"

namespace kwb {

// The run asked for energy, or a case carries a window (a merged document).
bool anyEnergy(const RunDocument& doc);
// The CSV columns, each with its leading comma, and a case's fields in the same order.
std::string energyCsvHeader();
std::string energyCsvFields(const CaseResult& c, std::string (*csvField)(const std::string&));
// A Markdown section: each timed case's window, or why it has none.
void energyMarkdown(std::ostringstream& os, const RunDocument& doc);

}  // namespace kwb
