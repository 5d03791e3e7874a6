// SPDX-License-Identifier: Apache-2.0
#pragma once
// Number formatting shared by the engine's messages and the CLI's tables.
#include <string>

namespace kwb {

// `v` with exactly `decimals` digits after the point ("%.*f").
std::string fixed(double v, int decimals);
// `v` with up to 9 significant digits ("%.9g"): every float, exactly as it reads back.
std::string exact(double v);
// `bytes` in whole MiB, rounded up ("%.0f" of the ceiling): memory a case needs or has free.
std::string mib(double bytes);

}  // namespace kwb
