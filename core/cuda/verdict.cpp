#include "kwb/cuda/verdict.h"

#include <cstdio>
#include <string>

namespace kwb::cuda {
namespace {

std::string num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string describe(const CompareReport& r, const std::string& reference, const char* run) {
  std::string s = std::to_string(r.mismatches) + " of " + std::to_string(r.elements) +
                  " elements differ from " + reference + " at " + run;
  if (r.nonFinite > 0) s += " (" + std::to_string(r.nonFinite) + " NaN/Inf)";
  if (r.firstMismatch)
    s += "; first at row " + std::to_string(r.firstMismatch->row) + ", col " +
         std::to_string(r.firstMismatch->col) + ": got " + num(r.firstMismatch->got) +
         ", expected " + num(r.firstMismatch->expected);
  for (std::size_t i = 1; i < r.firstMismatches.size(); ++i) {
    const Mismatch& m = r.firstMismatches[i];
    s += std::string(i == 1 ? "; then" : ",") + " at (" + std::to_string(m.row) + ", " +
         std::to_string(m.col) + "): " + num(m.got) + " vs " + num(m.expected);
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
  std::string why;
  auto add = [&why](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  if (v.unwritten > 0)
    add(std::to_string(v.unwritten) +
        " elements of C left unwritten (still the 0xAA canary) after alpha=1, beta=0");
  if (!v.compare.passed()) add(describe(v.compare, v.reference, "alpha=1, beta=0"));
  if (!v.alphaBeta)
    add("the alpha/beta run is missing");
  else if (!v.alphaBeta->passed())
    add(describe(*v.alphaBeta, v.reference,
                 ("alpha=" + num(kCheckAlpha) + ", beta=" + num(kCheckBeta)).c_str()));
  if (!why.empty()) {
    c.status = CaseStatus::kFail;
    c.message = why;
    return;
  }
  c.status = c.fallback ? CaseStatus::kFallback : CaseStatus::kPass;
  c.message = c.fallback ? "passed via the FP32 fallback " + c.ranKernel : "";
}

}  // namespace kwb::cuda
