// SPDX-License-Identifier: Apache-2.0
#include "kwb/format.h"

#include <cmath>
#include <cstdio>

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

}  // namespace kwb
