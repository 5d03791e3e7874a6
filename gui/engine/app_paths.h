// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QString>
#include <QStringList>

#include "kwb/preset.h"

namespace kwb::gui {

// Where kwb-gui finds its engine, presets and bundled sample results.
struct EnginePath {
  QString program;  // empty when no engine was found
  QString how;      // "setting", "beside kwb-gui", ... for the Log and error messages
};

// Order: `override` (--engine), the "engine/path" setting, `kwb` beside kwb-gui, the build
// tree's kwb, then PATH.
EnginePath findEngine(const QString& override = {});
QString presetsDir();
QString samplesDir();
// Newest bundled results: resources/samples (installed or source tree), preferring
// spec-benchmark-*.json; falls back to the synthetic fixture in tests/data of a source build.
QString newestSample();
// The preset suites of presetsDir(), read by kwb::loadSuite as the engine reads them; a preset
// that does not load is left out and named in `problems` when given, except one whose family
// this process does not know yet (it learns the engine's families from the engine: gui/engine/
// engine_families.h), which is left out and named in `waiting` as "name (family)".
QList<Suite> loadPresets(QStringList* problems = nullptr, QStringList* waiting = nullptr);

}  // namespace kwb::gui
