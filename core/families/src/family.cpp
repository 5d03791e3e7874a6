// SPDX-License-Identifier: Apache-2.0
#include "kwb/family.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <mutex>

#include "kwb/error.h"
#include "kwb/run_document.h"

namespace kwb {
namespace {

struct Catalog {
  std::mutex lock;
  std::deque<Family> registered;  // a deque: pointers handed out stay valid
};
Catalog& catalog() {
  static Catalog c;
  return c;
}

// gemm, reduce and scan as documents before schema 6 knew them (no work: their folders say).
const std::vector<Family>& legacy() {
  static const std::vector<Family> t = [] {
    std::vector<Family> out;
    for (const char* id : {"gemm", "reduce", "scan"}) {
      Family f;
      static_cast<FamilyInfo&>(f) = *legacyFamilyInfo(id);
      if (f.id != "gemm") f.allWordsByDefault = {"type"};  // both element types
      out.push_back(std::move(f));
    }
    return out;
  }();
  return t;
}

double peakFor(const CaseResult& c, const FamilyInfo& f, const DeviceInfo& d) {
  if (f.headline == Metric::kGbps) return d.peakBandwidthGBs;
  switch (c.precision) {
    case Precision::kFp16Fp32Acc:
      return d.peakFp16TensorTflops * 1000.0;
    case Precision::kBf16Fp32Acc:
      return peakBf16TensorTflops(d) * 1000.0;
    case Precision::kTf32:
      return d.peakTf32TensorTflops * 1000.0;
    case Precision::kFp32:
      break;
  }
  return d.peakFp32Tflops * 1000.0;
}

}  // namespace

void registerFamily(const Family& f) {
  Catalog& c = catalog();
  const std::lock_guard<std::mutex> guard(c.lock);
  for (Family& g : c.registered)
    if (g.id == f.id) {
      g = f;
      return;
    }
  c.registered.push_back(f);
}

std::vector<Family> families() {
  Catalog& c = catalog();
  const std::lock_guard<std::mutex> guard(c.lock);
  if (c.registered.empty()) return legacy();
  return {c.registered.begin(), c.registered.end()};
}

const Family* tryFindFamily(std::string_view id) {
  {
    Catalog& c = catalog();
    const std::lock_guard<std::mutex> guard(c.lock);
    for (const Family& f : c.registered)
      if (f.id == id) return &f;
  }
  for (const Family& f : legacy())
    if (f.id == id) return &f;
  return nullptr;
}

const Family& findFamily(std::string_view id) {
  if (const Family* f = tryFindFamily(id)) return *f;
  std::string known;
  for (const Family& f : families()) known += (known.empty() ? "" : ", ") + f.id;
  throw InputError("unknown family '" + std::string(id) + "' (known: " + known + ")");
}

std::int64_t parseCount(std::string_view text) {
  // The size parser's number reader, on an axis of element counts alone.
  static const FamilyInfo counts = [] {
    FamilyInfo f;
    f.axes = {{"count", AxisKind::kCount, {}, {}, 0, kMaxVectorCount}};
    return f;
  }();
  return parseSize(counts, text).axes.front().number;
}

std::vector<std::int64_t> parseCountList(std::string_view text) {
  std::vector<std::int64_t> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    out.push_back(parseCount(text.substr(start, comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

VectorSize vectorSizeOf(const CaseSize& s) {
  const std::string type = s.word("type");
  return {s.number("count"), type.empty() ? ElementType::kFloat32 : parseElementType(type)};
}

std::vector<CaseSize> vectorSizes(const std::string& family,
                                  const std::vector<std::int64_t>& counts,
                                  const std::vector<ElementType>& types) {
  std::vector<CaseSize> out;
  out.reserve(counts.size() * types.size());
  for (const std::int64_t n : counts)
    for (const ElementType t : types)
      out.push_back(vectorSize(family, n, std::string(toString(t))));
  return out;
}

Tolerance vectorTolerance(ElementType type, std::int64_t count, double inputL2Norm) {
  if (type == ElementType::kInt32) return {0.0, 0.0};
  const double u = std::ldexp(1.0, -24);
  return {1e-5, 8.0 * u * std::sqrt(double(std::max<std::int64_t>(count, 1))) * inputL2Norm};
}

bool isOneDimensional(const CaseResult& c) { return !isGemm(c.size); }

std::string sizeText(const CaseResult& c) { return sizeText(c.size); }
std::string sizeLabel(const CaseResult& c) { return sizeLabel(c.size); }
bool sameSize(const CaseResult& a, const CaseResult& b) { return a.size == b.size; }

const CaseResult* findLike(const RunDocument& doc, const CaseResult& like) {
  return doc.find(like.kernel, like.size);
}

void deriveFigures(CaseResult& c, const DeviceInfo* device) {
  const double ms = c.summary.median;
  const Family* f = tryFindFamily(c.problem());
  if (ms <= 0 || !f || !f->work) return;
  const Work w = f->work(c);
  c.gflops = w.flops / (ms * 1e6);
  c.bandwidthGBs = w.bytes / (ms * 1e6);
  c.arithmeticIntensity = w.intensity();
  c.figures["gflops"] = c.gflops;
  c.figures["gbps"] = c.bandwidthGBs;
  if (device) derivePeakFigures(c, *f, *device);
}

void deriveOlderSchemaFigures(CaseResult& c, const FamilyInfo* family, int schemaVersion,
                              const DeviceInfo* device) {
  if (schemaVersion < 4 && family && device && c.timed() && !c.figures.contains("pct_of_peak"))
    derivePeakFigures(c, *family, *device);
}

void derivePeakFigures(CaseResult& c, const FamilyInfo& family, const DeviceInfo& d) {
  const FamilyInfo* f = &family;
  const DeviceInfo* device = &d;
  const double headline = c.figures[std::string(figureKey(f->headline))];
  if (const double peak = peakFor(c, *f, *device); peak > 0)
    c.figures["pct_of_peak"] = 100.0 * headline / peak;
  const double roof =
      f->headline == Metric::kGbps ? device->copyBandwidthGBs : peakFor(c, *f, *device);
  if (roof > 0) c.figures["pct_of_roof"] = 100.0 * headline / roof;
}

void fillReferenceFigure(CaseResult& c, const std::vector<CaseResult>& done) {
  const Family* f = tryFindFamily(c.problem());
  if (!f || c.kernel == f->reference) return;
  const std::string key(figureKey(f->headline));
  const auto mine = c.figures.find(key);
  if (mine == c.figures.end() || mine->second <= 0) return;
  for (const CaseResult& r : done) {
    if (r.kernel != f->reference || !sameSize(r, c) || !r.timed() || !isGood(r.status)) continue;
    const auto ref = r.figures.find(key);
    if (ref != r.figures.end() && ref->second > 0)
      c.figures["pct_of_reference"] = 100.0 * mine->second / ref->second;
    return;
  }
}

}  // namespace kwb
