#pragma once
// Number formatting shared by the engine's messages and the CLI's tables.
#include <string>

namespace kwb {

// `v` with exactly `decimals` digits after the point ("%.*f").
std::string fixed(double v, int decimals);

}  // namespace kwb
