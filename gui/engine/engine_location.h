// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QList>
#include <QString>
#include <QStringList>

class QSettings;

namespace kwb::gui {

// Where the engine runs: this machine, or a GPU server reached with the system's ssh client
// (README, "Run on a GPU server"). The user's keys and agent log in; no password is stored
// or asked for.
struct EngineLocation {
  QString host;            // ssh destination (user@gpu-box, an ssh_config alias); empty: local
  QString kwbPath;         // the engine on the host; empty: `kwb` on the host's PATH
  QString jumpHost;        // ssh -J; empty: none
  QStringList sshOptions;  // more ssh arguments, e.g. {"-p", "2222"} or {"-F", "config"}

  bool isLocal() const { return host.isEmpty(); }
  // "local", or the host as the user wrote it: the combo's text and every message's name.
  QString label() const { return isLocal() ? QStringLiteral("local") : host; }
  QString remoteKwb() const { return kwbPath.isEmpty() ? QStringLiteral("kwb") : kwbPath; }
  bool operator==(const EngineLocation&) const = default;
};

// Empty, or a sentence naming the field and what is wrong with it. ssh would read a host or
// jump host starting with '-' as an option, and a space or newline cannot be in one.
QString validateLocation(const EngineLocation& where);
// `--remote user@host` and the saved hosts: the saved entry of that host (its path and jump
// host), else a new location with just the host.
EngineLocation locationFor(const QString& host, const QList<EngineLocation>& saved);

// The saved hosts (QSettings "engine/hosts") and the one chosen to run on ("engine/runOn":
// a host, or "local").
QList<EngineLocation> loadLocations(QSettings& settings);
void saveLocations(QSettings& settings, const QList<EngineLocation>& hosts);
QString loadRunOn(QSettings& settings);
void saveRunOn(QSettings& settings, const QString& label);

}  // namespace kwb::gui
