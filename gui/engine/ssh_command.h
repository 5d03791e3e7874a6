// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QString>
#include <QStringList>

#include "engine/engine_location.h"

namespace kwb::gui {

// ssh gives up on a host that has not answered in this many seconds, and on a connection
// whose server missed kSshAliveCountMax keep-alives kSshAliveIntervalS apart: a dead
// network ends a run within half a minute instead of hanging the GUI.
inline constexpr int kSshConnectTimeoutS = 10;
inline constexpr int kSshAliveIntervalS = 5;
inline constexpr int kSshAliveCountMax = 3;

// A program and its arguments, for QProcess: never through a local shell.
struct EngineCommand {
  QString program;
  QStringList arguments;
};

// `word` as one word for a POSIX shell: ssh hands the remote command to the login shell of
// the host as one string, so every argument is quoted.
QString shellQuote(const QString& word);

// `kwb ARGS` at `where`: the local program itself, or
//   ssh -T -o BatchMode=yes -o ConnectTimeout=.. -o ServerAliveInterval=.. -o
//   ServerAliveCountMax=..
//       [-J jump] [options] -- host 'kwb' 'ARG'...
// BatchMode: ssh never asks for a password or passphrase; it fails with a message instead.
// -T: no terminal, so the engine's stdout is the event stream byte for byte, and it closes
// when ssh goes away.
EngineCommand engineCommand(const EngineLocation& where, const QString& localProgram,
                            const QStringList& kwbArgs);
// The same ssh line for any remote command `words` (a program and its arguments, such as
// `cat FILE` or `scancel JOB`) at the remote `where`; a leading "~/" of the program is left for
// the remote shell to expand.
EngineCommand remoteCommand(const EngineLocation& where, const QStringList& words);

}  // namespace kwb::gui
