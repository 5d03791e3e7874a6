#include "kwb/run_compare.h"

#include <algorithm>
#include <cmath>

#include "kwb/family.h"

namespace kwb {
namespace {

std::string percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, std::abs(x) < 0.01 ? "%+.2f%%" : "%+.1f%%", 100.0 * x);
  return buf;
}

double halfWidth(const stats::Interval& ci, double median) {
  return median > 0 ? (ci.high - ci.low) / 2.0 / median : INFINITY;
}

std::string caseName(const CaseResult& c) { return c.kernel + " " + sizeLabel(c); }

}  // namespace

std::string_view toString(Verdict v) {
  switch (v) {
    case Verdict::kFaster:
      return "FASTER";
    case Verdict::kSlower:
      return "SLOWER";
    case Verdict::kSame:
      return "SAME";
    case Verdict::kUncertain:
      return "UNCERTAIN";
  }
  return "?";
}

int RunComparison::count(Verdict v) const {
  return int(std::count_if(cases.begin(), cases.end(),
                           [v](const CaseComparison& c) { return c.verdict == v; }));
}

CaseComparison compareCase(const CaseResult& base, const CaseResult& now, const CompareRule& rule) {
  CaseComparison r;
  r.kernel = now.kernel;
  r.shape = now.shape;
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
  const bool disjoint = r.newCi.low > r.baseCi.high || r.newCi.high < r.baseCi.low;
  const double noise = std::max(halfWidth(r.baseCi, r.baseMs), halfWidth(r.newCi, r.newMs));
  if (std::abs(r.change) <= rule.sameWithin) {
    if (noise <= rule.sameWithin) {
      r.verdict = Verdict::kSame;
      r.reason = "change " + percent(r.change) + " within " + percent(rule.sameWithin).substr(1) +
                 ", both medians known within " + percent(noise).substr(1);
    } else {
      r.verdict = Verdict::kUncertain;
      r.reason = "change " + percent(r.change) + " is small, but a median is only known within " +
                 percent(noise).substr(1);
    }
  } else if (disjoint) {
    r.verdict = r.change > 0 ? Verdict::kSlower : Verdict::kFaster;
    r.reason = "change " + percent(r.change) + ", the medians' 95% CIs are disjoint";
  } else {
    r.verdict = Verdict::kUncertain;
    r.reason = "change " + percent(r.change) + ", but the medians' 95% CIs overlap";
  }
  return r;
}

RunComparison compareRuns(const RunDocument& base, const RunDocument& now,
                          const CompareRule& rule) {
  RunComparison out;
  for (const auto& c : now.cases) {
    const CaseResult* b = base.findLike(c);
    if (!b) {
      out.onlyInNew.push_back(caseName(c));
    } else if (c.timed() && b->timed()) {
      out.cases.push_back(compareCase(*b, c, rule));
    } else {
      CaseComparison u;
      u.kernel = c.kernel;
      u.shape = c.shape;
      u.size = sizeLabel(c);
      u.verdict = Verdict::kUncertain;
      u.reason = std::string("not timed in the ") + (c.timed() ? "base" : "new") + " run";
      out.cases.push_back(u);
    }
  }
  for (const auto& b : base.cases)
    if (!now.findLike(b)) out.onlyInBase.push_back(caseName(b));
  return out;
}

}  // namespace kwb
