// SPDX-License-Identifier: Apache-2.0
#include "model/profile_roof.h"

#include "model/case_size.h"

namespace kwb::gui {

ProfileRoof caseRoof(const CaseResult& c, const RunDocument& doc) {
  const Work work = declaredWork(c);
  ProfileRoof r;
  r.flops = work.flops;
  r.declaredBytes = work.bytes;
  r.gflops = c.timed() ? roofGflops(doc, c) : 0;
  const bool fp32 = c.fallback || c.status == CaseStatus::kFallback || !isGemm(c.size);
  if (const DeviceInfo* d = doc.deviceOf(c)) {
    r.peakGBs = d->peakBandwidthGBs;
    r.peakGflops = d->peakFp32Tflops * 1000;
    r.peakName = "FP32";
    if (!fp32 && c.precision == Precision::kFp16Fp32Acc) {
      r.peakGflops = d->peakFp16TensorTflops * 1000;
      r.peakName = "FP16 tensor";
    } else if (!fp32 && c.precision == Precision::kBf16Fp32Acc) {
      r.peakGflops = peakBf16TensorTflops(*d) * 1000;
      r.peakName = "BF16 tensor";
    } else if (!fp32 && c.precision == Precision::kTf32) {
      r.peakGflops = d->peakTf32TensorTflops * 1000;
      r.peakName = "TF32 tensor";
    }
  }
  return r;
}

std::optional<ProfileRoof> placeOnRoof(ProfileRoof r, const NcuProfile& p) {
  const NcuPerCase per = ncuPerCase(p);
  if (per.dramBytes <= 0 || r.declaredBytes <= 0) return std::nullopt;
  r.measuredBytes = per.dramBytes;
  if (r.gflops <= 0 && per.durationUs > 0) r.gflops = r.flops / (per.durationUs * 1e3);
  return r;
}

QString profileRoofText(const ProfileRoof& r) {
  const auto mb = [](double bytes) { return QString::number(bytes / 1e6, 'f', 2) + " MB"; };
  QString t =
      QString("measured DRAM %1 per launch, %2× the %3 minimum")
          .arg(mb(r.measuredBytes), QString::number(r.trafficRatio(), 'f', 2), mb(r.declaredBytes));
  if (r.flops > 0)
    t += QString(": %1 FLOP/byte achieved, %2 declared")
             .arg(QString::number(r.achievedIntensity(), 'g', 3),
                  QString::number(r.declaredIntensity(), 'g', 3));
  return t;
}

}  // namespace kwb::gui
