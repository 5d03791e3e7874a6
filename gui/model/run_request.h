// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QList>
#include <QStringList>
#include <optional>

#include "kwb/case_size.h"

namespace kwb::gui {

// What the user asked to run: one `kwb run --stream` invocation, of one problem family.
struct RunRequest {
  QStringList kernels;
  QList<CaseSize> sizes;  // of one family: GEMM shapes, or counts and types of a 1-D family
  int samples = 0;        // 0: the engine's adaptive stopping rule
  bool coldL2 = false;
  double energySeconds = 0;  // kwb run --energy SECONDS; 0: none
  std::optional<quint64> seed;
  int device = 0;
  // `--devices`: "all" (every GPU of the engine's host) or a list such as "0,2": a host pool
  // (docs/SCALE_OUT.md) instead of `device`; empty: one device.
  QString devices;
  QString source;  // a user kernel's .cu file (kwb run --source); its case is user.<stem>
  QString suite;   // the preset the shapes came from, recorded as settings.suite; empty: none

  // The family of the sizes when it is not GEMM ("reduce", "histogram": a run with --family and
  // --sizes, each size's whole text); empty for GEMM (--shapes).
  QString family() const;
  // Every kernel at every size.
  int caseCount() const;
  // The case of the user kernel in `source` (user.<file stem>); empty without a source.
  QString userCaseId() const;
  // Arguments for the engine program (never a shell command line).
  QStringList toArguments() const;
};

// The family of a run of `sizes` with the kernels `kernelFamilies` (each checked kernel's
// problem family): "gemm" for GEMM shapes; for other sizes the family they name, else (a size
// typed by hand before any family was known names none: an empty family) the one other family
// of the kernels. Empty, with `error` set to a sentence, when they mix GEMM shapes and other
// sizes, or name two other families, or none.
QString runFamily(const QList<CaseSize>& sizes, const QStringList& kernelFamilies, QString* error);
// `sizes` with the sizes of no family given `family` (see runFamily).
QList<CaseSize> inFamily(QList<CaseSize> sizes, const QString& family);

}  // namespace kwb::gui
