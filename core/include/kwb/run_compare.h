#pragma once
// Comparing two results documents case by case: is the new run faster, slower, the same, or
// can the samples not tell? The verdict reads the medians' 95% confidence intervals, not the
// ratio of medians alone (nvbench's compare script classifies the same way).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/results.h"

namespace kwb {

enum class Verdict { kFaster, kSlower, kSame, kUncertain };
std::string_view toString(Verdict v);  // "FASTER", "SLOWER", "SAME", "UNCERTAIN"

struct CompareRule {
  // Changes of the median time smaller than this (relative) are SAME when both medians are
  // known this well; larger changes must also have disjoint CIs to be FASTER or SLOWER.
  // 2%: three spec-benchmark runs on an H100 put 87% of case medians within 1% of each
  // other and all within 2.7% (docs/MEASUREMENT.md); within-run CIs do not see that spread.
  double sameWithin = 0.02;
};

struct CaseComparison {
  std::string kernel;
  Shape shape;
  std::string size = {};         // sizeLabel: the shape, or "2^20 f32" for a 1-D case
  double baseMs = 0, newMs = 0;  // medians per launch
  stats::Interval baseCi, newCi;
  double change = 0;  // newMs / baseMs - 1: positive is slower
  Verdict verdict = Verdict::kUncertain;
  std::string reason;  // one sentence: why this verdict
};

struct RunComparison {
  std::vector<CaseComparison> cases;               // timed in both, in the new document's order
  std::vector<std::string> onlyInBase, onlyInNew;  // "kernel shape", untimed ones included
  int count(Verdict v) const;
};

// Throws nothing; cases timed by different timers are UNCERTAIN with the reason.
CaseComparison compareCase(const CaseResult& base, const CaseResult& now, const CompareRule& rule);
RunComparison compareRuns(const RunDocument& base, const RunDocument& now,
                          const CompareRule& rule = {});

}  // namespace kwb
