// SPDX-License-Identifier: Apache-2.0
#pragma once
// Small helpers the core tests share: the message an action fails with, a fresh folder of
// their own, a file's bytes, and a family of many axes.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

#include "kwb/error.h"
#include "kwb/family.h"

// The InputError message `f` throws, or "no error".
inline std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const kwb::InputError& e) {
    return e.what();
  }
  return "no error";
}

// An empty folder under the temporary directory, unique to this process and `name`.
inline std::filesystem::path tempDir(const std::string& name) {
  std::filesystem::path d = std::filesystem::temp_directory_path() /
                            ("kwb_test_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

// The whole file, bytes as they are ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A family of four axes, as a histogram declares them: count, type u8|f32, "N bins" (1 to
// 65536), distribution uniform|zipf|one-bin. Its reference kernel is "<id>.ref".
inline kwb::Family histogramLikeFamily(const std::string& id) {
  kwb::Family f;
  f.id = id;
  f.axes = {{"count", kwb::AxisKind::kCount, {}, {}, 0},
            {"type", kwb::AxisKind::kWord, {}, {"u8", "f32"}},
            {"bins", kwb::AxisKind::kCount, "bins", {}, 1, 65536},
            {"distribution", kwb::AxisKind::kWord, {}, {"uniform", "zipf", "one-bin"}}};
  f.reference = id + ".ref";
  return f;
}
