// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where an output's bytes go, and whether they may: the one check behind kwb::checkOutputs
// (before a command's work) and kwb::writeFileAtomically (at the write), for kwb and kwb-gui.
#include <sys/stat.h>

#include <filesystem>
#include <string>

namespace kwb::detail {

struct OutputTarget {
  std::filesystem::path file;  // the path with its symbolic links followed (may not exist yet)
  std::filesystem::path real;  // `file` with its folder made canonical: equal means one file
  bool exists = false;
  struct stat st {};  // of `file`, when it exists
};

// Follows `path`'s symbolic links, a dangling one included, to the file they name, and checks
// that a file can be written there: a regular file (never a device, FIFO, socket or folder) or
// none yet, writable, in an existing writable folder. Throws InputError "cannot write 'PATH'
// (OPTION): why"; `option` may be empty.
OutputTarget checkedOutputTarget(const std::filesystem::path& path, const std::string& option);

// "cannot write 'PATH' (OPTION): " with the option left out when empty.
std::string cannotWrite(const std::string& path, const std::string& option);

}  // namespace kwb::detail
