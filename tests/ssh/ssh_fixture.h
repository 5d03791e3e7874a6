// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QList>
#include <QMap>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include "engine/engine_location.h"

namespace kwb::gui::test {

// A real OpenSSH server on 127.0.0.1 for the remote-engine tests, logging in the current user
// with a throw-away key: host and user keys are generated into a fresh directory under the
// build tree, with its own authorized_keys, known_hosts and client config, so nothing of the
// user's ~/.ssh is read or changed. Runs as the current user; as root (CI), sshd needs its
// privilege separation directory, which is created when missing.
class SshFixture {
 public:
  SshFixture();
  ~SshFixture();

  // Starts sshd and waits until it listens. False with error() saying why.
  bool start();
  // Non-empty when sshd, ssh or ssh-keygen is not installed: the only reason to skip.
  QString absentReason() const { return m_absent; }
  QString error() const { return m_error; }
  QString dir() const { return m_dir.path(); }
  int port() const { return m_port; }

  // The server as an engine location, host alias "kwb-test"; `kwbPath` is the engine there.
  EngineLocation location(const QString& kwbPath, const QString& config = "ssh_config") const;
  // The same with a known_hosts holding another key for the server / a key it does not accept
  // / a port where nothing listens.
  EngineLocation withForgedHostKey(const QString& kwbPath) const;
  EngineLocation withUnknownUserKey(const QString& kwbPath) const;
  EngineLocation withClosedPort(const QString& kwbPath) const;

  // Writes an engine `name` for the server to run: the fake engine started with `env`, under
  // a path unique to this fixture (marker()), so its processes can be found.
  QString writeEngine(const QString& name, const QMap<QString, QString>& env) const;
  QString marker(const QString& name) const;
  // Pids whose command line contains `text`.
  static QList<qint64> processesWith(const QString& text);
  // Kills the sshd processes serving sessions (the listener's descendants named sshd), as a
  // network failure would end them; returns how many were killed.
  int dropSessions() const;

 private:
  bool keygen(const QString& name);
  bool writeConfigs();
  bool launch();

  QTemporaryDir m_dir;
  QProcess m_sshd;
  QString m_sshdPath, m_user, m_absent, m_error;
  int m_port = 0;
};

}  // namespace kwb::gui::test
