#include "doc_queries.h"

#include <QLocale>
#include <algorithm>
#include <cmath>

#include "kwb/progression.h"
#include "run_request.h"

namespace kwb::gui {

QList<Shape> shapesOf(const RunDocument& doc) {
  QList<Shape> out;
  for (const auto& c : doc.cases)
    if (!out.contains(c.shape)) out << c.shape;
  return out;
}

QList<QString> kernelsOf(const RunDocument& doc, const KernelCatalog& catalog) {
  QList<QString> out;
  for (const auto& k : catalog.kernels()) {
    const std::string id = k.id.toStdString();
    if (std::any_of(doc.cases.begin(), doc.cases.end(),
                    [&](const CaseResult& c) { return c.kernel == id; }))
      out << k.id;
  }
  return out;
}

double sizeOf(const Shape& s) { return std::cbrt(double(s.m) * double(s.n) * double(s.k)); }

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

QColor kernelColor(int index) {
  static const QColor palette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e),
                                   QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28),
                                   QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                                   QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f),
                                   QColor(0xbc, 0xbd, 0x22), QColor(0x17, 0xbe, 0xcf),
                                   // Beyond the first ten: 9 stages and 3 references are 12.
                                   QColor(0x20, 0x20, 0x20), QColor(0x1a, 0x1a, 0x8c),
                                   QColor(0x00, 0x80, 0x80), QColor(0x55, 0x6b, 0x2f)};
  constexpr int kColors = int(sizeof palette / sizeof palette[0]);
  return palette[index % kColors];
}

bool hasSpeed(const CaseResult& c) { return c.timed() && c.gflops > 0 && std::isfinite(c.gflops); }

std::optional<double> pctLabel(const CaseResult& c) {
  if (c.precision != Precision::kFp32 && c.pctOfFp16Reference) return c.pctOfFp16Reference;
  return c.pctOfFp32Reference;
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

QString recordedDate(const RunDocument& doc) {
  const QString ts = QString::fromStdString(doc.timestamp);
  return ts.isEmpty() ? QString("an unknown date") : ts.left(10);
}

std::vector<ProgressionViolation> progressionViolations(const RunDocument& doc,
                                                        const KernelCatalog& catalog) {
  if (doc.progression.checked) return doc.progression.violations;
  // A live run has no check yet: the engine's rule, applied to the cases so far.
  return checkProgression(doc.cases,
                          [&](std::string_view id) {
                            const KernelInfo k =
                                catalog.info(QString::fromUtf8(id.data(), qsizetype(id.size())));
                            return k.reference || k.stage >= 99 ? 0 : k.stage;
                          })
      .violations;
}

QString caseSummaryLine(const RunDocument& doc) {
  int counts[7] = {};
  QStringList bad;
  for (const auto& c : doc.cases) {
    ++counts[int(c.status)];
    if (!isGood(c.status) && bad.size() < 3)
      bad << QString("%1 %2").arg(QString::fromStdString(c.kernel), shapeText(c.shape));
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
