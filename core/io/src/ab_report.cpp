// SPDX-License-Identifier: Apache-2.0
#include "kwb/ab_report.h"

#include <algorithm>
#include <cmath>

#include "json_read.h"
#include "kwb/cupti_ratio.h"
#include "kwb/error.h"
#include "kwb/family.h"
#include "kwb/format.h"
#include "kwb/results_json.h"

namespace kwb {

AbResult abResult(const CaseResult& a, const CaseResult& b, const PairedRatio& paired,
                  double sameWithin) {
  AbResult r;
  r.size = sizeLabel(b);
  r.aMs = a.summary.median;
  r.bMs = b.summary.median;
  r.pairs = paired.pairs;
  r.rounds = paired.replicates;
  r.cuptiRatio = cuptiRatio(a, b);
  if (paired.pairs == 0 || !(paired.pct > 0) || !(paired.ci95.low > 0)) {
    r.reason = paired.pairs == 0 ? "no paired samples (a side was not timed)"
                                 : "no usable ratio of paired samples";
    return r;
  }
  // pct is A's time / B's time in %; its reciprocal is B's time / A's time.
  r.ratio = 100.0 / paired.pct;
  r.ci95 = {100.0 / paired.ci95.high, 100.0 / paired.ci95.low};
  const Decision d = decide(r.ratio, r.ci95, sameWithin);
  r.verdict = d.verdict;
  r.reason = d.reason + cuptiNote(r.ratio, r.cuptiRatio, "B / A");
  return r;
}

AbResult combineProcessPairs(const std::vector<AbResult>& parts, double sameWithin) {
  if (parts.size() == 1) return parts.front();
  AbResult r = parts.front();
  r.processPairs.clear();
  double logSum = 0, aSum = 0, bSum = 0, cuptiLogSum = 0;
  bool cupti = true;
  r.pairs = 0;
  r.rounds = 0;
  std::string each;
  for (const AbResult& p : parts) {
    if (!(p.ratio > 0)) {  // a side failed or was not timed in this pair: nothing to combine
      AbResult failed = p;
      failed.processPairs.clear();
      failed.verdict = Verdict::kUncertain;
      return failed;
    }
    logSum += std::log(p.ratio);
    cupti = cupti && p.cuptiRatio.has_value();
    if (p.cuptiRatio) cuptiLogSum += std::log(*p.cuptiRatio);
    aSum += p.aMs;
    bSum += p.bMs;
    r.pairs += p.pairs;
    r.rounds += p.rounds;
    r.ci95.low = std::min(r.ci95.low, p.ci95.low);
    r.ci95.high = std::max(r.ci95.high, p.ci95.high);
    r.processPairs.push_back({p.ratio, p.ci95});
    each += (each.empty() ? "" : ", ") + fixed(p.ratio, 4) + " (" + fixed(p.ci95.low, 4) + " .. " +
            fixed(p.ci95.high, 4) + ")";
  }
  const double n = double(parts.size());
  r.ratio = std::exp(logSum / n);
  r.cuptiRatio.reset();
  if (cupti) r.cuptiRatio = std::exp(cuptiLogSum / n);
  r.aMs = aSum / n;
  r.bMs = bSum / n;
  const Decision d = decide(r.ratio, r.ci95, sameWithin);
  r.verdict = d.verdict;
  r.reason =
      d.reason + "; the process pairs read " + each + cuptiNote(r.ratio, r.cuptiRatio, "B / A");
  return r;
}

namespace {
Verdict parseVerdict(const std::string& s) {
  for (Verdict v : {Verdict::kFaster, Verdict::kSlower, Verdict::kSame, Verdict::kUncertain})
    if (toString(v) == s) return v;
  throw InputError("unknown verdict '" + s + "'");
}

// A 95% CI as the report writes it: [low, high].
stats::Interval intervalFromJson(const nlohmann::json& j) {
  return {j.at(0).get<double>(), j.at(1).get<double>()};
}

nlohmann::json processPairsJson(const AbResult& x) {
  nlohmann::json out = nlohmann::json::array();
  for (const AbResult::PairPart& p : x.processPairs)
    out.push_back({{"ratio", p.ratio}, {"ci95", {p.ci95.low, p.ci95.high}}});
  return out;
}
}  // namespace

std::string toJsonText(const AbReport& r) {
  nlohmann::json results = nlohmann::json::array();
  for (const AbResult& x : r.results)
    results.push_back(
        {{"size", x.size},
         {"aMs", x.aMs},
         {"bMs", x.bMs},
         {"ratio", x.ratio},
         {"ci95", {x.ci95.low, x.ci95.high}},
         {"pairs", x.pairs},
         {"rounds", x.rounds},
         {"verdict", toString(x.verdict)},
         {"reason", x.reason},
         {"cuptiRatio", x.cuptiRatio ? nlohmann::json(*x.cuptiRatio) : nlohmann::json(nullptr)},
         {"processPairs", processPairsJson(x)}});
  nlohmann::json j = {{"kind", "kwb-ab"},
                      {"version", AbReport::kVersion},
                      {"a", r.a},
                      {"b", r.b},
                      {"aLabel", r.aLabel},
                      {"bLabel", r.bLabel},
                      {"sameWithin", r.sameWithin},
                      {"device", r.device ? nlohmann::json(*r.device) : nlohmann::json(nullptr)},
                      {"results", results},
                      {"document", nlohmann::json::parse(toJsonText(r.document, -1))}};
  return j.dump(2) + "\n";
}

AbReport parseAbReport(std::string_view text, std::string_view source) {
  const std::string src(source);
  nlohmann::json j;
  try {
    j = jsonread::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError("cannot read A/B report '" + src + "': not valid JSON (" +
                     jsonread::plain(e.what()) + ")");
  } catch (const InputError& e) {  // nested too deep, or a duplicate key
    throw InputError("cannot read A/B report '" + src + "': " + e.what());
  }
  try {
    if (!j.is_object() || j.value("kind", std::string()) != "kwb-ab")
      throw InputError("not a kwb ab report (no \"kind\": \"kwb-ab\")");
    if (j.at("version").get<int>() != AbReport::kVersion)
      throw InputError("version " + j.at("version").dump() + " is not supported");
    AbReport r;
    r.a = j.at("a").get<std::string>();
    r.b = j.at("b").get<std::string>();
    r.aLabel = j.value("aLabel", r.a);
    r.bLabel = j.value("bLabel", r.b);
    r.sameWithin = j.at("sameWithin").get<double>();
    if (!j.at("device").is_null()) r.device = j.at("device").get<DeviceInfo>();
    for (const auto& x : j.at("results")) {
      AbResult a;
      a.size = x.at("size").get<std::string>();
      a.aMs = x.at("aMs").get<double>();
      a.bMs = x.at("bMs").get<double>();
      a.ratio = x.at("ratio").get<double>();
      a.ci95 = intervalFromJson(x.at("ci95"));
      a.pairs = x.at("pairs").get<int>();
      a.rounds = x.at("rounds").get<int>();
      a.verdict = parseVerdict(x.at("verdict").get<std::string>());
      a.reason = x.at("reason").get<std::string>();
      if (x.contains("cuptiRatio") && !x.at("cuptiRatio").is_null())  // since 2026-12
        a.cuptiRatio = x.at("cuptiRatio").get<double>();
      for (const auto& p : x.value("processPairs", nlohmann::json::array()))  // since 2026-12
        a.processPairs.push_back({p.at("ratio").get<double>(), intervalFromJson(p.at("ci95"))});
      r.results.push_back(a);
    }
    r.document = parseDocument(j.at("document").dump(), source);
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw InputError("cannot read A/B report '" + src + "': " + jsonread::plain(e.what()));
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (what.rfind("cannot read", 0) == 0) throw;
    throw InputError("cannot read A/B report '" + src + "': " + what);
  }
}

AbReport readAbReport(const std::filesystem::path& path) {
  return parseAbReport(readTextFile(path, "A/B report", kMaxDocumentBytes), path.string());
}

}  // namespace kwb
