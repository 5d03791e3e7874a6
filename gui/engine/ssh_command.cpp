// SPDX-License-Identifier: Apache-2.0
#include "engine/ssh_command.h"

namespace kwb::gui {

QString shellQuote(const QString& word) {
  static const QString safe = "@%+=:,./-_";
  bool plain = !word.isEmpty();
  for (QChar c : word)
    plain = plain && c.unicode() < 128 && (c.isLetterOrNumber() || safe.contains(c));
  if (plain) return word;
  QString out = word;
  out.replace('\'', "'\\''");
  return '\'' + out + '\'';
}

EngineCommand engineCommand(const EngineLocation& where, const QString& localProgram,
                            const QStringList& kwbArgs) {
  if (where.isLocal()) return {localProgram, kwbArgs};
  return remoteCommand(where, QStringList{where.remoteKwb()} + kwbArgs);
}

EngineCommand remoteCommand(const EngineLocation& where, const QStringList& words) {
  // "~/bin/kwb": the tilde is left for the remote shell to expand.
  const QString path = words.value(0);
  QString remote = path.startsWith("~/") ? "~/" + shellQuote(path.mid(2)) : shellQuote(path);
  for (qsizetype i = 1; i < words.size(); ++i) remote += ' ' + shellQuote(words[i]);
  QStringList args{"-T",
                   "-o",
                   "BatchMode=yes",
                   "-o",
                   QString("ConnectTimeout=%1").arg(kSshConnectTimeoutS),
                   "-o",
                   QString("ServerAliveInterval=%1").arg(kSshAliveIntervalS),
                   "-o",
                   QString("ServerAliveCountMax=%1").arg(kSshAliveCountMax)};
  if (!where.jumpHost.isEmpty()) args << "-J" << where.jumpHost;
  args << where.sshOptions << "--" << where.host << remote;
  return {"ssh", args};
}

}  // namespace kwb::gui
