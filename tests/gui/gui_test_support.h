#pragma once
#include <QString>
#include <functional>

#include "kwb/results.h"

namespace kwb::gui::test {

QString fixture(const QString& name);  // tests/data/<name>
QString sampleRun();                   // the spec-benchmark fixture (40 cases)
QString sampleStream();                // the same run as events
QString baselineRun();
// A `kwb conformance` document; `failing`: local_ids_once fails at tile size 16 with offenders.
RunDocument conformanceDocument(bool failing);
// A `kwb tune` document of sgemm.warp_tiled with one configuration that failed verification.
RunDocument tuningDocument();
// Writes `doc` to `path` and returns the path.
QString writeFixture(const RunDocument& doc, const QString& path);
// Spins the event loop until `done` holds or `timeoutMs` passes; returns `done()`.
bool waitFor(const std::function<bool()>& done, int timeoutMs);

}  // namespace kwb::gui::test
