// SPDX-License-Identifier: Apache-2.0
#include "kwb/run_compare.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

#include "kwb/family.h"

namespace kwb {
namespace {

std::string caseName(const CaseResult& c) { return c.kernel + " " + sizeLabel(c); }

// A document's cases by kernel and size in O(1) (findLike scans them all: comparing two
// documents of 48k cases that way took 36 s). The first case of a kernel and size wins, as
// with findLike.
class CaseIndex {
 public:
  explicit CaseIndex(const RunDocument& doc) {
    m_cases.reserve(doc.cases.size());
    for (const CaseResult& c : doc.cases) m_cases.emplace(key(c), &c);
  }
  const CaseResult* find(const CaseResult& like) const {
    const auto it = m_cases.find(key(like));
    return it == m_cases.end() ? nullptr : it->second;
  }

 private:
  // Exactly what makes two cases the same (CaseSize's ==): the kernel, the family and each
  // axis's name and value, length-prefixed so that no two differ only in where text ends.
  static std::string key(const CaseResult& c) {
    std::string k;
    const auto add = [&k](const std::string& part) {
      k += std::to_string(part.size());
      k += ':';
      k += part;
    };
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
  std::unordered_map<std::string, const CaseResult*> m_cases;
};

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
  if (d.verdict == Verdict::kUncertain)
    r.reason += "; separate runs cannot decide this: measure both in one run with kwb ab";
  return r;
}

RunComparison compareRuns(const RunDocument& base, const RunDocument& now,
                          const CompareRule& rule) {
  RunComparison out;
  const std::string baseGpu = base.device ? base.device->name : "";
  const std::string newGpu = now.device ? now.device->name : "";
  if (baseGpu != newGpu || baseGpu.empty()) {
    out.crossDevice = true;
    out.deviceNote =
        "cross-device comparison: base " + (baseGpu.empty() ? "(no device)" : baseGpu) + ", new " +
        (newGpu.empty() ? "(no device)" : newGpu) + "; a change here may be the GPU, not the code";
  }
  const CaseIndex baseCases(base), newCases(now);
  for (const auto& c : now.cases) {
    const CaseResult* b = baseCases.find(c);
    if (!b) {
      out.onlyInNew.push_back(caseName(c));
    } else if (c.timed() && b->timed()) {
      out.cases.push_back(compareCase(*b, c, rule));
    } else {
      CaseComparison u;
      u.kernel = c.kernel;
      u.caseSize = c.size;
      u.size = sizeLabel(c);
      u.verdict = Verdict::kUncertain;
      u.reason = std::string("not timed in the ") + (c.timed() ? "base" : "new") + " run";
      out.cases.push_back(u);
    }
  }
  for (const auto& b : base.cases)
    if (!newCases.find(b)) out.onlyInBase.push_back(caseName(b));
  return out;
}

}  // namespace kwb
