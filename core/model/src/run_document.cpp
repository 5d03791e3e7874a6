// SPDX-License-Identifier: Apache-2.0
#include "kwb/run_document.h"

#include <algorithm>

#include "kwb/error.h"

namespace kwb {

namespace {
constexpr CaseStatus kAllStatuses[] = {
    CaseStatus::kPass,  CaseStatus::kFail,    CaseStatus::kFallback, CaseStatus::kInvalid,
    CaseStatus::kError, CaseStatus::kCrashed, CaseStatus::kSkipped};
}

std::string_view toString(CaseStatus s) {
  switch (s) {
    case CaseStatus::kPass:
      return "pass";
    case CaseStatus::kFail:
      return "fail";
    case CaseStatus::kFallback:
      return "fallback";
    case CaseStatus::kInvalid:
      return "invalid";
    case CaseStatus::kError:
      return "error";
    case CaseStatus::kCrashed:
      return "crashed";
    case CaseStatus::kSkipped:
      return "skipped";
  }
  return "?";
}

CaseStatus parseCaseStatus(std::string_view text) {
  for (CaseStatus s : kAllStatuses)
    if (toString(s) == text) return s;
  throw InputError("unknown case status '" + std::string(text) +
                   "' (known: pass, fail, fallback, invalid, error, crashed, skipped)");
}

const PairedRatio* CaseResult::pairedWith(std::string_view reference) const {
  for (const auto& p : paired)
    if (p.reference == reference) return &p;
  return nullptr;
}

std::vector<DeviceInfo> RunDocument::deviceList() const {
  if (!devices.empty()) return devices;
  if (device) return {*device};
  return {};
}

const DeviceInfo* RunDocument::deviceOf(const CaseResult& c) const {
  if (c.device < 0) return nullptr;
  if (!devices.empty())
    return std::size_t(c.device) < devices.size() ? &devices[std::size_t(c.device)] : nullptr;
  return c.device == 0 && device ? &*device : nullptr;
}

std::string RunDocument::deviceModel(const CaseResult& c) const {
  const DeviceInfo* d = deviceOf(c);
  return d ? d->name : std::string();
}

const CaseResult* RunDocument::find(std::string_view kernel, const CaseSize& size) const {
  for (const auto& c : cases)
    if (c.kernel == kernel && c.size == size) return &c;
  return nullptr;
}

const FamilyInfo* RunDocument::family(std::string_view id) const {
  for (const FamilyInfo& f : families)
    if (f.id == id) return &f;
  return legacyFamilyInfo(id);
}

void listMissingFamilies(RunDocument& doc) {
  for (const CaseResult& c : doc.cases) {
    const bool listed = std::any_of(doc.families.begin(), doc.families.end(),
                                    [&](const FamilyInfo& f) { return f.id == c.problem(); });
    if (!listed)
      if (const FamilyInfo* f = legacyFamilyInfo(c.problem())) doc.families.push_back(*f);
  }
}

bool allPassed(const RunDocument& doc) {
  const auto good = [](const CaseResult& c) { return isGood(c.status); };
  if (doc.knownAnswer.ran && !doc.knownAnswer.passed) return false;
  if (!std::all_of(doc.cases.begin(), doc.cases.end(), good)) return false;
  if (doc.tuning && !std::all_of(doc.tuning->results.begin(), doc.tuning->results.end(), good))
    return false;
  return !doc.conformance || doc.conformance->passed();
}

}  // namespace kwb
