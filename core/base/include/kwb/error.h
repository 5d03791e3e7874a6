// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <stdexcept>
#include <string>

#include "kwb/exit_codes.h"

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

}  // namespace kwb
