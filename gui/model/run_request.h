// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QList>
#include <QStringList>
#include <optional>

#include "kwb/shape.h"

namespace kwb::gui {

// What the user asked to run: one `kwb run --stream` invocation, of one problem family.
struct RunRequest {
  QStringList kernels;
  QList<Shape> shapes;  // GEMM shapes, or 1-D keys (model/case_size.h) of the family below
  QString family;       // "reduce", "scan": a 1-D run (--family, --sizes, --types); else GEMM
  int samples = 0;      // 0: the engine's adaptive stopping rule
  bool coldL2 = false;
  std::optional<quint64> seed;
  int device = 0;
  QString source;  // a user kernel's .cu file (kwb run --source); its case is user.<stem>
  QString suite;   // the preset the shapes came from, recorded as settings.suite; empty: none

  // A 1-D run times every kernel at every count in every type named by its keys.
  int caseCount() const;
  // Arguments for the engine program (never a shell command line).
  QStringList toArguments() const;
};

// The family of a run of `shapes` with the kernels `kernelFamilies` (each checked kernel's
// problem family): "gemm" for GEMM shapes; for 1-D keys the family they name, else (sizes
// typed by hand name none) the one 1-D family of the kernels. Empty, with `error` set to a
// sentence, when they mix GEMM shapes and 1-D sizes, or name two 1-D families, or none.
QString runFamily(const QList<Shape>& shapes, const QStringList& kernelFamilies, QString* error);

}  // namespace kwb::gui
