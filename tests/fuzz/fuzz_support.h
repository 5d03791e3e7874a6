// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every fuzz target promises: foreign bytes are either read, or refused with an InputError
// that names the input. Any other exception escapes to libFuzzer, which reports it as a crash
// (std::terminate), as it does every AddressSanitizer and UndefinedBehaviorSanitizer report.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "kwb/error.h"

namespace kwb::fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// An InputError must name the input it refuses.
inline void checkNamed(const InputError& e, std::string_view source) {
  if (std::string_view(e.what()).find(source) == std::string_view::npos) {
    std::fprintf(stderr, "InputError does not name '%.*s': %s\n", int(source.size()), source.data(),
                 e.what());
    std::abort();
  }
}

// A property of what was read that must hold; aborts (a crash libFuzzer keeps) when it does not.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz property failed: %s\n", what);
    std::abort();
  }
}

}  // namespace kwb::fuzz
