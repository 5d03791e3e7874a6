// SPDX-License-Identifier: Apache-2.0
// The one parser of foreign JSON (results documents, event lines, presets, A/B reports, kernel
// lists, profiles): nlohmann's SAX parser feeding a DOM built here, so that nesting deeper than
// kMaxJsonDepth is refused before anything deeper is built (a 63 MiB file of '[' costs
// microseconds, not gigabytes) and a duplicate key is refused instead of silently keeping the
// last value. A text over kCostCheckFromBytes is first scanned (json_cost.cpp) and refused when
// its tree would take more than kMaxTreeBytesPerByte times its size.
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
// NOLINTEND(readability-identifier-naming)

}  // namespace

std::string deepMessage() {
  return "nested more than " + std::to_string(kMaxJsonDepth) +
         " levels deep (a kwb file nests fewer than 16)";
}

nlohmann::json parse(std::string_view text) {
  if (text.size() > kCostCheckFromBytes)
    checkTreeCost(text, text.size() * kMaxTreeBytesPerByte + kCostCheckFromBytes);
  DomBuilder dom;
  json::sax_parse(text, &dom);
  return std::move(dom.root);
}

}  // namespace kwb::jsonread
