// SPDX-License-Identifier: Apache-2.0
#pragma once
// The files a command writes (--json, --csv, --md, ...): checked before the work starts, then
// written one after the other (atomically, kwb/text_file.h).
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kwb {

// Fails early (InputError naming the path) when an output file could not be written, so a
// long run never ends in losing its results. Empty paths and "-" (stdout) pass.
void checkWritable(const std::string& path);

// Fails early when two of the named files are the same file, or an output is the input:
// `files` pairs an option ("--csv", or "input") with its path; empty paths and "-" are skipped.
void checkDistinct(const std::vector<std::pair<std::string, std::string>>& files);

// One file to write: its path (empty: not asked for) and what produces its text.
struct Output {
  std::string path;
  std::function<std::string()> text;
};
// Writes each output whose path is not empty, in order. When one fails, the InputError says
// which of the others were already written, so nothing is silently lost.
void writeOutputs(const std::vector<Output>& outputs);

}  // namespace kwb
