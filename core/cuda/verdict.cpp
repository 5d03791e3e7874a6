// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/verdict.h"

#include "kwb/family.h"
#include "kwb/format.h"

#include <cstdio>
#include <string>

namespace kwb::cuda {
namespace {

// Where a mismatch is: "row 3, col 4" / "(3, 4)" in a matrix, "index 7" / "7" in a 1-D output.
std::string firstAt(const Mismatch& m, bool oneDimensional) {
  std::string s = oneDimensional ? "index " : "row ";
  if (!oneDimensional) s.append(std::to_string(m.row)).append(", col ");
  return s.append(std::to_string(m.col));
}
std::string thenAt(const Mismatch& m, bool oneDimensional) {
  if (oneDimensional) return std::to_string(m.col);
  std::string s = "(";
  return s.append(std::to_string(m.row)).append(", ").append(std::to_string(m.col)).append(")");
}

// The mismatches of one run against the reference; `run` names it ("alpha=1, beta=0"), or is
// empty where the case has one run.
std::string describe(const CompareReport& r, const std::string& reference, const std::string& run,
                     bool oneDimensional) {
  std::string s = std::to_string(r.mismatches) + " of " + std::to_string(r.elements) +
                  " elements differ from " + reference + (run.empty() ? "" : " at " + run);
  if (r.nonFinite > 0) s += " (" + std::to_string(r.nonFinite) + " NaN/Inf)";
  if (r.firstMismatch)
    s += "; first at " + firstAt(*r.firstMismatch, oneDimensional) + ": got " +
         exact(r.firstMismatch->got) + ", expected " + exact(r.firstMismatch->expected);
  for (std::size_t i = 1; i < r.firstMismatches.size(); ++i) {
    const Mismatch& m = r.firstMismatches[i];
    s += std::string(i == 1 ? "; then" : ",") + " at " + thenAt(m, oneDimensional) + ": " +
         exact(m.got) + " vs " + exact(m.expected);
  }
  return s;
}

}  // namespace

void applyVerdict(CaseResult& c) {
  if (!c.verification) {
    c.status = CaseStatus::kFail;
    c.message = "not verified";
    return;
  }
  const Verification& v = *c.verification;
  if (!v.negativeControlRejected) {
    c.status = CaseStatus::kInvalid;
    c.message = "comparator accepted a mangled reference";
    return;
  }
  // A GEMM case has two runs (alpha = 1, beta = 0; then alpha and beta set); a 1-D case one.
  const bool oneD = isOneDimensional(c);
  std::string why;
  auto add = [&why](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  if (v.unwritten > 0)
    add(std::to_string(v.unwritten) +
        (oneD ? " output elements left unwritten (still the 0xAA canary)"
              : " elements of C left unwritten (still the 0xAA canary) after alpha=1, beta=0"));
  if (!v.compare.passed())
    add(describe(v.compare, v.reference, oneD ? "" : "alpha=1, beta=0", oneD));
  // Elements left unwritten keep the NaNs too: the rule is named where none was left.
  if (v.nanFromOutput && *v.nanFromOutput > 0 && v.unwritten == 0)
    add(oneD ? "read its output before writing it: " + std::to_string(*v.nanFromOutput) +
                   " output elements came out NaN from an output filled with quiet NaNs"
             : "read C although beta = 0: " + std::to_string(*v.nanFromOutput) +
                   " elements of C came out NaN from a C filled with quiet NaNs at alpha=1, "
                   "beta=0");
  if (!oneD && !v.alphaBeta)
    add("the alpha/beta run is missing");
  else if (!oneD && !v.alphaBeta->passed())
    add(describe(*v.alphaBeta, v.reference,
                 "alpha=" + exact(kCheckAlpha) + ", beta=" + exact(kCheckBeta), false));
  if (v.timedOutput && !v.timedOutput->passed())
    add("the last timed launch's output: " + describe(*v.timedOutput, v.reference, "", oneD));
  if (!c.suspicious.empty()) add("suspicious: " + c.suspicious);
  if (!why.empty()) {
    c.status = CaseStatus::kFail;
    c.message = why;
    return;
  }
  c.status = c.fallback ? CaseStatus::kFallback : CaseStatus::kPass;
  c.message = c.fallback ? "passed via the FP32 fallback " + c.ranKernel : "";
}

}  // namespace kwb::cuda
