// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whole text files: read with a bound, written atomically.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace kwb {

// Writes text atomically to `path` through a uniquely named temporary file in the same folder,
// renamed over the target once complete; the target keeps its mode, and a link is written
// through. Refuses a target that is not a regular file (a device, FIFO or folder). Throws
// InputError naming the path; on any failure the old file is left as it was.
void writeTextFile(const std::filesystem::path& path, std::string_view text);
// Reads a whole regular file of at most `maxBytes`; refuses devices, FIFOs, sockets and folders
// without blocking on them. `what` names the kind of file in messages ("results", "preset").
std::string readTextFile(const std::filesystem::path& path, std::string_view what,
                         std::uintmax_t maxBytes);

}  // namespace kwb
