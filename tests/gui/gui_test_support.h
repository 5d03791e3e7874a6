// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QString>
#include <functional>

#include "kwb/results.h"

namespace kwb::gui {
struct WindowOptions;
}

namespace kwb::gui::test {

QString fixture(const QString& name);  // tests/data/<name>
QString bundled(const QString& name);  // resources/samples/<name>: real recorded results
QString sampleRun();                   // the bundled spec-benchmark run recorded on an H100
QString sampleStream();                // the same run as its recorded event stream
QString baselineRun();                 // the bundled scaling run: shares three shapes
// Synthetic fixtures (tests/data, make_gui_fixtures) for what the real run does not have: a
// FAIL, an ERROR, a canary hit, a fallback next to them, a stage slower than the one before.
QString syntheticRun();
QString syntheticBaseline();
// A `kwb conformance` document; `failing`: local_ids_once fails at tile size 16 with offenders.
RunDocument conformanceDocument(bool failing);
// A `kwb tune` document of sgemm.warp_tiled with one configuration that failed verification.
RunDocument tuningDocument();
// A test window's options: no `kwb list` / `kwb device` probe at start, no saved settings.
WindowOptions quietWindow();
// Writes `doc` to `path` and returns the path.
QString writeFixture(const RunDocument& doc, const QString& path);
// Spins the event loop until `done` holds or `timeoutMs` passes; returns `done()`.
bool waitFor(const std::function<bool()>& done, int timeoutMs);

}  // namespace kwb::gui::test
