// SPDX-License-Identifier: Apache-2.0
#include <cmath>
#include <exception>
#include <future>
#include <iostream>

#include "commands.h"
#include "kwb/error.h"
#include "kwb/format.h"
#include "kwb/results.h"
#include "kwb/run_compare.h"
#include "output.h"
#include "run_options.h"

namespace kwb::cli {
namespace {

struct CompareOpts {
  std::string base, now;
  std::string failOnSlower;  // "3%" or "3": percent
  double sameWithin = 2.0;   // percent
};

std::string us(double ms) { return fixed(ms * 1e3, 2); }

std::string compareTable(const RunComparison& r) {
  // The change is in time (negative = faster), with the speedup beside it: the convention of
  // the GUI's Baseline tab and the report too (kwb/verdict_rule.h, speedupText).
  std::vector<std::vector<std::string>> rows{{"kernel", "shape", "base us", "new us", "change",
                                              "speedup", "change 95% CI", "base 95% us",
                                              "new 95% us", "verdict"}};
  // Documents of several GPU models (merged shards) name the model a case was compared on.
  bool severalModels = false;
  for (const auto& c : r.cases) severalModels = severalModels || c.device != r.cases[0].device;
  for (const auto& c : r.cases)
    rows.push_back({c.kernel, severalModels ? c.size + " on " + c.device : c.size, us(c.baseMs),
                    us(c.newMs), signedPercent(c.change),
                    c.baseMs > 0 && c.newMs > 0 ? speedupText(c.change) : "",
                    c.changeCi.high > c.changeCi.low
                        ? signedPercent(c.changeCi.low) + " .. " + signedPercent(c.changeCi.high)
                        : "",
                    us(c.baseCi.low) + " .. " + us(c.baseCi.high),
                    us(c.newCi.low) + " .. " + us(c.newCi.high), std::string(toString(c.verdict))});
  return formatTable(rows);
}

int compareCommand(const CompareOpts& o) {
  CompareRule rule;
  rule.sameWithin = o.sameWithin / 100.0;
  std::optional<double> failAbove;
  if (!o.failOnSlower.empty()) failAbove = parsePercent(o.failOnSlower, "--fail-on-slower");
  // The two documents are read at once (a 48k-case document takes about a second to parse);
  // the base's error, when both are bad, is the one reported.
  auto baseRead = std::async(std::launch::async, [&] { return readDocument(o.base); });
  RunDocument now;
  std::exception_ptr nowError;
  try {
    now = readDocument(o.now);
  } catch (...) {
    nowError = std::current_exception();
  }
  const RunDocument base = baseRead.get();
  if (nowError) std::rethrow_exception(nowError);
  const RunComparison r = compareRuns(base, now, rule);

  std::cout << "base: " << o.base << " (" << timerLabel(base.settings.timer) << ", "
            << base.timestamp << ")\n"
            << "new:  " << o.now << " (" << timerLabel(now.settings.timer) << ", " << now.timestamp
            << ")\n";
  if (r.crossDevice) std::cout << "warning: " << r.deviceNote << '\n';
  if (base.settings.timer != now.settings.timer)
    std::cout << "warning: the two runs used different timers; their cases are UNCERTAIN\n";
  std::cout << compareTable(r);
  for (const auto& c : r.cases)
    if (c.verdict == Verdict::kUncertain)
      std::cout << "  " << c.kernel << " " << c.size << ": " << c.reason << '\n';
  for (const auto& n : r.onlyInBase) std::cout << "only in base: " << n << '\n';
  for (const auto& n : r.onlyInNew) std::cout << "only in new: " << n << '\n';
  for (const auto& n : r.otherDevice) std::cout << "not compared: " << n << '\n';
  std::cout << r.count(Verdict::kFaster) << " faster, " << r.count(Verdict::kSlower) << " slower, "
            << r.count(Verdict::kSame) << " same, " << r.count(Verdict::kUncertain)
            << " uncertain\n";
  if (!failAbove) return kExitOk;
  int regressions = 0;
  for (const auto& c : r.cases)
    if (c.verdict == Verdict::kSlower && c.change > *failAbove) {
      ++regressions;
      std::cout << "REGRESSION: " << c.kernel << " " << c.size << " is " << fixed(100 * c.change, 1)
                << "% slower (limit " << fixed(100 * *failAbove, 1) << "%)\n";
    }
  return regressions > 0 ? kExitCaseFailed : kExitOk;
}

}  // namespace

void addCompareCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand(
      "compare", "Compare two results documents case by case: FASTER, SLOWER, SAME or UNCERTAIN");
  auto o = std::make_shared<CompareOpts>();
  sub->add_option("base", o->base, "The baseline results .json")->required();
  sub->add_option("new", o->now, "The new results .json")->required();
  sub->add_option("--fail-on-slower", o->failOnSlower,
                  "Exit 1 when a case is SLOWER by more than this, e.g. 3%");
  sub->add_option("--same-within", o->sameWithin,
                  "Changes below this many percent count as SAME when the medians are known that "
                  "well (default 2)")
      ->check(finiteRange(0.0, 100.0));
  sub->callback([o, &exitCode] { exitCode = compareCommand(*o); });
}

}  // namespace kwb::cli
