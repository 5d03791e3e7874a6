// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a profiled case sits on the roofline: its declared work over the DRAM bytes Nsight
// Compute measured, beside the fewest bytes the problem must move (docs/GUI.md, "The case
// dialog"). Data only: the case dialog's Nsight Compute panel draws it.
#include <QString>
#include <optional>

#include "kwb/ncu_profile.h"
#include "kwb/results.h"

namespace kwb::gui {

struct ProfileRoof {
  double flops = 0;          // per launch of the case (0: the family declares none)
  double declaredBytes = 0;  // the fewest bytes it must move
  double measuredBytes = 0;  // DRAM bytes ncu measured per launch of the case
  double gflops = 0;         // achieved: the timed run's median, else ncu's time
  double peakGflops = 0;     // the compute roof of the case's precision
  QString peakName;          // "FP32", "FP16 tensor", "BF16 tensor", "TF32 tensor"
  double peakGBs = 0;        // the memory slope

  double declaredIntensity() const { return declaredBytes > 0 ? flops / declaredBytes : 0; }
  double achievedIntensity() const { return measuredBytes > 0 ? flops / measuredBytes : 0; }
  // Measured DRAM traffic over the fewest bytes: 1 moves nothing twice, 3 moves it thrice.
  double trafficRatio() const { return declaredBytes > 0 ? measuredBytes / declaredBytes : 0; }
};

// The case's side, from its document (no profile yet): its work, achieved rate and roofs.
ProfileRoof caseRoof(const CaseResult& c, const RunDocument& doc);
// The case placed by a profile's DRAM bytes per launch of the case (ncuPerCase); the rate
// from ncu's time when the case was not timed. None when the profile measured no DRAM bytes
// or the family declares no work.
std::optional<ProfileRoof> placeOnRoof(ProfileRoof r, const NcuProfile& p);

// "measured DRAM 7.43 MB per launch, 2.4× the 3.15 MB minimum: 36.1 FLOP/byte achieved,
// 85.3 declared": the sentence under the panel's roofline.
QString profileRoofText(const ProfileRoof& r);

}  // namespace kwb::gui
