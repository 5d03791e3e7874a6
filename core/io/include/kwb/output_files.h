// SPDX-License-Identifier: Apache-2.0
#pragma once
// The files a command writes (--json, --csv, --md, ...): checked before the work starts, then
// written one after the other (atomically, kwb/text_file.h).
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kwb {

// A file a command names: the option that names it ("--csv"; for an argument, what it is: "the
// results document") and its path. Empty paths and "-" (stdout) are none.
struct NamedPath {
  std::string option;
  std::string path;
};

// Checks a command's outputs before its work starts, so a long run never ends in losing its
// results or destroying what it read: each output must be writable as writeBytesFile writes it
// (kwb/text_file.h: a regular file or none, through links, in a writable folder), and must be
// neither one of the command's inputs nor another of its outputs, after links and hard links
// are followed. Inputs that do not exist are no file to protect. Throws InputError naming the
// option and the path.
void checkOutputs(const std::vector<NamedPath>& inputs, const std::vector<NamedPath>& outputs);

// One file to write: its path (empty: not asked for), what produces its text, and the option
// that names it in messages ("--csv"; may be empty).
struct Output {
  std::string path;
  std::function<std::string()> text;
  std::string option;
};
// Writes each output whose path is not empty, in order. When one fails, the InputError says
// which of the others were already written, so nothing is silently lost.
void writeOutputs(const std::vector<Output>& outputs);

}  // namespace kwb
