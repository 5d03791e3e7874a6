// SPDX-License-Identifier: Apache-2.0
#pragma once
// The results document (kwb/run_document.h) and its text form.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "kwb/run_document.h"
#include "kwb/text_file.h"

namespace kwb {

// Text I/O. Errors throw InputError naming `source` (a path or "<stdin>") and the problem.
// Files are bounded: a results document larger than this is refused unread.
inline constexpr std::uintmax_t kMaxDocumentBytes = std::uintmax_t(64) << 20;
// Indented by `indent` (-1: none), unless that text would be larger than `readableBytes`: then
// without indentation, so that a large document stays one kwb reads back.
std::string toJsonText(const RunDocument& doc, int indent = 2,
                       std::uintmax_t readableBytes = kMaxDocumentBytes);
RunDocument parseDocument(std::string_view text, std::string_view source);
RunDocument readDocument(const std::filesystem::path& path);
// Writes atomically (temporary file + rename), so a failure loses nothing already there.
void writeDocument(const RunDocument& doc, const std::filesystem::path& path);
}  // namespace kwb
