// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the "Your kernel" box says of a `kwb ab` report (docs/BRING_YOUR_OWN.md, "In the
// GUI"): per size, B / A (this save's time over the last good save's), its 95% CI and the
// engine's verdict, exactly as the report has them.
#include <QString>
#include <QStringList>

#include "kwb/ab_report.h"

namespace kwb::gui {

// "1024x1024x1024: B/A 0.8000, 95% CI 0.7990 .. 0.8010: FASTER", followed by "(CUPTI's kernel
// times read B/A 0.9900: not the kernels' alone)" where CUPTI's ratio parts from the timer's
// (kwb/cupti_ratio.h); a size the engine could not compare: "2048x2048x2048: not compared (its
// reason): UNCERTAIN".
QString abLine(const AbResult& r);
QStringList abLines(const AbReport& report);

}  // namespace kwb::gui
