// SPDX-License-Identifier: Apache-2.0
#pragma once
// Number formatting shared by the engine's messages and the CLI's tables, and the reading of a
// percentage option.
#include <string>

namespace kwb {

// `v` with exactly `decimals` digits after the point ("%.*f").
std::string fixed(double v, int decimals);
// `v` with up to 9 significant digits ("%.9g"): every float, exactly as it reads back.
std::string exact(double v);
// `bytes` in whole MiB, rounded up ("%.0f" of the ceiling): memory a case needs or has free.
std::string mib(double bytes);

// "3%" and "3" both mean three percent (returned as 0.03); anything else is an InputError naming
// the option and the value.
double parsePercent(const std::string& text, const char* option);

}  // namespace kwb
