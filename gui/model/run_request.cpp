// SPDX-License-Identifier: Apache-2.0
#include "model/run_request.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include "model/case_size.h"

namespace kwb::gui {

QString RunRequest::family() const {
  if (sizes.isEmpty() || isGemm(sizes.front())) return {};
  return QString::fromStdString(sizes.front().family);
}

int RunRequest::caseCount() const { return int(kernels.size() * sizes.size()); }

QString runFamily(const QList<CaseSize>& sizes, const QStringList& kernelFamilies, QString* error) {
  QSet<QString> named;
  bool gemm = false, unnamed = false;
  for (const CaseSize& s : sizes) {
    if (isGemm(s))
      gemm = true;
    else if (s.family.empty())
      unnamed = true;
    else
      named << QString::fromStdString(s.family);
  }
  if (gemm && (unnamed || !named.isEmpty())) {
    *error = "GEMM shapes and 1-D sizes cannot run together: check the shapes of one family.";
    return {};
  }
  if (gemm || sizes.isEmpty()) return "gemm";
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

QList<CaseSize> inFamily(QList<CaseSize> sizes, const QString& family) {
  for (CaseSize& s : sizes)
    if (s.family.empty()) s.family = family.toStdString();
  return sizes;
}

QString RunRequest::userCaseId() const {
  return source.isEmpty() ? QString() : "user." + QFileInfo(source).completeBaseName();
}

QStringList RunRequest::toArguments() const {
  QStringList shapeList;
  for (const CaseSize& s : sizes) shapeList << QString::fromStdString(sizeLabel(s));
  // A user kernel's case comes from --source, not from the engine's registry: --kernels names
  // the built-in kernels, or the user case alone (else kwb would add cuBLAS beside it), and a
  // request without the user case passes no --source (a new engine's cases left after a crash).
  const bool runsUser = !source.isEmpty() && kernels.contains(userCaseId());
  const QStringList builtIn =
      source.isEmpty() ? kernels : kernels.filter(QRegularExpression("^(?!user\\.)"));
  QStringList args{"run", "--stream", "--kernels"};
  args << (runsUser && builtIn.isEmpty() ? userCaseId() : builtIn.join(','));
  // Every size whole, as its family's axes read it (`kwb run --sizes`, kwb/run_sizes.h): the
  // checked sizes and no others run, whatever axes the family has (a histogram's bins and
  // distribution), where a count list crossed with a type list ran sizes nobody checked.
  if (const QString f = family(); f.isEmpty())
    args << "--shapes" << shapeList.join(',');
  else
    args << "--family" << f << "--sizes" << shapeList.join(',');
  if (runsUser) args << "--source" << source;
  if (!suite.isEmpty()) args << "--suite" << suite;  // --shapes and --kernels still choose
  if (samples > 0) args << "--samples" << QString::number(samples);
  if (coldL2) args << "--cold";
  if (energySeconds > 0) args << "--energy" << QString::number(energySeconds);
  if (seed) args << "--seed" << QString::number(*seed);
  if (!devices.isEmpty())
    args << "--devices" << devices;
  else if (device != 0)
    args << "--device" << QString::number(device);
  return args;
}

}  // namespace kwb::gui
