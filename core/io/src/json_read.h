// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checked reads of numbers out of foreign JSON (results documents, event lines).
//
// nlohmann's get<int>() converts a float such as 1e30 with a plain cast, which is undefined
// behaviour, and narrows large integers silently. Every integer read from a file goes through
// readInt instead: a whole number in the target type's range, or an InputError naming the field.
// Doubles accept a number, null (nlohmann writes NaN and ±Inf as null) and the strings "NaN",
// "Infinity" and "-Infinity" the writer uses for non-finite values (docs/RESULTS.md).
#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "kwb/error.h"

namespace kwb::jsonread {

// The deepest nesting of arrays and objects a file may have; kwb's own nest fewer than 16.
inline constexpr int kMaxJsonDepth = 64;
// A text longer than this is walked once before its tree is built, and refused if the tree would
// take more than kMaxTreeBytesPerByte times its size (plus this much): memory stays a small
// multiple of the file however wide it is. kwb's own files take 2 to 5 times their size as kwb
// writes them (indented), up to about 9 minified.
inline constexpr std::size_t kCostCheckFromBytes = std::size_t(1) << 20;
inline constexpr std::size_t kMaxTreeBytesPerByte = 10;

// "nested more than 64 levels deep (…)": the message of a refused nesting.
std::string deepMessage();

// Refuses, as InputError, a text whose tree would take more than `budget` bytes or that nests
// deeper than kMaxJsonDepth, from one pass over its bytes that builds nothing (json_cost.cpp).
// It does not check the syntax: the parser that follows does.
void checkTreeCost(std::string_view text, std::size_t budget);

// `text` parsed as one JSON value: what nlohmann::json::parse gives, except that nesting deeper
// than kMaxJsonDepth is refused before it is built (memory stays a small multiple of the text)
// and a key that appears twice in one object is refused naming it, both as InputError. Syntax
// errors and numbers no double holds throw nlohmann's exceptions, as nlohmann::json::parse does.
nlohmann::json parse(std::string_view text);

// A short description of a value for a message: numbers in %g, never a whole DBL_MAX.
inline std::string describe(const nlohmann::json& v) {
  char buf[64];
  if (v.is_number_float()) {
    std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
    return buf;
  }
  if (v.is_number()) return v.dump();
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    return "the string \"" + (s.size() > 40 ? s.substr(0, 40) + "…" : s) + "\"";
  }
  if (v.is_array()) return "a list";
  if (v.is_object()) return "an object";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return "null";
}

template <class T>
concept Integer = std::integral<T> && !std::same_as<T, bool>;

template <Integer T>
T toInt(const nlohmann::json& v, std::string_view what) {
  using L = std::numeric_limits<T>;
  if (v.is_number_unsigned()) {
    if (const auto u = v.get<std::uint64_t>(); std::in_range<T>(u)) return T(u);
  } else if (v.is_number_integer()) {
    if (const auto i = v.get<std::int64_t>(); std::in_range<T>(i)) return T(i);
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d != std::trunc(d))
      throw InputError("'" + std::string(what) + "' must be a whole number, not " + describe(v));
    // [min, 2^digits) is exact in double for every integer type.
    if (std::isfinite(d) && d >= double(L::min()) && d < std::ldexp(1.0, L::digits)) return T(d);
  } else {
    throw InputError("'" + std::string(what) + "' must be a whole number, not " + describe(v));
  }
  throw InputError("'" + std::string(what) + "' is " + describe(v) + ", out of range (" +
                   std::to_string(L::min()) + " to " + std::to_string(L::max()) + ")");
}

inline double toNumber(const nlohmann::json& v, std::string_view what) {
  if (v.is_number()) return v.get<double>();
  if (v.is_null()) return NAN;
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s == "NaN") return NAN;
    if (s == "Infinity") return INFINITY;
    if (s == "-Infinity") return -INFINITY;
  }
  throw InputError("'" + std::string(what) + "' must be a number, not " + describe(v));
}

template <class T>
struct IsVector : std::false_type {};
template <class T, class A>
struct IsVector<std::vector<T, A>> : std::true_type {};
template <class T>
struct IsArray : std::false_type {};
template <class T, std::size_t N>
struct IsArray<std::array<T, N>> : std::true_type {};
template <class T>
struct IsIntegerMap : std::false_type {};
template <Integer T>
struct IsIntegerMap<std::map<std::string, T>> : std::true_type {};

// `v` read into `out`: checked for numbers (also inside lists and maps), nlohmann's get_to for
// everything else. `what` names the field in messages.
template <class T>
void read(const nlohmann::json& v, std::string_view what, T& out) {
  if constexpr (std::is_floating_point_v<T>) {
    out = T(toNumber(v, what));
  } else if constexpr (Integer<T>) {
    out = toInt<T>(v, what);
  } else if constexpr (IsVector<T>::value || IsArray<T>::value) {
    if (!v.is_array())
      throw InputError("'" + std::string(what) + "' must be a list, not " + describe(v));
    if constexpr (IsArray<T>::value) {
      if (v.size() != out.size())
        throw InputError("'" + std::string(what) + "' must have " + std::to_string(out.size()) +
                         " entries, not " + std::to_string(v.size()));
      for (std::size_t i = 0; i < out.size(); ++i) read(v[i], what, out[i]);
    } else {
      out.clear();
      for (const auto& e : v) read(e, what, out.emplace_back());
    }
  } else if constexpr (IsIntegerMap<T>::value) {
    if (!v.is_object())
      throw InputError("'" + std::string(what) + "' must be an object, not " + describe(v));
    out.clear();
    for (const auto& [key, e] : v.items()) read(e, what, out[key]);
  } else {
    v.get_to(out);
  }
}

// j.at(key) read into `out`.
template <class T>
void get(const nlohmann::json& j, const char* key, T& out) {
  read(j.at(key), key, out);
}

// Like get, but an absent key (or null, for integers) leaves `fallback`.
template <class T>
T value(const nlohmann::json& j, const char* key, T fallback) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  T out{};
  get(j, key, out);
  return out;
}

// The text of a nlohmann exception without its "[json.exception.type_error.302] " prefix.
inline std::string plain(const char* what) {
  std::string_view s(what);
  if (s.starts_with("[json.exception.")) {
    if (const auto end = s.find("] "); end != s.npos) s.remove_prefix(end + 2);
  }
  return std::string(s);
}

}  // namespace kwb::jsonread
