// SPDX-License-Identifier: Apache-2.0
#pragma once
// One kernel's result in this run next to the previous run's (the hot-reload loop of a user
// kernel, docs/BRING_YOUR_OWN.md "In the GUI"): GFLOP/s and the change in %. Two separate
// runs drift, so this is no decision: `kwb ab` (engine/ab_runner.h) decides; the change in %
// is shown only when it cannot, labelled as separate runs.
#include <QList>
#include <QString>
#include <optional>

#include "kwb/results.h"

namespace kwb::gui {

struct KernelChange {
  Shape shape;
  QString status;                   // the case's status, "pass", "fail", ...
  double gflops = 0;                // 0: not timed
  std::optional<double> previous;   // the previous run's GFLOP/s on this shape, if timed
  std::optional<double> changePct;  // (gflops / previous - 1) * 100
  QString line() const;             // "1024x1024x1024: 12345.6 GFLOP/s"
  // line() with the change: "..., +8.2% vs the previous run" (or ", no previous run").
  QString separateRunLine() const;
};

// The cases of `kernel` in `now`, in order, each with the same shape's case in `previous`.
QList<KernelChange> kernelChanges(const RunDocument& now,
                                  const std::optional<RunDocument>& previous,
                                  const std::string& kernel);

}  // namespace kwb::gui
