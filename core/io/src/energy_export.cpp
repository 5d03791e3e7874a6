// SPDX-License-Identifier: Apache-2.0
#include "energy_export.h"

#include <algorithm>
#include <cstdio>

#include "kwb/family.h"

namespace kwb {
namespace {

std::string num(double v, const char* fmt) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// Blank where there is no reading of it (0: not read).
std::string numOr(double v, const char* fmt) { return v > 0 ? num(v, fmt) : ""; }

}  // namespace

bool anyEnergy(const RunDocument& doc) {
  return doc.settings.energySeconds > 0 ||
         std::any_of(doc.cases.begin(), doc.cases.end(),
                     [](const CaseResult& c) { return c.energy.has_value(); });
}

std::string energyCsvHeader() {
  return ",energy_work_per_j,energy_unit,energy_uncertainty_pct,energy_joules_per_launch,"
         "energy_power_w,energy_sampled_power_w,energy_idle_power_w,energy_power_limit_w,"
         "energy_window_s,energy_launches,energy_counter_step_j,energy_sm_clock_mhz_min,"
         "energy_sm_clock_mhz_max,energy_note";
}

std::string energyCsvFields(const CaseResult& c, std::string (*csvField)(const std::string&)) {
  if (!c.energy) return std::string(14, ',');
  const EnergyReading& e = *c.energy;
  if (!e.measured()) return std::string(13, ',') + csvField(e.unavailable);
  return ',' + numOr(e.workPerJoule, "%.6g") + ',' + e.workUnit + ',' +
         num(e.uncertaintyPct, "%.3g") + ',' + num(e.joulesPerLaunch, "%.6g") + ',' +
         num(e.powerW, "%.1f") + ',' + numOr(e.sampledPowerW, "%.1f") + ',' +
         numOr(e.idlePowerW, "%.1f") + ',' + numOr(e.powerLimitW, "%.1f") + ',' +
         num(e.windowS, "%.3f") + ',' + std::to_string(e.launches) + ',' +
         num(e.counterStepJ, "%.3g") + ',' + numOr(e.smClockMhzMin, "%.0f") + ',' +
         numOr(e.smClockMhzMax, "%.0f") + ',';
}

void energyMarkdown(std::ostringstream& os, const RunDocument& doc) {
  os << "\n## Energy\n\nEach case alone for at least " << num(doc.settings.energySeconds, "%.1f")
     << " s between two readings of the board's energy counter (whole board, idle not "
        "subtracted; ± is the counter's quantisation bound).\n\n"
     << "| kernel | size | work per J | ± | J per launch | W | idle W | limit W | window s | "
        "launches | SM MHz | note |\n"
     << "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
  for (const CaseResult& c : doc.cases) {
    if (!c.energy) continue;
    const EnergyReading& e = *c.energy;
    os << "| " << c.kernel << " | " << sizeLabel(c) << " | ";
    if (e.measured())
      os << (e.workPerJoule > 0 ? num(e.workPerJoule, "%.2f") + " " + e.workUnit : "") << " | "
         << num(e.uncertaintyPct, "%.2f") << "% | " << num(e.joulesPerLaunch, "%.4g") << " | "
         << num(e.powerW, "%.0f") << " | " << numOr(e.idlePowerW, "%.0f") << " | "
         << numOr(e.powerLimitW, "%.0f") << " | " << num(e.windowS, "%.2f") << " | " << e.launches
         << " | " << numOr(e.smClockMhzMin, "%.0f") << "–" << numOr(e.smClockMhzMax, "%.0f")
         << " |  |\n";
    else
      os << " |  |  |  |  |  |  |  |  | " << e.unavailable << " |\n";
  }
}

}  // namespace kwb
