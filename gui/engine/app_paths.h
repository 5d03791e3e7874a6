#pragma once
#include <QString>
#include <QStringList>

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
// Suites: preset name -> shape texts ("512", "256x384x640").
struct Preset {
  QString name;
  QString description;
  QStringList shapes;
};
QList<Preset> loadPresets();

}  // namespace kwb::gui
