// SPDX-License-Identifier: Apache-2.0
#include "engine/engine_location.h"

#include <QSettings>

namespace kwb::gui {
namespace {

QString checkHostField(const QString& value, const QString& field) {
  if (value.startsWith('-'))
    return QString("The %1 '%2' starts with '-', which ssh would read as an option.")
        .arg(field, value);
  for (QChar c : value)
    if (c.isSpace() || c.category() == QChar::Other_Control)
      return QString("The %1 '%2' contains a space or control character.").arg(field, value);
  return {};
}

}  // namespace

QString validateLocation(const EngineLocation& where) {
  if (where.isLocal()) return {};
  if (where.host == "local") return "The host 'local' is the name of this machine's entry.";
  if (QString e = checkHostField(where.host, "host"); !e.isEmpty()) return e;
  if (QString e = checkHostField(where.jumpHost, "jump host"); !e.isEmpty()) return e;
  if (where.kwbPath.contains('\n') || where.kwbPath.contains(QChar(0)))
    return QString("The path of kwb on %1 contains a line break.").arg(where.host);
  return {};
}

EngineLocation locationFor(const QString& host, const QList<EngineLocation>& saved) {
  for (const EngineLocation& l : saved)
    if (l.host == host) return l;
  EngineLocation l;
  l.host = host == "local" ? QString() : host;
  return l;
}

QList<EngineLocation> loadLocations(QSettings& settings) {
  QList<EngineLocation> out;
  const int n = settings.beginReadArray("engine/hosts");
  for (int i = 0; i < n; ++i) {
    settings.setArrayIndex(i);
    EngineLocation l;
    l.host = settings.value("host").toString();
    l.kwbPath = settings.value("kwbPath").toString();
    l.jumpHost = settings.value("jumpHost").toString();
    l.sshOptions = settings.value("sshOptions").toStringList();
    // A hand-edited or damaged entry is dropped rather than handed to ssh.
    if (!l.isLocal() && validateLocation(l).isEmpty()) out << l;
  }
  settings.endArray();
  return out;
}

void saveLocations(QSettings& settings, const QList<EngineLocation>& hosts) {
  settings.remove("engine/hosts");
  settings.beginWriteArray("engine/hosts", int(hosts.size()));
  for (int i = 0; i < hosts.size(); ++i) {
    settings.setArrayIndex(i);
    settings.setValue("host", hosts[i].host);
    settings.setValue("kwbPath", hosts[i].kwbPath);
    settings.setValue("jumpHost", hosts[i].jumpHost);
    settings.setValue("sshOptions", hosts[i].sshOptions);
  }
  settings.endArray();
}

QString loadRunOn(QSettings& settings) {
  return settings.value("engine/runOn", "local").toString();
}

void saveRunOn(QSettings& settings, const QString& label) {
  settings.setValue("engine/runOn", label);
}

}  // namespace kwb::gui
