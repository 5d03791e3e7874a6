// SPDX-License-Identifier: Apache-2.0
#include "kwb/format.h"

#include <cmath>
#include <cstdio>
#include <exception>

#include "kwb/error.h"

namespace kwb {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string exact(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string mib(double bytes) { return fixed(std::ceil(bytes / double(1 << 20)), 0); }

double parsePercent(const std::string& text, const char* option) {
  std::string s = text;
  if (!s.empty() && s.back() == '%') s.pop_back();
  std::size_t used = 0;
  double v = NAN;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || s.empty() || !std::isfinite(v) || v < 0 || v > 1000)
    throw InputError(std::string(option) + " '" + text +
                     "': expected a percentage from 0 to 1000, e.g. 3%");
  return v / 100.0;
}

}  // namespace kwb
