// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>

#include "kwb/results.h"

namespace kwb {

// Printers only format; every number comes from the document.
// One row per case; columns documented in docs/RESULTS.md.
std::string toCsv(const RunDocument& doc);
// A report: device banner line, known-answer test, the case table, progression violations.
std::string toMarkdown(const RunDocument& doc);

}  // namespace kwb
