// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>
#include <vector>

namespace kwb::cli {

struct ProcessResult {
  int exitCode = -1;      // -1 when it did not exit normally
  int signal = 0;         // the signal that ended it, if any
  bool timedOut = false;  // killed after the time limit
};

// Runs argv[0] (looked up on PATH) with stdout and stderr written to the given files, waits
// at most `timeoutS` seconds (then kills it with SIGKILL). Throws InputError when it cannot
// be started, naming the program.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& stdoutPath,
                         const std::string& stderrPath, double timeoutS);

}  // namespace kwb::cli
