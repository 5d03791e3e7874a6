// SPDX-License-Identifier: Apache-2.0
// JSON of a document's kernel entries (kwb/results_json.h) and `kwb list --json` read back.
#include "json_read.h"
#include "kwb/error.h"
#include "kwb/kernel_info.h"
#include "kwb/results_json.h"

namespace kwb {
using jsonread::get;
using nlohmann::json;

void to_json(json& j, const KernelInfo& v) {
  j = {{"id", v.id},
       {"name", v.name},
       {"family", v.family},
       {"stage", v.stage},
       {"precision", v.precision},
       {"reference", v.reference},
       {"description", v.description},
       {"tunable", v.tunable},
       {"problem", v.problem}};
  if (!v.progressionNotes.empty()) {
    json notes = json::array();
    for (const auto& n : v.progressionNotes) {
      json note = {{"why", n.why},
                   {"maxFlops", n.maxFlops},
                   {"unalignedOnly", n.unalignedOnly},
                   {"maxCount", n.maxCount}};
      if (!n.axis.empty()) note["axis"] = {{"name", n.axis}, {"min", n.axisMin}};
      if (!n.word.empty()) note["word"] = n.word;
      notes.push_back(note);
    }
    j["progressionNotes"] = notes;
  }
}

void from_json(const json& j, KernelInfo& v) {
  get(j, "id", v.id);
  if (v.id.empty()) throw InputError("a kernel entry has an empty 'id'");
  v.name = jsonread::value(j, "name", v.id);
  v.family = jsonread::value(j, "family", std::string());
  v.stage = jsonread::value(j, "stage", 0);
  v.precision = jsonread::value(j, "precision", std::string());
  v.reference = jsonread::value(j, "reference", false);
  v.description = jsonread::value(j, "description", std::string());
  v.tunable = jsonread::value(j, "tunable", false);  // absent in `kwb list` before it existed
  v.problem = jsonread::value(j, "problem", std::string("gemm"));  // schema 4
  v.progressionNotes.clear();                                      // schema 4, optional
  if (auto it = j.find("progressionNotes"); it != j.end() && it->is_array())
    for (const auto& n : *it) {
      ProgressionNote note;
      get(n, "why", note.why);
      note.maxFlops = jsonread::value(n, "maxFlops", 0.0);
      note.unalignedOnly = jsonread::value(n, "unalignedOnly", false);
      note.maxCount = jsonread::value(n, "maxCount", std::int64_t{0});
      if (auto a = n.find("axis"); a != n.end() && a->is_object()) {  // schema 7, optional
        note.axis = jsonread::value(*a, "name", std::string());
        note.axisMin = jsonread::value(*a, "min", std::int64_t{0});
      }
      note.word = jsonread::value(n, "word", std::string());
      v.progressionNotes.push_back(note);
    }
}

std::vector<KernelInfo> parseKernelList(std::string_view text, std::string_view source) {
  const std::string src(source);
  try {
    const json j = jsonread::parse(text);
    if (!j.is_array()) throw InputError("not a JSON list of kernels");
    std::vector<KernelInfo> out;
    for (const auto& k : j) out.push_back(k.get<KernelInfo>());
    return out;
  } catch (const json::exception& e) {
    throw InputError("bad kernel list '" + src + "': " + jsonread::plain(e.what()));
  } catch (const InputError& e) {
    throw InputError("bad kernel list '" + src + "': " + e.what());
  }
}

}  // namespace kwb
