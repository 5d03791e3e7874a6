// SPDX-License-Identifier: Apache-2.0
#include "kwb/throttle_filter.h"

#include <cmath>

#include "kwb/stats.h"

namespace kwb {

ThrottleFilter::ThrottleFilter(double warmupMhz, double fraction, std::size_t sustainedAfter)
    : m_warmup(warmupMhz),
      m_fraction(fraction),
      m_reference(warmupMhz),
      m_sustainedAfter(sustainedAfter) {}

bool ThrottleFilter::keep(double smClockMhz, std::size_t keptSoFar) {
  if (smClockMhz >= m_fraction * m_reference) return true;
  ++m_dropped;
  m_droppedClocks.push_back(smClockMhz);
  if (!m_rebased && m_droppedClocks.size() >= m_sustainedAfter &&
      keptSoFar < m_droppedClocks.size()) {
    m_reference = stats::median(m_droppedClocks);
    m_rebased = true;
  }
  return false;
}

std::string ThrottleFilter::note() const {
  if (!m_rebased) return {};
  return "the SM clock fell to " + std::to_string(std::lround(m_reference)) +
         " MHz under this load and stayed (" + std::to_string(std::lround(m_warmup)) +
         " MHz at warm-up): a limit the GPU sustains, so samples at that clock are kept";
}

}  // namespace kwb
