// SPDX-License-Identifier: Apache-2.0
#include "model/run_request.h"

#include <QPair>
#include <QRegularExpression>
#include <QSet>

#include "model/case_size.h"

namespace kwb::gui {

namespace {

// The counts and the element types of 1-D keys, each once, in the order of the keys.
QPair<QStringList, QStringList> countsAndTypes(const QList<Shape>& keys) {
  QStringList counts, types;
  for (const Shape& k : keys) {
    if (const QString c = countText(k.m, false); !counts.contains(c)) counts << c;
    if (const QString t = keyType(k); !types.contains(t)) types << t;
  }
  return {counts, types};
}

}  // namespace

int RunRequest::caseCount() const {
  if (family.isEmpty()) return int(kernels.size() * shapes.size());
  const auto [counts, types] = countsAndTypes(shapes);
  return int(kernels.size() * counts.size() * types.size());
}

QString runFamily(const QList<Shape>& shapes, const QStringList& kernelFamilies, QString* error) {
  QSet<QString> named;
  bool gemm = false, anyVector = false;
  for (const Shape& s : shapes) {
    if (!isVectorKey(s)) {
      gemm = true;
    } else if (s.k < 0) {
      named << keyProblem(s);
    } else {
      anyVector = true;
    }
  }
  if (gemm && (anyVector || !named.isEmpty())) {
    *error = "GEMM shapes and 1-D sizes cannot run together: check the shapes of one family.";
    return {};
  }
  if (gemm || shapes.isEmpty()) return "gemm";
  if (named.isEmpty())
    for (const QString& f : kernelFamilies)
      if (f != "gemm") named << f;
  if (named.size() != 1) {
    *error = named.isEmpty()
                 ? "These sizes are of a 1-D family (reduce, scan): check kernels of one."
                 : "The 1-D sizes and kernels name " +
                       QStringList(named.begin(), named.end()).join(" and ") +
                       ": one family runs at a time.";
    return {};
  }
  return *named.begin();
}

QStringList RunRequest::toArguments() const {
  QStringList shapeList;
  for (const Shape& s : shapes) shapeList << QString::fromStdString(toString(s));
  // A user kernel's case comes from --source, not from the engine's registry.
  const QStringList builtIn =
      source.isEmpty() ? kernels : kernels.filter(QRegularExpression("^(?!user\\.)"));
  QStringList args{"run", "--stream"};
  if (source.isEmpty() || !builtIn.isEmpty()) args << "--kernels" << builtIn.join(',');
  if (family.isEmpty()) {
    args << "--shapes" << shapeList.join(',');
  } else {
    const auto [counts, types] = countsAndTypes(shapes);
    args << "--family" << family << "--sizes" << counts.join(',') << "--types" << types.join(',');
  }
  if (!source.isEmpty()) args << "--source" << source;
  if (!suite.isEmpty()) args << "--suite" << suite;  // --shapes and --kernels still choose
  if (samples > 0) args << "--samples" << QString::number(samples);
  if (coldL2) args << "--cold";
  if (seed) args << "--seed" << QString::number(*seed);
  if (device != 0) args << "--device" << QString::number(device);
  return args;
}

}  // namespace kwb::gui
