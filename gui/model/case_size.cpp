// SPDX-License-Identifier: Apache-2.0
#include "model/case_size.h"

#include <QLocale>

#include "kwb/family.h"
#include "kwb/shape.h"

namespace kwb::gui {

QString countText(std::int64_t count, bool grouped) {
  const std::string plain = kwb::countText(count);  // "2^20" or "1000003", as core writes it
  if (!grouped || plain.starts_with("2^")) return QString::fromStdString(plain);
  return QLocale(QLocale::English).toString(qlonglong(count));
}

QString sizeName(const CaseSize& s, bool pretty) {
  if (!pretty) return QString::fromStdString(sizeLabel(s));
  QString text = QString::fromStdString(kwb::sizeText(s));
  // Core writes a count in plain decimal; people read a long one grouped.
  for (const SizeAxis& a : s.axes)
    if (a.kind == AxisKind::kCount && a.number >= 1000) {
      const QString plain = QString::number(a.number);
      const QString grouped = countText(a.number);
      if (const qsizetype at = text.indexOf(plain); at >= 0 && grouped != plain)
        text.replace(at, plain.size(), grouped);
    }
  return text;
}

const FamilyInfo* familyOf(const RunDocument& doc, const CaseResult& c) {
  return doc.family(c.problem());
}

Metric headlineMetric(const RunDocument& doc, const CaseResult& c) {
  const FamilyInfo* f = familyOf(doc, c);
  return f ? f->headline : Metric::kGflops;
}

bool memoryBound(const RunDocument& doc, const CaseResult& c) {
  return headlineMetric(doc, c) == Metric::kGbps;
}

double headline(const RunDocument& doc, const CaseResult& c) {
  const Metric m = headlineMetric(doc, c);
  if (m == Metric::kGflops && c.gflops != 0) return c.gflops;
  if (const auto it = c.figures.find(std::string(figureKey(m))); it != c.figures.end())
    return it->second;
  return m == Metric::kGflops ? c.gflops : c.bandwidthGBs;
}

QString headlineUnit(const RunDocument& doc, const CaseResult& c) {
  return QString::fromUtf8(metricUnit(headlineMetric(doc, c)).data());
}

QString headlineUnit(const RunDocument& doc) {
  bool flops = false, bytes = false;
  for (const auto& c : doc.cases) (memoryBound(doc, c) ? bytes : flops) = true;
  if (flops && bytes) return "GFLOP/s | GB/s";
  return bytes ? "GB/s" : "GFLOP/s";
}

bool memoryBoundDocument(const RunDocument& doc) {
  if (doc.cases.empty()) return false;
  for (const auto& c : doc.cases)
    if (!memoryBound(doc, c)) return false;
  return true;
}

bool violationAt(const ProgressionViolation& v, const CaseSize& size) {
  // Documents name the size by its label ("512x512x512", "2^20 f32"); older ones by shape.
  if (!v.size.empty()) return v.size == sizeLabel(size);
  return isGemm(size) && v.shape == shapeOf(size);
}

std::optional<std::int64_t> firstMismatchIndex(const CompareReport& r) {
  if (r.firstMismatchIndex) return r.firstMismatchIndex;
  if (r.firstMismatch) return r.firstMismatch->col;
  return std::nullopt;
}

QString firstMismatchText(const CompareReport& r) {
  const auto index = firstMismatchIndex(r);
  if (!index) return {};
  QString text = QString("first mismatch at index %1")
                     .arg(QLocale(QLocale::English).toString(qlonglong(*index)));
  if (r.firstMismatch)
    text += QString(": got %1, expected %2")
                .arg(QString::number(r.firstMismatch->got, 'g', 9),
                     QString::number(r.firstMismatch->expected, 'g', 9));
  return text;
}

const CaseResult* violationCase(const RunDocument& doc, const ProgressionViolation& v,
                                const std::string& kernel) {
  for (const auto& c : doc.cases)
    if (c.kernel == kernel && violationAt(v, c.size)) return &c;
  return nullptr;
}

std::optional<double> pctOfCopyRoof(const CaseResult& c, const RunDocument& doc) {
  if (!memoryBound(doc, c)) return std::nullopt;
  if (const auto it = c.figures.find("pct_of_roof"); it != c.figures.end()) return it->second;
  const double v = headline(doc, c);
  if (!doc.device || doc.device->copyBandwidthGBs <= 0 || v <= 0) return std::nullopt;
  return 100.0 * v / doc.device->copyBandwidthGBs;
}

Work declaredWork(const CaseResult& c) {
  if (!isGemm(c.size)) {  // the family's declared work, as core derives it
    const Family* f = tryFindFamily(c.problem());
    return f && f->work ? f->work(c) : Work{};
  }
  const bool fp32 = c.fallback || c.status == CaseStatus::kFallback;
  const double elem = fp32 ? 4.0 : double(inputElementBytes(c.precision));
  return {c.shape().flops(), c.shape().minBytes(elem)};
}

double intensityOf(const CaseResult& c) {
  if (c.arithmeticIntensity > 0) return c.arithmeticIntensity;
  return declaredWork(c).intensity();
}

double roofGflops(const RunDocument& doc, const CaseResult& c) {
  if (c.gflops > 0 || !memoryBound(doc, c)) return c.gflops;
  return headline(doc, c) * intensityOf(c);
}

}  // namespace kwb::gui
