// SPDX-License-Identifier: Apache-2.0
#include "ssh_fixture.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QStandardPaths>

namespace kwb::gui::test {
namespace {

// A port nothing listens on now: the kernel's choice for a socket bound to port 0.
int freePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  const bool ok = fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
  if (fd >= 0) close(fd);
  return ok ? ntohs(a.sin_port) : 0;
}

bool writeFile(const QString& path, const QByteArray& text, QFile::Permissions perms) {
  QFile f(path);
  return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size() &&
         f.setPermissions(perms);
}

QByteArray readFile(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// sshd's StrictModes refuses keys in a directory that another user could write to, up to /.
bool strictModesHold(const QString& path) {
  for (QDir d(path);; d.cdUp()) {
    struct stat st {};
    if (stat(QFile::encodeName(d.absolutePath()).constData(), &st) != 0) return false;
    if ((st.st_uid != 0 && st.st_uid != getuid()) || (st.st_mode & 022)) return false;
    if (d.isRoot()) return true;
  }
}

// ppid and name of a process, from /proc/PID/stat ("pid (comm) state ppid ...").
bool procStat(qint64 pid, qint64& ppid, QString& comm) {
  const QByteArray stat = readFile(QString("/proc/%1/stat").arg(pid));
  const qsizetype open = stat.indexOf('('), close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return false;
  comm = QString::fromUtf8(stat.mid(open + 1, close - open - 1));
  const QList<QByteArray> rest = stat.mid(close + 2).split(' ');
  if (rest.size() < 2) return false;
  ppid = rest[1].toLongLong();
  return true;
}

QList<qint64> allPids() {
  QList<qint64> out;
  for (const QString& e : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
    bool ok = false;
    const qint64 pid = e.toLongLong(&ok);
    if (ok) out << pid;
  }
  return out;
}

}  // namespace

SshFixture::SshFixture() : m_dir(QStringLiteral(KWB_BINARY_DIR "/ssh-fixture-XXXXXX")) {
  m_sshdPath = QStandardPaths::findExecutable("sshd", {"/usr/sbin", "/usr/local/sbin", "/sbin"});
  if (m_sshdPath.isEmpty()) m_sshdPath = QStandardPaths::findExecutable("sshd");
  if (m_sshdPath.isEmpty())
    m_absent = "no OpenSSH server (sshd) is installed; scripts/install-deps.sh installs it";
  else if (QStandardPaths::findExecutable("ssh").isEmpty() ||
           QStandardPaths::findExecutable("ssh-keygen").isEmpty())
    m_absent = "no OpenSSH client (ssh, ssh-keygen) is installed";
  if (const passwd* pw = getpwuid(getuid())) m_user = QString::fromLocal8Bit(pw->pw_name);
}

SshFixture::~SshFixture() {
  if (m_sshd.state() != QProcess::NotRunning) {
    dropSessions();
    m_sshd.kill();
    m_sshd.waitForFinished(5000);
  }
}

bool SshFixture::keygen(const QString& name) {
  QProcess p;
  p.start("ssh-keygen",
          {"-q", "-t", "ed25519", "-N", "", "-C", "kwb-test " + name, "-f", m_dir.filePath(name)});
  if (p.waitForFinished(20000) && p.exitCode() == 0) return true;
  m_error = QString("ssh-keygen could not make the key %1: %2")
                .arg(name, QString::fromLocal8Bit(p.readAllStandardError()).trimmed());
  return false;
}

bool SshFixture::writeConfigs() {
  const QString d = m_dir.path();
  const QFile::Permissions owner = QFile::ReadOwner | QFile::WriteOwner;
  const bool strict = strictModesHold(d);
  const QByteArray sshd = QString(
                              "ListenAddress 127.0.0.1\n"
                              "Port %1\n"
                              "HostKey %2/host_key\n"
                              "PidFile none\n"
                              "AuthorizedKeysFile %2/authorized_keys\n"
                              // A build tree under a group-writable directory would fail
                              // the check for reasons that are no part of the tests.
                              "StrictModes %3\n"
                              "UsePAM no\n"
                              "PasswordAuthentication no\n"
                              "KbdInteractiveAuthentication no\n"
                              "PubkeyAuthentication yes\n"
                              "PermitRootLogin prohibit-password\n"
                              "AllowUsers %4\n"
                              "LogLevel VERBOSE\n")
                              .arg(m_port)
                              .arg(d, strict ? "yes" : "no", m_user)
                              .toUtf8();
  // One client configuration per way of logging in: the right keys, a known_hosts holding
  // another key for the server, a user key the server does not accept.
  const auto client = [&](const QString& userKey, const QString& knownHosts) {
    return QString(
               "Host kwb-test\n"
               "  HostName 127.0.0.1\n"
               "  Port %1\n"
               "  User %2\n"
               "  IdentityFile %3/%4\n"
               "  IdentitiesOnly yes\n"
               "  IdentityAgent none\n"
               "  HostKeyAlias kwb-test\n"
               "  UserKnownHostsFile %3/%5\n"
               "  GlobalKnownHostsFile /dev/null\n"
               "  StrictHostKeyChecking yes\n"
               "  PasswordAuthentication no\n"
               "  KbdInteractiveAuthentication no\n")
        .arg(m_port)
        .arg(m_user, d, userKey, knownHosts)
        .toUtf8();
  };
  return writeFile(d + "/sshd_config", sshd, owner) &&
         writeFile(d + "/authorized_keys", readFile(d + "/user_key.pub"), owner) &&
         writeFile(d + "/known_hosts", "kwb-test " + readFile(d + "/host_key.pub"), owner) &&
         writeFile(d + "/known_hosts_forged", "kwb-test " + readFile(d + "/other_host_key.pub"),
                   owner) &&
         writeFile(d + "/ssh_config", client("user_key", "known_hosts"), owner) &&
         writeFile(d + "/ssh_config_forged", client("user_key", "known_hosts_forged"), owner) &&
         writeFile(d + "/ssh_config_unknown", client("other_user_key", "known_hosts"), owner);
}

bool SshFixture::start() {
  if (!m_absent.isEmpty()) {
    m_error = m_absent;
    return false;
  }
  if (!m_dir.isValid() || m_user.isEmpty()) {
    m_error = "no temporary directory or no user name for the ssh fixture";
    return false;
  }
  if (geteuid() == 0 && !QDir("/run/sshd").exists() && !QDir().mkpath("/run/sshd")) {
    m_error = "sshd runs as root here and needs /run/sshd, which could not be created";
    return false;
  }
  for (const char* key : {"host_key", "other_host_key", "user_key", "other_user_key"})
    if (!keygen(key)) return false;
  // Another process may take the port between the probe and sshd's bind: try a few.
  for (int attempt = 0; attempt < 5; ++attempt) {
    m_port = freePort();
    if (m_port == 0 || !writeConfigs()) {
      m_error = "could not pick a port or write the ssh configuration in " + dir();
      return false;
    }
    if (launch()) return true;
  }
  return false;
}

bool SshFixture::launch() {
  m_sshd.setProcessChannelMode(QProcess::MergedChannels);
  m_sshd.start(m_sshdPath, {"-D", "-e", "-f", m_dir.filePath("sshd_config")});
  QByteArray log;
  QElapsedTimer clock;
  clock.start();
  while (clock.elapsed() < 20000) {
    if (!m_sshd.waitForReadyRead(200) && m_sshd.state() == QProcess::NotRunning) break;
    log += m_sshd.readAll();
    if (log.contains("Server listening on")) {
      m_sshd.setReadChannel(QProcess::StandardOutput);
      return true;
    }
  }
  log += m_sshd.readAll();
  m_sshd.kill();
  m_sshd.waitForFinished(5000);
  m_error = QString("sshd (%1) did not start listening on port %2: %3")
                .arg(m_sshdPath)
                .arg(m_port)
                .arg(QString::fromLocal8Bit(log).trimmed());
  return false;
}

EngineLocation SshFixture::location(const QString& kwbPath, const QString& config) const {
  EngineLocation l;
  l.host = "kwb-test";
  l.kwbPath = kwbPath;
  l.sshOptions = {"-F", m_dir.filePath(config)};
  return l;
}

EngineLocation SshFixture::withForgedHostKey(const QString& kwbPath) const {
  return location(kwbPath, "ssh_config_forged");
}

EngineLocation SshFixture::withUnknownUserKey(const QString& kwbPath) const {
  return location(kwbPath, "ssh_config_unknown");
}

EngineLocation SshFixture::withClosedPort(const QString& kwbPath) const {
  EngineLocation l = location(kwbPath);
  l.sshOptions << "-o" << QString("Port=%1").arg(freePort());
  return l;
}

QString SshFixture::marker(const QString& name) const { return m_dir.filePath("engine-" + name); }

QString SshFixture::writeEngine(const QString& name, const QMap<QString, QString>& env) const {
  const QString link = marker(name);
  QFile::remove(link);
  QFile::link(QStringLiteral(KWB_FAKE_ENGINE), link);
  QByteArray script = "#!/bin/sh\n";
  for (auto it = env.begin(); it != env.end(); ++it)
    script += "export " + it.key().toUtf8() + "='" + it.value().toUtf8() + "'\n";
  script += "exec '" + link.toUtf8() + "' \"$@\"\n";
  const QString path = m_dir.filePath("kwb-" + name);
  writeFile(path, script, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  return path;
}

QList<qint64> SshFixture::processesWith(const QString& text) {
  QList<qint64> out;
  const QByteArray needle = text.toUtf8();
  for (qint64 pid : allPids()) {
    QByteArray cmd = readFile(QString("/proc/%1/cmdline").arg(pid));
    cmd.replace('\0', ' ');
    if (pid != getpid() && cmd.contains(needle)) out << pid;
  }
  return out;
}

int SshFixture::dropSessions() const {
  const qint64 listener = m_sshd.processId();
  if (listener <= 0) return 0;
  QList<qint64> family{listener}, victims;
  for (bool grew = true; grew;) {
    grew = false;
    for (qint64 pid : allPids()) {
      qint64 ppid = 0;
      QString comm;
      if (family.contains(pid) || !procStat(pid, ppid, comm) || !family.contains(ppid)) continue;
      family << pid;
      grew = true;
      if (comm.startsWith("sshd")) victims << pid;
    }
  }
  for (qint64 pid : victims) ::kill(pid_t(pid), SIGKILL);
  return int(victims.size());
}

}  // namespace kwb::gui::test
