// SPDX-License-Identifier: Apache-2.0
// The one parser of foreign JSON (results documents, event lines, presets, A/B reports, kernel
// lists, profiles): nlohmann's SAX parser feeding a DOM built here, so that nesting deeper than
// kMaxJsonDepth is refused before anything deeper is built (a 63 MiB file of '[' costs
// microseconds, not gigabytes) and a duplicate key is refused instead of silently keeping the
// last value. A text over kCostCheckFromBytes is first walked without building anything, and
// refused when its tree would take more than kMaxTreeBytesPerByte times its size: a wide file
// such as a 63 MiB `[0,0,0,…]` or `[{},{},…]` costs 12 to 35 times its size as a tree, a kwb
// document 2 to 5 times as kwb writes it (indented), up to about 9 minified.
#include <string>
#include <utility>
#include <vector>

#include "json_read.h"

namespace kwb::jsonread {
namespace {

using nlohmann::json;

// nlohmann's SAX interface names its methods in snake case.
// NOLINTBEGIN(readability-identifier-naming)
class DomBuilder {
 public:
  json root;

  bool null() { return put(nullptr); }
  bool boolean(bool v) { return put(v); }
  bool number_integer(json::number_integer_t v) { return put(v); }
  bool number_unsigned(json::number_unsigned_t v) { return put(v); }
  bool number_float(json::number_float_t v, const json::string_t& /*text*/) { return put(v); }
  bool string(json::string_t& v) { return put(v); }
  bool binary(json::binary_t& v) { return put(json::binary(v)); }
  bool start_object(std::size_t /*size*/) { return open(json::object()); }
  bool start_array(std::size_t /*size*/) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    auto& object = m_open.back()->get_ref<json::object_t&>();
    const auto [it, inserted] = object.emplace(k, nullptr);
    if (!inserted)
      throw InputError("the key \"" + (k.size() > 40 ? k.substr(0, 40) + "…" : k) +
                       "\" appears twice in one object (a duplicate key is malformed or forged)");
    m_slot = &it->second;
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const Exception& e) {
    throw e;  // as nlohmann::json::parse throws it: callers turn it into an InputError
  }

 private:
  std::vector<json*> m_open;  // the arrays and objects not yet closed, outermost first
  json* m_slot = nullptr;     // where an object's next value goes (set by key)

  template <class V>
  json* place(V&& v) {
    if (m_open.empty()) {
      root = json(std::forward<V>(v));
      return &root;
    }
    json& parent = *m_open.back();
    if (parent.is_array()) {
      auto& array = parent.get_ref<json::array_t&>();
      array.emplace_back(std::forward<V>(v));
      return &array.back();
    }
    *m_slot = json(std::forward<V>(v));
    return m_slot;
  }
  template <class V>
  bool put(V&& v) {
    place(std::forward<V>(v));
    return true;
  }
  bool open(json&& empty) {
    if (m_open.size() >= std::size_t(kMaxJsonDepth)) throw InputError(deepMessage());
    m_open.push_back(place(std::move(empty)));
    return true;
  }
  bool close() {
    m_open.pop_back();
    return true;
  }
};
// Walks a text as DomBuilder would build it, adding up what the tree would take (a model of
// nlohmann's layout on a 64-bit libstdc++, allocator overhead included), and nesting.
class TreeCost {
 public:
  explicit TreeCost(std::size_t budget) : m_budget(budget) {}

  bool null() { return add(0); }
  bool boolean(bool /*v*/) { return add(0); }
  bool number_integer(json::number_integer_t /*v*/) { return add(0); }
  bool number_unsigned(json::number_unsigned_t /*v*/) { return add(0); }
  bool number_float(json::number_float_t /*v*/, const json::string_t& /*text*/) { return add(0); }
  bool string(json::string_t& v) { return add(v.size() > 15 ? 48 + v.size() : 32); }
  bool binary(json::binary_t& v) { return add(48 + v.size()); }
  bool start_object(std::size_t /*size*/) { return open(64); }
  bool start_array(std::size_t /*size*/) { return open(40); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    m_inObject = true;
    return charge(96 + (k.size() > 15 ? k.size() + 1 : 0));
  }
  template <class Exception>
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const Exception& e) {
    throw e;
  }

 private:
  std::size_t m_budget, m_bytes = 0;
  int m_depth = 0;
  bool m_inObject = false;  // the next value is an object member, already paid for by its key

  bool charge(std::size_t bytes) {
    m_bytes += bytes;
    if (m_bytes > m_budget)
      throw InputError("would take more than " + std::to_string(m_budget >> 20) +
                       " MiB of memory to read (" + std::to_string(kMaxTreeBytesPerByte) +
                       " times its size; a kwb file takes 2 to 9): too many small values");
    return true;
  }
  // A value: 24 bytes in its array (16, and a half more on average for the array's growth; none in
  // an object: its key paid), plus what it holds.
  bool add(std::size_t held) {
    const std::size_t slot = m_inObject ? 0 : 24;
    m_inObject = false;
    return charge(slot + held);
  }
  bool open(std::size_t held) {
    if (++m_depth > kMaxJsonDepth) throw InputError(deepMessage());
    return add(held);
  }
  bool close() {
    --m_depth;
    return true;
  }
};
// NOLINTEND(readability-identifier-naming)

}  // namespace

std::string deepMessage() {
  return "nested more than " + std::to_string(kMaxJsonDepth) +
         " levels deep (a kwb file nests fewer than 16)";
}

nlohmann::json parse(std::string_view text) {
  if (text.size() > kCostCheckFromBytes) {
    TreeCost cost(text.size() * kMaxTreeBytesPerByte + kCostCheckFromBytes);
    json::sax_parse(text, &cost);
  }
  DomBuilder dom;
  json::sax_parse(text, &dom);
  return std::move(dom.root);
}

}  // namespace kwb::jsonread
