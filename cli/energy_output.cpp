// SPDX-License-Identifier: Apache-2.0
#include "energy_output.h"

#include "kwb/family.h"
#include "kwb/format.h"

namespace kwb::cli {

namespace {

bool asked(const RunDocument& doc) { return doc.settings.energySeconds > 0; }

std::string perJoule(const CaseResult& c) {
  if (!c.energy || !c.energy->measured() || !(c.energy->workPerJoule > 0)) return "";
  return fixed(c.energy->workPerJoule, 2) + " ±" + fixed(c.energy->uncertaintyPct, 1) + "%";
}

std::string watts(const CaseResult& c) {
  return c.energy && c.energy->measured() ? fixed(c.energy->powerW, 0) : "";
}

}  // namespace

void appendEnergyColumns(std::vector<std::vector<std::string>>& rows, const RunDocument& doc,
                         const std::function<bool(const CaseResult&)>& shown) {
  if (!asked(doc) || rows.empty()) return;
  std::string unit;
  std::size_t row = 1;
  for (const CaseResult& c : doc.cases) {
    if (!shown(c)) continue;
    if (unit.empty() && c.energy && !c.energy->workUnit.empty()) unit = c.energy->workUnit;
    if (row < rows.size()) {
      auto& r = rows[row++];
      r.insert(r.end() - 1, {perJoule(c), watts(c)});  // before the status column
    }
  }
  auto& head = rows.front();
  head.insert(head.end() - 1, {unit.empty() ? "work/J" : unit, "W"});
}

std::string energyNotes(const RunDocument& doc, bool listMeasured) {
  if (!asked(doc)) return "";
  std::string s = "energy: each case alone for at least " + fixed(doc.settings.energySeconds, 1) +
                  " s between two readings of the board's energy counter; whole-board power, "
                  "idle not subtracted; ± is the counter's quantisation bound\n";
  for (const CaseResult& c : doc.cases) {
    if (!c.timed() || !isGood(c.status)) continue;
    const std::string name = "  " + c.kernel + " " + sizeLabel(c) + ": ";
    if (c.energy && c.energy->measured()) {
      if (listMeasured)
        s += name + perJoule(c) + " " + c.energy->workUnit + ", " + watts(c) + " W, " +
             fixed(c.energy->joulesPerLaunch * 1e3, 3) + " mJ per launch\n";
    } else {
      s += name + "no energy figure: " +
           (c.energy ? c.energy->unavailable : std::string("no energy window ran")) + "\n";
    }
  }
  return s;
}

}  // namespace kwb::cli
