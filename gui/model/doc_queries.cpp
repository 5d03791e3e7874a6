// SPDX-License-Identifier: Apache-2.0
#include "model/doc_queries.h"

#include <QLocale>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>

#include "kwb/progression.h"
#include "kwb/run_compare.h"
#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/run_request.h"

namespace kwb::gui {

QList<CaseSize> sizesOf(const RunDocument& doc) {
  QList<CaseSize> out;
  std::set<CaseSize> seen;
  for (const auto& c : doc.cases)
    if (seen.insert(c.size).second) out << c.size;
  return out;
}

CaseIndex::CaseIndex(const RunDocument& doc) {
  // The first case of a kernel and shape wins, as with RunDocument::find.
  for (const auto& c : doc.cases) m_cases.emplace(std::pair{c.kernel, c.size}, &c);
}

const CaseResult* CaseIndex::find(const std::string& kernel, const CaseSize& size) const {
  const auto it = m_cases.find(std::pair{kernel, size});
  return it == m_cases.end() ? nullptr : it->second;
}

QList<QString> kernelsOf(const RunDocument& doc, const KernelLookup& catalog) {
  std::set<std::string> present;
  for (const auto& c : doc.cases) present.insert(c.kernel);
  QList<QString> out;
  for (const auto& k : catalog.kernels())
    if (present.count(k.id)) out << QString::fromStdString(k.id);
  return out;
}

QColor statusColor(CaseStatus s) {
  switch (s) {
    case CaseStatus::kPass:
      return QColor(0x2e, 0x9e, 0x4f);
    case CaseStatus::kFallback:
      return QColor(0xd9, 0xa4, 0x1b);
    case CaseStatus::kFail:
      return QColor(0xd0, 0x30, 0x30);
    case CaseStatus::kInvalid:
      return QColor(0x8e, 0x44, 0xad);
    case CaseStatus::kError:
      return QColor(0xe0, 0x6c, 0x1c);
    case CaseStatus::kCrashed:
      return QColor(0x40, 0x40, 0x40);
    case CaseStatus::kSkipped:
      return QColor(0x9a, 0x9a, 0x9a);
  }
  return Qt::gray;
}

QString statusText(CaseStatus s) { return QString::fromLatin1(toString(s).data()).toUpper(); }

namespace {

// Twelve hues apart from each other and from the grey roofs and reference lines (navy beside
// blue and near-black beside the roofs were hard to tell apart), then two spares.
const QColor kPalette[] = {
    QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
    QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
    QColor(0xe3, 0x77, 0xc2), QColor(0x44, 0x00, 0xdd), QColor(0xbc, 0xbd, 0x22),
    QColor(0x17, 0xbe, 0xcf), QColor(0x99, 0x00, 0x4d), QColor(0x00, 0x4d, 0x00),
    QColor(0x7f, 0x7f, 0x7f), QColor(0x55, 0x6b, 0x2f), QColor(0x00, 0x00, 0x80),
    QColor(0xff, 0xd7, 0x00), QColor(0x80, 0x80, 0x00)};
constexpr std::uint32_t kColors = sizeof kPalette / sizeof kPalette[0];

// The built-in kernels, each with its own slot: a family's stages in teaching order, then its
// references, so the eleven SGEMM stages and four cuBLAS references never share a colour. The
// BF16 twins and cuBLAS BF16 come last, past the roofs' grey (12) and an olive (13) too near
// green and brown.
int knownSlot(const QString& id) {
  static const std::map<QString, int> kSlots{
      {"sgemm.naive", 0},           {"sgemm.tiled", 1},
      {"sgemm.bank_free", 2},       {"sgemm.double_buffer", 3},
      {"sgemm.tensor_core", 4},     {"sgemm.register_blocked", 5},
      {"sgemm.warp_tiled", 6},      {"sgemm.mma_multistage", 7},
      {"sgemm.wgmma", 8},           {"cublas.sgemm", 9},
      {"cublas.hgemm_f32acc", 10},  {"cublas.tf32", 11},
      {"reduce.atomic", 0},         {"reduce.shared_tree", 1},
      {"reduce.warp_shuffle", 2},   {"reduce.vectorized", 3},
      {"reduce.cub_block", 4},      {"cub.reduce_sum", 9},
      {"scan.hillis_steele", 0},    {"scan.blelloch", 1},
      {"scan.reduce_then_scan", 2}, {"scan.decoupled_lookback", 3},
      {"cub.inclusive_sum", 9}};
  static const std::map<QString, int> kBf16Slots{
      {"sgemm.mma_multistage_bf16", 14}, {"sgemm.wgmma_bf16", 15}, {"cublas.bgemm_f32acc", 16}};
  if (const auto it = kBf16Slots.find(id); it != kBf16Slots.end()) return it->second;
  const auto it = kSlots.find(id);
  return it == kSlots.end() ? -1 : it->second;
}

}  // namespace

QColor kernelColor(const QString& id) {
  if (const int slot = knownSlot(id); slot >= 0) return kPalette[slot];
  // Any other kernel (a user kernel, a tuning configuration, a family this build does not know):
  // FNV-1a of its id, the same in every run, plot and report whatever else is listed.
  std::uint32_t h = 2166136261u;
  for (const char ch : id.toUtf8()) h = (h ^ std::uint8_t(ch)) * 16777619u;
  return kPalette[h % kColors];
}

bool hasSpeed(const RunDocument& doc, const CaseResult& c) {
  return c.timed() && !implausibleSpeed(doc, c);
}

bool implausibleSpeed(const RunDocument& doc, const CaseResult& c) {
  if (!c.timed()) return false;
  const double v = headline(doc, c);
  const double limit = memoryBound(doc, c) ? kImplausibleGBs : kImplausibleGflops;
  return !std::isfinite(v) || v <= 0 || v > limit || !std::isfinite(c.summary.median) ||
         c.summary.median <= 0;
}

QString implausibleNote(const RunDocument& doc) {
  QStringList bad;
  int n = 0;
  for (const auto& c : doc.cases)
    if (implausibleSpeed(doc, c) && ++n <= 3)
      bad << QString("%1 %2 (%3 %4)")
                 .arg(QString::fromStdString(c.kernel), sizeName(c),
                      QString::number(headline(doc, c), 'g', 3), headlineUnit(doc, c));
  if (!n) return {};
  return QString("%1 case%2 with an impossible GFLOP/s or time %3 not plotted: %4%5")
      .arg(n)
      .arg(n == 1 ? "" : "s", n == 1 ? "is" : "are", bad.join(", "), n > 3 ? ", …" : "");
}

bool isFallback(const CaseResult& c) { return c.fallback || c.status == CaseStatus::kFallback; }

std::optional<RefPercent> refPercent(const RunDocument& doc, const CaseResult& c) {
  if (!isGemm(c.size)) {
    // The other families hold every stage against their reference (CUB for reduce and scan).
    const auto it = c.figures.find("pct_of_reference");
    if (it == c.figures.end()) return std::nullopt;
    const FamilyInfo* f = familyOf(doc, c);
    const QString ref = f ? QString::fromStdString(f->reference) : QString();
    return RefPercent{it->second, ref.isEmpty() || ref.startsWith("cub.") ? "CUB" : ref};
  }
  if (c.precision == Precision::kFp32 || isFallback(c)) {
    if (c.pctOfFp32Reference) return RefPercent{*c.pctOfFp32Reference, "cuBLAS SGEMM"};
    return std::nullopt;
  }
  // FP16 and BF16 tensor-core precisions against the cuBLAS GEMM of their inputs only; TF32
  // has no reference of its own.
  if (c.precision == Precision::kFp16Fp32Acc && c.pctOfFp16Reference)
    return RefPercent{*c.pctOfFp16Reference, "cuBLAS FP16"};
  if (c.precision == Precision::kBf16Fp32Acc && c.pctOfBf16Reference)
    return RefPercent{*c.pctOfBf16Reference, "cuBLAS BF16"};
  return std::nullopt;
}

std::optional<double> pctLabel(const RunDocument& doc, const CaseResult& c) {
  if (const auto r = refPercent(doc, c)) return r->pct;
  return std::nullopt;
}

Range gflopsCi(const RunDocument& doc, const CaseResult& c) {
  const auto& s = c.summary;
  const double v = headline(doc, c);
  if (s.median <= 0 || s.ci95.low <= 0 || s.ci95.high <= 0) return {v, v};
  return {v * s.median / s.ci95.high, v * s.median / s.ci95.low};
}

QString timerLabel(const RunDocument& doc) {
  return QString::fromUtf8(kwb::timerLabel(doc.settings.timer).data());
}

QString comparisonVerdict(const CaseResult& now, const CaseResult& base) {
  return QString::fromUtf8(toString(compareCase(base, now, CompareRule{}).verdict).data());
}

QString formatNumber(double v, int precision) {
  if (!std::isfinite(v)) return QString::number(v);
  return QLocale::c().toString(v, 'g', precision);
}

QString deviceBanner(const RunDocument& doc) {
  if (!doc.device) return "No device recorded";
  const DeviceInfo& d = *doc.device;
  return QString("%1 · sm_%2%3 · %4 SMs · %5 MHz\nFP32 %6 · FP16 tensor %7 TFLOP/s · %8 GB/s")
      .arg(QString::fromStdString(d.name))
      .arg(d.ccMajor)
      .arg(d.ccMinor)
      .arg(d.smCount)
      .arg(d.smClockMhz)
      .arg(d.peakFp32Tflops, 0, 'f', 1)
      .arg(d.peakFp16TensorTflops, 0, 'f', 0)
      .arg(d.peakBandwidthGBs, 0, 'f', 0);
}

QString caseDeviceText(const RunDocument& doc, const CaseResult& c) {
  const DeviceInfo* d = doc.deviceOf(c);
  if (!d) return c.device < 0 && doc.merged ? QString("none (not run)") : QString();
  const std::string host = d->host.empty() ? doc.host : d->host;
  QString where = QString("GPU %1").arg(d->index);
  if (!host.empty()) where += " on " + QString::fromStdString(host);
  return QString::fromStdString(d->name) + " (" + where + ")";
}

QString recordedDate(const RunDocument& doc) {
  const QString ts = QString::fromStdString(doc.timestamp);
  return ts.isEmpty() ? QString("an unknown date") : ts.left(10);
}

std::vector<ProgressionViolation> progressionViolations(const RunDocument& doc) {
  if (doc.progression.checked) return doc.progression.violations;
  // A live run has no check yet: core's rule over the cases so far.
  return checkProgression(doc).violations;
}

QString emptyPlotReason(const RunDocument& doc) {
  if (doc.tuning)
    return QString(
               "No timed cases: this is a tuning sweep of %1 at %2.\nIts %3 configurations "
               "are on the Tuning tab.")
        .arg(QString::fromStdString(doc.tuning->kernel),
             QString::fromStdString(shapeText(doc.tuning->shape)))
        .arg(doc.tuning->results.size());
  if (doc.conformance)
    return "No timed cases: this is a sub-group conformance document.\nIts checks are on the "
           "Correctness tab.";
  if (doc.cases.empty()) return "No cases in this document.";
  return "No timed case to plot (none passed verification and was timed).";
}

QString caseSummaryLine(const RunDocument& doc) {
  int counts[7] = {};
  QStringList bad;
  for (const auto& c : doc.cases) {
    ++counts[int(c.status)];
    if (!isGood(c.status) && bad.size() < 3)
      bad << QString("%1 %2").arg(QString::fromStdString(c.kernel), sizeName(c));
  }
  QStringList parts{QString("%1 cases").arg(doc.cases.size())};
  const CaseStatus order[] = {CaseStatus::kPass,   CaseStatus::kFallback, CaseStatus::kFail,
                              CaseStatus::kError,  CaseStatus::kCrashed,  CaseStatus::kInvalid,
                              CaseStatus::kSkipped};
  for (CaseStatus s : order)
    if (counts[int(s)])
      parts << QString("%1 %2")
                   .arg(counts[int(s)])
                   .arg(isGood(s) ? QString::fromLatin1(toString(s).data()) : statusText(s));
  QString line = parts.join(" · ");
  if (!bad.isEmpty()) line += " (" + bad.join(", ") + (bad.size() == 3 ? ", …" : "") + ")";
  return line;
}

}  // namespace kwb::gui
