#pragma once
#include <QString>
#include <functional>

namespace kwb::gui::test {

QString fixture(const QString& name);  // tests/data/<name>
QString sampleRun();                   // the spec-benchmark fixture (40 cases)
QString sampleStream();                // the same run as events
QString baselineRun();
// Spins the event loop until `done` holds or `timeoutMs` passes; returns `done()`.
bool waitFor(const std::function<bool()>& done, int timeoutMs);

}  // namespace kwb::gui::test
