// SPDX-License-Identifier: Apache-2.0
#include "kwb/exporters.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "kwb/family.h"
#include "kwb/progression.h"

#include "energy_export.h"

namespace kwb {
namespace {

std::string num(double v, const char* fmt = "%.6g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string opt(const std::optional<double>& v, const char* fmt = "%.1f") {
  return v ? num(*v, fmt) : "";
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string mdCell(const std::string& s) {
  std::string out;
  for (char c : s)
    out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

std::string figure(const CaseResult& c, const char* key) {
  const auto it = c.figures.find(key);
  return it == c.figures.end() ? "" : num(it->second, "%.1f");
}

bool anyOneDimensional(const RunDocument& doc) {
  return std::any_of(doc.cases.begin(), doc.cases.end(), isOneDimensional);
}

// The 1-D families' table: GB/s, % of CUB, of the peak and of the copy roof.
void vectorMarkdown(std::ostringstream& os, const RunDocument& doc) {
  if (doc.device && doc.device->copyBandwidthGBs > 0)
    os << "Device-to-device copy (the roof): " << num(doc.device->copyBandwidthGBs, "%.1f")
       << " GB/s; peak bandwidth " << num(doc.device->peakBandwidthGBs, "%.1f") << " GB/s\n\n";
  os << "| kernel | size | status | median ms | min ms | max ms | CV | GB/s | % CUB | % peak | "
        "% copy | first mismatch | mismatches | unwritten |\n"
     << "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& c : doc.cases) {
    if (!isOneDimensional(c)) continue;
    std::string status(toString(c.status));
    if (!isGood(c.status)) status = "**" + status + "**";
    os << "| " << c.kernel << " | " << sizeLabel(c) << " | " << mdCell(status) << " | ";
    if (c.timed())
      os << num(c.summary.median, "%.4f") << " | " << num(c.summary.min, "%.4f") << " | "
         << num(c.summary.max, "%.4f") << " | " << num(c.summary.cv * 100, "%.1f") << "% | "
         << figure(c, "gbps") << " | ";
    else
      os << " |  |  |  |  | ";
    os << figure(c, "pct_of_reference") << " | " << figure(c, "pct_of_peak") << " | "
       << figure(c, "pct_of_roof") << " | ";
    if (const auto& v = c.verification)
      os << (v->compare.firstMismatchIndex ? std::to_string(*v->compare.firstMismatchIndex) : "")
         << " | " << v->compare.mismatches << " | " << v->unwritten << " |\n";
    else
      os << " |  |  |\n";
  }
}

// Whether any case has a % of cuBLAS BF16 (a BF16 stage's reference figure).
bool anyBf16Reference(const RunDocument& doc) {
  return std::any_of(doc.cases.begin(), doc.cases.end(),
                     [](const CaseResult& c) { return c.pctOfBf16Reference.has_value(); });
}

}  // namespace

std::string toCsv(const RunDocument& doc) {
  std::ostringstream os;
  // Documents with 1-D cases (reduce, scan) add their columns at the end; GEMM-only
  // documents keep the columns they always had.
  const bool oneD = anyOneDimensional(doc);
  const bool energy = anyEnergy(doc);       // kwb run --energy: its columns last
  const bool bf16 = anyBf16Reference(doc);  // BF16 stages: their % of cuBLAS BF16, before energy
  os << "kernel,m,n,k,precision,status,ran_kernel,median_ms,min_ms,max_ms,cv,samples,gflops,"
        "pct_of_cublas_fp32,pct_of_cublas_fp16,max_abs_err,max_rel_err,mismatches,unwritten,"
        "negative_control,timer,cupti_median_ms,timer_vs_cupti_pct,throttled_samples,message"
     << (oneD ? ",problem,count,element_type,gbps,pct_of_reference,pct_of_peak,pct_of_roof,"
                "first_mismatch_index"
              : "")
     << (bf16 ? ",pct_of_cublas_bf16" : "") << (energy ? energyCsvHeader() : "") << "\n";
  for (const auto& c : doc.cases) {
    const auto& v = c.verification;
    const Shape shape = c.shape();
    os << csvField(c.kernel) << ',' << shape.m << ',' << shape.n << ',' << shape.k << ','
       << toString(c.precision) << ',' << toString(c.status) << ',' << csvField(c.ranKernel) << ',';
    if (c.timed())
      os << num(c.summary.median) << ',' << num(c.summary.min) << ',' << num(c.summary.max) << ','
         << num(c.summary.cv, "%.4f") << ',' << c.samplesMs.size() << ',' << num(c.gflops, "%.1f");
    else
      os << ",,,,0,";
    os << ',' << opt(c.pctOfFp32Reference) << ',' << opt(c.pctOfFp16Reference) << ',';
    if (v)
      os << num(v->compare.maxAbsError, "%.3g") << ',' << num(v->compare.maxRelError, "%.3g") << ','
         << v->compare.mismatches << ',' << v->unwritten << ','
         << (v->negativeControlRejected ? "rejected" : "ACCEPTED");
    else
      os << ",,,,";
    os << ',' << toString(c.timer) << ',' << opt(c.cuptiMedianMs, "%.6g") << ','
       << opt(c.timerVsCuptiPct, "%.2f") << ',' << c.throttledSamples << ',' << csvField(c.message);
    if (oneD)
      os << ',' << c.problem() << ','
         << (isOneDimensional(c) ? std::to_string(c.size.number("count")) : "") << ','
         << c.size.word("type") << ',' << figure(c, "gbps") << ',' << figure(c, "pct_of_reference")
         << ',' << figure(c, "pct_of_peak") << ',' << figure(c, "pct_of_roof") << ','
         << (v && v->compare.firstMismatchIndex ? std::to_string(*v->compare.firstMismatchIndex)
                                                : "");
    if (bf16) os << ',' << opt(c.pctOfBf16Reference);
    if (energy) os << energyCsvFields(c, csvField);
    os << '\n';
  }
  return os.str();
}

std::string toMarkdown(const RunDocument& doc) {
  std::ostringstream os;
  os << "# Kernel Workbench results\n\n";
  if (doc.device)
    os << "**Device:** " << doc.device->name << " (sm_" << doc.device->ccMajor
       << doc.device->ccMinor << ", " << doc.device->smCount << " SMs, " << doc.device->smClockMhz
       << " MHz)  \n";
  else
    os << "**Device:** none recorded  \n";
  os << "**Recorded:** " << doc.timestamp << " on " << doc.host << ", kwb " << doc.toolVersion
     << " (" << doc.gitRevision << ")  \n";
  os << "**Suite:** " << (doc.settings.suite.empty() ? "custom" : doc.settings.suite) << ", seed "
     << doc.settings.seed << ", L2 " << (doc.settings.coldL2 ? "cold" : "hot") << "  \n";
  os << "**Timer:** " << timerLabel(doc.settings.timer);
  if (doc.launchOverhead)
    os << "; an empty kernel takes " << num(doc.launchOverhead->isolatedUs, "%.2f")
       << " us isolated, " << num(doc.launchOverhead->backToBackUs, "%.2f")
       << " us back-to-back (not subtracted)";
  os << "\n\n";
  if (doc.knownAnswer.ran)
    os << "Known-answer test: " << (doc.knownAnswer.passed ? "PASS" : "**FAIL**") << " — "
       << doc.knownAnswer.detail << "\n\n";
  const bool anyGemm = !std::all_of(doc.cases.begin(), doc.cases.end(), isOneDimensional);
  // BF16 stages share the column of the FP16 ones: each case has one of the two references.
  const bool bf16 = anyBf16Reference(doc);
  if (anyGemm || doc.cases.empty())
    os << "| kernel | shape | status | median ms | min ms | max ms | CV | GFLOP/s | % cuBLAS FP32 "
          "| "
       << (bf16 ? "% cuBLAS FP16/BF16" : "% cuBLAS FP16")
       << " | max rel err | mismatches | unwritten |\n"
       << "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& c : doc.cases) {
    if (isOneDimensional(c)) continue;
    std::string status(toString(c.status));
    if (c.fallback) status += " (ran " + c.ranKernel + ")";
    if (!isGood(c.status)) status = "**" + status + "**";
    os << "| " << c.kernel << " | " << sizeLabel(c) << " | " << mdCell(status) << " | ";
    if (c.timed())
      os << num(c.summary.median, "%.4f") << " | " << num(c.summary.min, "%.4f") << " | "
         << num(c.summary.max, "%.4f") << " | " << num(c.summary.cv * 100, "%.1f") << "% | "
         << num(c.gflops, "%.1f") << " | ";
    else
      os << " |  |  |  |  | ";
    os << opt(c.pctOfFp32Reference) << " | " << opt(c.pctOf16BitReference()) << " | ";
    if (const auto& v = c.verification)
      os << num(v->compare.maxRelError, "%.2e") << " | " << v->compare.mismatches << " | "
         << v->unwritten << " |\n";
    else
      os << " |  |  |\n";
  }
  if (anyOneDimensional(doc)) {
    if (anyGemm) os << "\n";
    vectorMarkdown(os, doc);
  }
  if (anyEnergy(doc)) energyMarkdown(os, doc);
  if (doc.progression.checked) {
    os << "\nProgression (GFLOP/s must not drop from one stage to the next): ";
    if (doc.progression.violations.empty()) {
      os << "no violations.\n";
    } else {
      os << violationCount(doc.progression) << "\n\n";
      for (const auto& v : doc.progression.violations) os << "- " << violationText(v) << "\n";
    }
  }
  return os.str();
}

}  // namespace kwb
