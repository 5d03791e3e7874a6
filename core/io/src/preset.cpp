// SPDX-License-Identifier: Apache-2.0
#include "kwb/preset.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "json_read.h"
#include "kwb/error.h"
#include "kwb/family.h"
#include "kwb/results.h"
#include "kwb/run_sizes.h"

namespace kwb {
namespace fs = std::filesystem;

namespace {

template <class Fail>
void parseShapes(const nlohmann::json& j, Suite& s, const Fail& fail) {
  const auto shapes = j.find("shapes");
  if (shapes == j.end() || !shapes->is_array() || shapes->empty())
    throw fail("'shapes' must be a non-empty list of shapes like \"512\" or \"256x384x640\"");
  for (const auto& item : *shapes) {
    if (!item.is_string())
      throw fail("every shape must be a string, not " + jsonread::describe(item));
    try {
      s.shapes.push_back(parseShape(item.get<std::string>()));
    } catch (const InputError& e) {
      throw fail(e.what());
    }
  }
}

// Any other family's suite: "sizes" (size texts of its axes, "2^20" or 1000003 for a count
// alone) and/or "axes" ({"type": ["f32", "i32"]}, crossed with the sizes as --axis is), with
// "types" the spelling of axes.type.
template <class Fail>
void parseFamilySizes(const nlohmann::json& j, Suite& s, const Fail& fail) {
  if (j.contains("shapes"))
    throw fail("a " + s.family + " suite lists 'sizes' (" + sizeGrammar(findFamily(s.family)) +
               "), not 'shapes'");
  const auto sizes = j.find("sizes");
  if (sizes != j.end() && (!sizes->is_array() || sizes->empty()))
    throw fail("'sizes' must be a non-empty list of sizes like \"2^20\" or 1000003");
  if (sizes != j.end())
    for (const auto& item : *sizes) {
      if (!item.is_string() && !item.is_number_unsigned())
        throw fail("every size must be a count or a string like \"2^20\", not " +
                   jsonread::describe(item));
      s.sizeTexts.push_back(item.is_string() ? item.get<std::string>()
                                             : std::to_string(item.get<std::uint64_t>()));
    }
  auto addAxis = [&](const std::string& name, const nlohmann::json& values) {
    if (!values.is_array() || values.empty())
      throw fail("axis '" + name + "' must be a non-empty list of values");
    AxisValues a{name, {}};
    for (const auto& v : values) {
      if (!v.is_string() && !v.is_number_unsigned())
        throw fail("every value of axis '" + name + "' must be a string or a count, not " +
                   jsonread::describe(v));
      a.values.push_back(v.is_string() ? v.get<std::string>()
                                       : std::to_string(v.get<std::uint64_t>()));
    }
    s.axes.push_back(std::move(a));
  };
  if (auto t = j.find("types"); t != j.end()) addAxis("type", *t);
  if (auto x = j.find("axes"); x != j.end()) {
    if (!x->is_object()) throw fail("'axes' must be an object of value lists");
    for (const auto& [name, values] : x->items()) addAxis(name, values);
  }
  if (s.sizeTexts.empty() && s.axes.empty())
    throw fail("'sizes' must be a non-empty list of sizes like \"2^20\" or 1000003");
  try {
    s.sizes = runSizes(findFamily(s.family), s.sizeTexts, s.axes);
  } catch (const InputError& e) {
    throw fail(e.what());
  }
}

}  // namespace

Suite parseSuite(std::string_view text, std::string_view source) {
  const std::string src(source);
  auto fail = [&](const std::string& why) -> InputError {
    return InputError("bad preset '" + src + "': " + why);
  };
  nlohmann::json j;
  try {
    j = jsonread::parse(text);
  } catch (const nlohmann::json::exception& e) {
    // parse_error, and out_of_range for a number such as 1e400 that no double holds.
    throw fail("not valid JSON (" + jsonread::plain(e.what()) + ")");
  } catch (const InputError& e) {  // nested too deep, or a duplicate key
    throw fail(e.what());
  }
  if (!j.is_object()) throw fail("not a JSON object");
  Suite s;
  const auto name = j.find("name");
  if (name == j.end() || !name->is_string() || name->get<std::string>().empty())
    throw fail("'name' must be a non-empty string");
  s.name = name->get<std::string>();
  if (auto d = j.find("description"); d != j.end() && d->is_string()) s.description = *d;
  if (auto f = j.find("family"); f != j.end()) {
    if (!f->is_string()) throw fail("'family' must be a string such as \"reduce\"");
    try {
      s.family = findFamily(f->get<std::string>()).id;
    } catch (const InputError& e) {
      throw fail(e.what());
    }
  }
  if (takesShapes(findFamily(s.family))) {
    parseShapes(j, s, fail);
  } else {
    parseFamilySizes(j, s, fail);
  }
  if (auto k = j.find("kernels"); k != j.end()) {
    if (k->is_string()) {
      s.kernels = k->get<std::string>();
    } else if (k->is_array()) {
      s.kernels.clear();
      for (const auto& id : *k) {
        if (!id.is_string()) throw fail("'kernels' entries must be kernel id strings");
        if (!s.kernels.empty()) s.kernels += ',';
        s.kernels += id.get<std::string>();
      }
    } else {
      throw fail("'kernels' must be a string or a list of kernel ids");
    }
  }
  return s;
}

Suite loadSuite(std::string_view nameOrPath, const fs::path& presetsDir) {
  const std::string arg(nameOrPath);
  fs::path path = arg;
  const bool looksLikePath = arg.find('/') != std::string::npos || path.extension() == ".json";
  if (!looksLikePath) path = presetsDir / (arg + ".json");
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    if (looksLikePath) throw InputError("cannot open preset file '" + arg + "': no such file");
    std::string known;
    for (const auto& n : presetNames(presetsDir)) {
      if (!known.empty()) known += ", ";
      known += n;
    }
    throw InputError("unknown suite '" + arg + "' (known: " +
                     (known.empty() ? "none found in " + presetsDir.string() : known) +
                     "; or give a path to a .json preset file)");
  }
  return parseSuite(readTextFile(path, "preset", kMaxPresetBytes), path.string());
}

std::vector<std::string> presetNames(const fs::path& presetsDir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(presetsDir, ec))
    if (e.path().extension() == ".json") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

fs::path defaultPresetsDir(const fs::path& sourceTreeFallback) {
  if (const char* env = std::getenv("KWB_PRESETS_DIR"); env && *env) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path installed = exe.parent_path().parent_path() / "share" / "kwb" / "presets";
    if (fs::is_directory(installed, ec)) return installed;
  }
  return sourceTreeFallback;
}

}  // namespace kwb
