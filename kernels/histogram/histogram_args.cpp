// SPDX-License-Identifier: Apache-2.0
#include "histogram/histogram_args.h"

#include <string>

#include "kwb/error.h"

namespace kwb::kernels {

std::string_view toString(SampleType t) { return t == SampleType::kU8 ? "u8" : "f32"; }

SampleType parseSampleType(std::string_view text) {
  if (text == "u8") return SampleType::kU8;
  if (text == "f32") return SampleType::kF32;
  throw InputError("unknown histogram sample type '" + std::string(text) + "' (u8 or f32)");
}

std::string_view toString(Distribution d) {
  switch (d) {
    case Distribution::kZipf:
      return "zipf";
    case Distribution::kOneBin:
      return "one-bin";
    case Distribution::kUniform:
      break;
  }
  return "uniform";
}

Distribution parseDistribution(std::string_view text) {
  for (const Distribution d : {Distribution::kUniform, Distribution::kZipf, Distribution::kOneBin})
    if (text == toString(d)) return d;
  throw InputError("unknown histogram distribution '" + std::string(text) +
                   "' (uniform, zipf or one-bin)");
}

KernelDescriptor histogramDescriptor(const char* id, const char* name, bool reference,
                                     const char* what, HistogramLauncher launcher) {
  KernelDescriptor d;
  d.id = id;
  d.displayName = name;
  d.family = reference ? "cub" : "histogram";
  d.problem = "histogram";
  d.reference = reference;
  d.description = what;
  d.launcher = launcher;
  return d;
}

}  // namespace kwb::kernels
