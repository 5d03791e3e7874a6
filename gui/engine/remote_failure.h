// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QString>

namespace kwb::gui {

// Why an engine reached over ssh ended, as one sentence naming the host and the cause; empty
// when neither ssh nor the remote shell failed (the engine's own exit code then says why).
// ssh exits 255 for its own failures and prints the reason on stderr; a remote shell exits
// 127 for a command it cannot find and 126 for one it cannot execute.
//   exitCode     the ssh process's exit code
//   stderrTail   its last lines of stderr (ssh's and the remote command's)
//   streamBegan  an event had arrived: a connection failure is then a drop mid-run
QString describeRemoteFailure(const QString& host, int exitCode, const QString& stderrTail,
                              bool streamBegan);

// The engine at `where` speaks another protocol version than this kwb-gui.
QString describeProtocolMismatch(const QString& where, int engineVersion, int ourVersion);

}  // namespace kwb::gui
