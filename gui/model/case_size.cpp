// SPDX-License-Identifier: Apache-2.0
#include "model/case_size.h"

#include <QLocale>
#include <cmath>

#include "kwb/family.h"
#include "kwb/shape.h"

namespace kwb::gui {
namespace {

// Element types and problems as numbers of the key: 0 never appears, so an unknown text
// still makes a key apart from a GEMM shape. A problem is its place in core's family table
// (gemm is 0 and never a 1-D key), so a new family needs nothing here.
std::int64_t typeCode(const std::string& t) { return t == "i32" ? 2 : 1; }
std::int64_t problemCode(const std::string& p) {
  const auto all = families();
  for (std::size_t i = 1; i < all.size(); ++i)
    if (all[i].id == p) return std::int64_t(i);
  return std::int64_t(all.size());  // a family this build does not know
}

}  // namespace

bool isVectorCase(const CaseResult& c) { return !c.size.empty() && !isGemm(c.size); }

Shape shapeKey(const CaseSize& s) {
  if (isGemm(s)) return shapeOf(s);
  return Shape{s.number("count"), typeCode(s.word("type")), -problemCode(s.family)};
}
Shape sizeKey(const CaseResult& c) { return shapeKey(c.size); }

bool isVectorKey(const Shape& key) { return key.k <= 0 && key.n >= 1; }

Shape vectorKey(const std::string& problem, std::int64_t count, const std::string& type) {
  return Shape{count, typeCode(type), problem.empty() ? 0 : -problemCode(problem)};
}

QString keyType(const Shape& key) { return key.n == 2 ? "i32" : "f32"; }

QString countText(std::int64_t count, bool grouped) {
  const std::string plain = kwb::countText(count);  // "2^20" or "1000003", as core writes it
  if (!grouped || plain.starts_with("2^")) return QString::fromStdString(plain);
  return QLocale(QLocale::English).toString(qlonglong(count));
}

QString sizeKeyText(const Shape& key, bool pretty) {
  if (!isVectorKey(key)) return QString::fromStdString(pretty ? shapeText(key) : toString(key));
  return countText(key.m, pretty) + " " + keyType(key);
}

QString sizeText(const CaseResult& c, bool pretty) { return sizeKeyText(sizeKey(c), pretty); }

QString keyProblem(const Shape& key) {
  if (!isVectorKey(key)) return {};
  const auto all = families();
  const auto code = std::size_t(-key.k);
  return code >= 1 && code < all.size() ? QString::fromStdString(all[code].id) : "1-D";
}

double sizeAxisValue(const Shape& key) {
  if (isVectorKey(key)) return double(key.m);
  return std::cbrt(double(key.m) * double(key.n) * double(key.k));
}

std::optional<Shape> parseVectorSize(const QString& text) {
  const QStringList parts = text.simplified().split(' ');
  if (parts.isEmpty() || parts.size() > 2) return std::nullopt;
  const QString type = parts.size() == 2 ? parts[1] : "f32";
  if (type != "f32" && type != "i32") return std::nullopt;
  bool ok = false;
  std::int64_t count = 0;
  if (parts[0].startsWith("2^")) {
    const int e = parts[0].mid(2).toInt(&ok);
    ok = ok && e >= 0 && e < 62;
    if (ok) count = std::int64_t{1} << e;
  } else {
    count = parts[0].toLongLong(&ok);
    ok = ok && count >= 0;
  }
  if (!ok) return std::nullopt;
  return vectorKey("", count, type.toStdString());
}

bool sizeMatches(const CaseResult& c, const Shape& key) {
  const Shape own = sizeKey(c);
  if (key.k == 0 && isVectorKey(key) && isVectorCase(c)) return own.m == key.m && own.n == key.n;
  return own == key;
}

const CaseResult* findCase(const RunDocument& doc, std::string_view kernel, const Shape& key) {
  if (!isVectorKey(key)) return doc.find(kernel, key);
  for (const auto& c : doc.cases)
    if (c.kernel == kernel && isVectorCase(c) && sizeKey(c) == key) return &c;
  return nullptr;
}

bool violationAt(const ProgressionViolation& v, const Shape& key) {
  // A 1-D violation names its size as text (kwb::sizeLabel), "2^20 f32".
  return isVectorKey(key) ? QString::fromStdString(v.size) == sizeKeyText(key, false)
                          : v.shape == key;
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
    if (c.kernel == kernel && violationAt(v, sizeKey(c))) return &c;
  return nullptr;
}

double headline(const CaseResult& c) {
  if (!isVectorCase(c)) return c.gflops;
  const auto it = c.figures.find("gbps");
  return it != c.figures.end() ? it->second : c.bandwidthGBs;
}

QString headlineUnit(const CaseResult& c) { return isVectorCase(c) ? "GB/s" : "GFLOP/s"; }

QString headlineUnit(const RunDocument& doc) {
  bool gemm = false, vector = false;
  for (const auto& c : doc.cases) (isVectorCase(c) ? vector : gemm) = true;
  if (vector && gemm) return "GFLOP/s | GB/s";
  return vector ? "GB/s" : "GFLOP/s";
}

bool memoryBoundDocument(const RunDocument& doc) {
  if (doc.cases.empty()) return false;
  for (const auto& c : doc.cases)
    if (!isVectorCase(c)) return false;
  return true;
}

std::optional<double> pctOfCopyRoof(const CaseResult& c, const RunDocument& doc) {
  if (!isVectorCase(c)) return std::nullopt;
  if (const auto it = c.figures.find("pct_of_roof"); it != c.figures.end()) return it->second;
  if (!doc.device || doc.device->copyBandwidthGBs <= 0 || headline(c) <= 0) return std::nullopt;
  return 100.0 * headline(c) / doc.device->copyBandwidthGBs;
}

double intensityOf(const CaseResult& c) {
  if (c.arithmeticIntensity > 0) return c.arithmeticIntensity;
  if (isVectorCase(c)) {  // the family's declared work, as core derives it
    const Family* f = tryFindFamily(c.problem());
    return f && f->work ? f->work(c).intensity() : 0.0;
  }
  const bool fp32 = c.fallback || c.status == CaseStatus::kFallback;
  const double elem = c.precision == Precision::kFp16Fp32Acc && !fp32 ? 2.0 : 4.0;
  return c.shape().flops() / c.shape().minBytes(elem);
}

double roofGflops(const CaseResult& c) {
  if (c.gflops > 0 || !isVectorCase(c)) return c.gflops;
  return headline(c) * intensityOf(c);
}

}  // namespace kwb::gui
