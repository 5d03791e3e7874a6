#pragma once
#include <stdexcept>
#include <string>

namespace kwb {

// Bad user input (a shape, a kernel id, a file): the CLI maps it to exit code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// No usable CUDA device: the CLI maps it to exit code 3.
class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Exit codes of `kwb`, documented in docs/PROTOCOL.md.
enum ExitCode : int {
  kExitOk = 0,
  kExitCaseFailed = 1,
  kExitBadInput = 2,
  kExitNoDevice = 3,
  kExitInternal = 4,
  kExitInterrupted = 130,  // Ctrl-C or SIGTERM: finished results written, the rest not run
};

}  // namespace kwb
