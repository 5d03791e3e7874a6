// SPDX-License-Identifier: Apache-2.0
#include "kwb/run_compare.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <set>
#include <unordered_map>

#include "kwb/cupti_ratio.h"
#include "kwb/family.h"

namespace kwb {
namespace {

std::string caseName(const CaseResult& c) { return c.kernel + " " + sizeLabel(c); }

// A document's cases by GPU model, kernel and size in O(1) (findLike scans them all: comparing
// two documents of 48k cases that way took 36 s). The first case of a key wins, as with findLike.
// `byModel` false: by kernel and size alone (two single-GPU runs of different models).
class CaseIndex {
 public:
  CaseIndex(const RunDocument& doc, bool byModel) : m_doc(doc), m_byModel(byModel) {
    m_cases.reserve(doc.cases.size());
    for (const CaseResult& c : doc.cases) {
      m_cases.emplace(key(c, model(c)), &c);
      m_anyModel.emplace(key(c, ""), &c);
    }
  }
  // The case like `like` (of `likeModel`); a case that ran on no device (a hole of a merge)
  // matches its kernel and size on any model.
  const CaseResult* find(const CaseResult& like, const std::string& likeModel) const {
    const std::string m = m_byModel ? likeModel : "";
    if (const auto it = m_cases.find(key(like, m)); it != m_cases.end()) return it->second;
    if (m.empty() && m_byModel) return findAnyModel(like);
    return nullptr;
  }
  const CaseResult* findAnyModel(const CaseResult& like) const {
    const auto it = m_anyModel.find(key(like, ""));
    return it == m_anyModel.end() ? nullptr : it->second;
  }
  std::string model(const CaseResult& c) const { return m_byModel ? m_doc.deviceModel(c) : ""; }

 private:
  // Exactly what makes two cases the same (CaseSize's ==) and the model: length-prefixed so that
  // no two differ only in where text ends.
  static std::string key(const CaseResult& c, const std::string& model) {
    std::string k;
    const auto add = [&k](const std::string& part) {
      k += std::to_string(part.size());
      k += ':';
      k += part;
    };
    add(model);
    add(c.kernel);
    add(c.size.family);
    for (const SizeAxis& a : c.size.axes) {
      add(a.name);
      add(a.word);
      k += std::to_string(a.number);
      k += ';';
    }
    return k;
  }
  const RunDocument& m_doc;
  bool m_byModel;
  std::unordered_map<std::string, const CaseResult*> m_cases;
  std::unordered_map<std::string, const CaseResult*> m_anyModel;
};

std::set<std::string> modelsOf(const RunDocument& doc) {
  std::set<std::string> out;
  for (const DeviceInfo& d : doc.deviceList()) out.insert(d.name);
  return out;
}

}  // namespace

int RunComparison::count(Verdict v) const {
  return int(std::count_if(cases.begin(), cases.end(),
                           [v](const CaseComparison& c) { return c.verdict == v; }));
}

CaseComparison compareCase(const CaseResult& base, const CaseResult& now, const CompareRule& rule) {
  CaseComparison r;
  r.kernel = now.kernel;
  r.caseSize = now.size;
  r.size = sizeLabel(now);
  r.baseMs = base.summary.median;
  r.newMs = now.summary.median;
  r.baseCi = base.summary.ci95;
  r.newCi = now.summary.ci95;
  r.change = r.baseMs > 0 ? r.newMs / r.baseMs - 1.0 : 0.0;
  if (base.timer != now.timer) {
    r.verdict = Verdict::kUncertain;
    r.reason = "timed by different timers (" + std::string(toString(base.timer)) + " and " +
               std::string(toString(now.timer)) + "): not comparable";
    return r;
  }
  if (r.baseMs <= 0 || r.newMs <= 0) {
    r.verdict = Verdict::kUncertain;
    r.reason = "a median is not positive";
    return r;
  }
  r.changeCi = ratioCi(r.baseMs, r.baseCi, r.newMs, r.newCi);
  const Decision d = decide(r.newMs / r.baseMs, r.changeCi, rule.sameWithin);
  r.changeCi = {r.changeCi.low - 1.0, r.changeCi.high - 1.0};
  r.verdict = d.verdict;
  r.reason = d.reason;
  r.cuptiRatio = cuptiRatio(base, now);
  r.reason += cuptiNote(r.newMs / r.baseMs, r.cuptiRatio, "new / base");
  if (d.verdict == Verdict::kUncertain)
    r.reason += "; separate runs cannot decide this: measure both in one run with kwb ab";
  return r;
}

RunComparison compareRuns(const RunDocument& base, const RunDocument& now,
                          const CompareRule& rule) {
  RunComparison out;
  const std::set<std::string> baseModels = modelsOf(base), newModels = modelsOf(now);
  const bool shared = std::any_of(baseModels.begin(), baseModels.end(),
                                  [&](const std::string& m) { return newModels.count(m) > 0; });
  // Documents with a GPU model in common compare each case only on its own model; two runs
  // that share none are compared whole, marked cross-device.
  if (!shared) {
    const auto names = [](const std::set<std::string>& models) {
      std::string s;
      for (const std::string& m : models) s += (s.empty() ? "" : " and ") + m;
      return s.empty() ? std::string("(no device)") : s;
    };
    out.crossDevice = true;
    out.deviceNote = "cross-device comparison: base " + names(baseModels) + ", new " +
                     names(newModels) + "; a change here may be the GPU, not the code";
  }
  const CaseIndex baseCases(base, shared), newCases(now, shared);
  for (const auto& c : now.cases) {
    const std::string model = newCases.model(c);
    const CaseResult* b = baseCases.find(c, model);
    if (!b) {
      if (shared && !model.empty() && baseCases.findAnyModel(c))
        out.otherDevice.push_back(caseName(c) + " on " + model +
                                  ": the base has it only on another GPU model, not compared");
      else
        out.onlyInNew.push_back(caseName(c));
    } else if (c.timed() && b->timed()) {
      out.cases.push_back(compareCase(*b, c, rule));
      out.cases.back().device = model;
    } else {
      CaseComparison u;
      u.kernel = c.kernel;
      u.caseSize = c.size;
      u.size = sizeLabel(c);
      u.device = model;
      u.verdict = Verdict::kUncertain;
      u.reason = std::string("not timed in the ") + (c.timed() ? "base" : "new") + " run";
      out.cases.push_back(u);
    }
    if (b) {
      out.cases.back().baseIndex = int(b - base.cases.data());
      out.cases.back().newIndex = int(&c - now.cases.data());
    }
  }
  for (const auto& b : base.cases)
    if (!newCases.find(b, baseCases.model(b)) &&
        !(shared && !baseCases.model(b).empty() && newCases.findAnyModel(b)))
      out.onlyInBase.push_back(caseName(b));
  return out;
}

}  // namespace kwb
