// SPDX-License-Identifier: Apache-2.0
#pragma once
// Whole text files: read with a bound, written atomically.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace kwb {

// Writes bytes atomically to `path` through a uniquely named temporary file in the target's
// folder, renamed over the target once complete and synced. A symbolic link is followed to the
// file it names and stays a link (a dangling one: the file it names is created). Refuses a
// target that is not a regular file (a device, FIFO, socket or folder, directly or through a
// link) and a read-only one (as root it is rewritten keeping its mode); the target keeps its
// mode and, where allowed, its owner. Throws InputError naming the path; on any failure (a full
// disk, a file-size limit: EFBIG) the old file is left as it was and no temporary file stays.
// kwb-gui's PDF and PNG bytes are written here too (docs/RELIABILITY.md, "Atomic outputs").
// `option` ("--csv"), when given, is named in messages beside the path.
void writeBytesFile(const std::filesystem::path& path, const char* data, std::size_t size,
                    const std::string& option = "");
// writeBytesFile for text.
void writeTextFile(const std::filesystem::path& path, std::string_view text,
                   const std::string& option = "");
// Reads a whole regular file of at most `maxBytes`; refuses devices, FIFOs, sockets and folders
// without blocking on them. `what` names the kind of file in messages ("results", "preset").
std::string readTextFile(const std::filesystem::path& path, std::string_view what,
                         std::uintmax_t maxBytes);

}  // namespace kwb
