#pragma once
#include <QList>
#include <QStringList>
#include <optional>

#include "kwb/shape.h"

namespace kwb::gui {

// What the user asked to run: one `kwb run --stream` invocation.
struct RunRequest {
  QStringList kernels;
  QList<Shape> shapes;
  int samples = 0;  // 0: the engine's adaptive stopping rule
  bool coldL2 = false;
  std::optional<quint64> seed;
  int device = 0;
  QString source;  // a user kernel's .cu file (kwb run --source); its case is user.<stem>
  QString suite;   // the preset the shapes came from, recorded as settings.suite; empty: none

  int caseCount() const { return int(kernels.size() * shapes.size()); }
  // Arguments for the engine program (never a shell command line).
  QStringList toArguments() const;
};

}  // namespace kwb::gui
