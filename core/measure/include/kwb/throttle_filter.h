// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which timing samples a throttling GPU invalidates (docs/MEASUREMENT.md, "Throttled samples").
#include <cstddef>
#include <string>
#include <vector>

namespace kwb {

// A sample taken while the SM clock is below `fraction` of the warm-up clock is dropped and
// counted. When the clock stays down under the case's own load (a power or thermal limit the
// GPU sustains, as large tensor-core GEMMs reach) — `sustainedAfter` drops while fewer samples
// were kept — the reference becomes the median clock of those drops, once, and note() says so.
class ThrottleFilter {
 public:
  ThrottleFilter(double warmupMhz, double fraction, std::size_t sustainedAfter);
  // Whether to keep a sample taken at `smClockMhz`, given how many were kept so far.
  bool keep(double smClockMhz, std::size_t keptSoFar);
  int dropped() const { return m_dropped; }
  double referenceMhz() const { return m_reference; }
  bool rebased() const { return m_rebased; }
  std::string note() const;

 private:
  double m_warmup, m_fraction, m_reference;
  std::size_t m_sustainedAfter;
  std::vector<double> m_droppedClocks;
  int m_dropped = 0;
  bool m_rebased = false;
};

}  // namespace kwb
