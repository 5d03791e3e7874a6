// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QProcess>

namespace kwb::gui {

// The engine processes of kwb-gui (the local kwb, or the ssh that carries a remote one) never
// outlive it (docs/RELIABILITY.md, "When the engine breaks"):
//  - each starts in a process group of its own, so ending it ends what it started too, and
//    a Ctrl-C in kwb-gui's terminal reaches kwb-gui, which stops it, not the engine directly;
//  - each is killed by the kernel when kwb-gui dies, however it dies (PR_SET_PDEATHSIG);
//  - the ones still running can be signalled all at once (kwb-gui on SIGTERM, SIGINT, SIGHUP).
// Sets `process` up so before it is started; it is signalled by signalAllEngines until it is
// destroyed or forget() is called.
void superviseEngineProcess(QProcess& process);
void forgetEngineProcess(QProcess& process);
// Sends `signal` to the process group of `process` (to the process alone where it has no
// group of its own); nothing when it is not running.
void signalEngineGroup(const QProcess& process, int signal);
// signalEngineGroup for every supervised process; the number signalled.
int signalAllEngines(int signal);

}  // namespace kwb::gui
