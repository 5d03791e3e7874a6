// SPDX-License-Identifier: Apache-2.0
#include "engine/remote_failure.h"

#include <QStringList>

namespace kwb::gui {
namespace {

bool mentions(const QString& text, std::initializer_list<const char*> needles) {
  for (const char* n : needles)
    if (text.contains(QLatin1String(n), Qt::CaseInsensitive)) return true;
  return false;
}

// ssh's own line about the failure: the last line that is not a banner of '@'s.
QString lastLine(const QString& text) {
  const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
  for (qsizetype i = lines.size() - 1; i >= 0; --i) {
    QString l = lines[i].trimmed();
    if (!l.isEmpty() && !l.startsWith('@')) return l;
  }
  return {};
}

QString quoted(const QString& text) { return text.isEmpty() ? QString() : " (" + text + ")"; }

}  // namespace

QString describeRemoteFailure(const QString& host, int exitCode, const QString& stderrTail,
                              bool streamBegan) {
  const QString why = quoted(lastLine(stderrTail));
  if (exitCode == 127)
    return QString(
               "kwb was not found on %1%2: install it there, or set its path on %1 in "
               "the Run on list's host settings.")
        .arg(host, why);
  if (exitCode == 126) return QString("kwb on %1 cannot be executed%2.").arg(host, why);
  if (exitCode != 255) return {};
  if (mentions(stderrTail, {"REMOTE HOST IDENTIFICATION HAS CHANGED", "Host key verification",
                            "host key for", "host key is known"}))
    return QString(
               "The host key of %1 does not match the one in your known_hosts, or is not "
               "known yet, so ssh refused to connect%2. Check the key, then run `ssh %1` "
               "once in a terminal to accept it.")
        .arg(host, why);
  if (mentions(stderrTail, {"Permission denied", "Too many authentication failures",
                            "no matching host key", "Authentication failed"}))
    return QString(
               "%1 refused the login%2: ssh had no key it accepts, and kwb-gui never asks "
               "for a password. Add your public key to the host (ssh-copy-id) or load it "
               "into your ssh agent.")
        .arg(host, why);
  if (mentions(stderrTail, {"Could not resolve hostname", "Name or service not known"}))
    return QString("%1 cannot be reached: its name does not resolve%2.").arg(host, why);
  if (!streamBegan &&
      mentions(stderrTail, {"Connection refused", "timed out", "No route to host",
                            "Network is unreachable", "Connection reset", "Connection closed"}))
    return QString("%1 cannot be reached%2.").arg(host, why);
  if (mentions(stderrTail, {"closed by remote host", "not responding", "Broken pipe",
                            "Connection reset", "Connection closed", "timed out"}) ||
      streamBegan)
    return QString("The connection to %1 dropped%2%3.")
        .arg(host, streamBegan ? " during the run" : "", why);
  return QString("ssh could not run kwb on %1%2.").arg(host, why);
}

QString describeProtocolMismatch(const QString& where, int engineVersion, int ourVersion) {
  return QString(
             "The engine on %1 speaks event protocol version %2, but this kwb-gui speaks "
             "version %3; install matching versions of kwb and kwb-gui.")
      .arg(where)
      .arg(engineVersion)
      .arg(ourVersion);
}

}  // namespace kwb::gui
