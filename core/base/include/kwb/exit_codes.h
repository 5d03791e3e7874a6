// SPDX-License-Identifier: Apache-2.0
#pragma once
// Exit codes of `kwb`, shared by the engine and everything that starts it (the GUI), documented
// in docs/PROTOCOL.md.

namespace kwb {

enum ExitCode : int {
  kExitOk = 0,             // every case and the known-answer test passed
  kExitCaseFailed = 1,     // the run went through; a case or the known-answer test did not pass
  kExitBadInput = 2,       // bad input (an option, a shape, a kernel id, a file): nothing ran
  kExitNoDevice = 3,       // no usable CUDA device: nothing ran
  kExitInternal = 4,       // a bug or an unexpected failure inside kwb
  kExitInterrupted = 130,  // Ctrl-C or SIGTERM: finished results written, the rest not run
};

// The engine refused the request before running anything: starting it again would not help.
inline bool isRefusal(int exitCode) {
  return exitCode == kExitBadInput || exitCode == kExitNoDevice;
}

}  // namespace kwb
