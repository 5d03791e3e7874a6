// SPDX-License-Identifier: Apache-2.0
#include "engine/app_paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "kwb/family.h"

namespace kwb::gui {
namespace {

bool isExecutable(const QString& path) {
  const QFileInfo fi(path);
  return fi.exists() && fi.isFile() && fi.isExecutable();
}

QString firstExistingDir(const QStringList& candidates) {
  for (const auto& c : candidates)
    if (QFileInfo(c).isDir()) return QDir(c).absolutePath();
  return {};
}

QString appDir() { return QCoreApplication::applicationDirPath(); }

// The family a preset file names when this process does not know it; empty otherwise (a known
// family, none named, or a file that is not a JSON object: loadSuite's message says why).
QString unknownFamilyOf(const std::filesystem::path& file) {
  std::ifstream in(file);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object()) return {};
  const auto family = j.find("family");
  if (family == j.end() || !family->is_string()) return {};
  const std::string id = family->get<std::string>();
  return tryFindFamily(id) ? QString() : QString::fromStdString(id);
}

}  // namespace

EnginePath findEngine(const QString& override) {
  if (!override.isEmpty()) return {override, "--engine"};
  const QString setting = QSettings().value("engine/path").toString();
  if (!setting.isEmpty()) return {setting, "setting engine/path"};
  if (const QString beside = appDir() + "/kwb"; isExecutable(beside))
    return {beside, "beside kwb-gui"};
  if (const QString built = QStringLiteral(KWB_GUI_BUILD_ENGINE); isExecutable(built))
    return {built, "build tree"};
  if (const QString onPath = QStandardPaths::findExecutable("kwb"); !onPath.isEmpty())
    return {onPath, "PATH"};
  return {};
}

QString presetsDir() {
  if (const QByteArray env = qgetenv("KWB_PRESETS_DIR"); !env.isEmpty())
    return QString::fromLocal8Bit(env);
  return firstExistingDir(
      {appDir() + "/../share/kwb/presets", QStringLiteral(KWB_GUI_SOURCE_RESOURCES) + "/presets"});
}

QString samplesDir() {
  return firstExistingDir(
      {appDir() + "/../share/kwb/samples", QStringLiteral(KWB_GUI_SOURCE_RESOURCES) + "/samples"});
}

QString newestSample() {
  auto newestIn = [](const QString& dir, const QStringList& patterns) -> QString {
    if (dir.isEmpty()) return {};
    QFileInfoList files = QDir(dir).entryInfoList(patterns, QDir::Files);
    if (files.isEmpty()) return {};
    // Names carry the recording date (spec-benchmark-h100-2026-11-22.json); ties by mtime.
    std::sort(files.begin(), files.end(), [](const QFileInfo& a, const QFileInfo& b) {
      if (a.lastModified() != b.lastModified()) return a.lastModified() > b.lastModified();
      return a.fileName() > b.fileName();
    });
    return files.front().absoluteFilePath();
  };
  const QString samples = samplesDir();
  for (const QStringList& patterns : {QStringList{"spec-benchmark*.json"}, QStringList{"*.json"}}) {
    if (QString f = newestIn(samples, patterns); !f.isEmpty()) return f;
  }
  return newestIn(QStringLiteral(KWB_GUI_SOURCE_TESTDATA), {"gui-sample*.json"});
}

QList<Suite> loadPresets(QStringList* problems, QStringList* waiting) {
  QList<Suite> out;
  const QString dir = presetsDir();
  if (dir.isEmpty()) return out;
  const std::filesystem::path path = dir.toStdString();
  for (const std::string& name : presetNames(path)) {
    try {
      Suite suite = loadSuite(name, path);
      if (!suite.shapes.empty() || !suite.sizes.empty()) out << std::move(suite);
    } catch (const std::exception& e) {
      if (const QString family = unknownFamilyOf(path / (name + ".json")); !family.isEmpty()) {
        if (waiting) *waiting << QString("%1 (%2)").arg(QString::fromStdString(name), family);
      } else if (problems) {
        *problems << QString::fromStdString(e.what());
      }
    }
  }
  return out;
}

}  // namespace kwb::gui
