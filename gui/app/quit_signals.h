// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace kwb::gui {

// SIGTERM, SIGINT and SIGHUP end kwb-gui cleanly: the handler only writes the signal to a pipe;
// a QSocketNotifier on the pipe's other end, in the event loop, stops every engine process
// (engine_process.h) and makes the application exit with 128 + the signal. A second signal
// before that (an event loop that does not run) ends kwb-gui at once, and the kernel then ends
// its engines (PR_SET_PDEATHSIG). Call once, after the QApplication is made.
void installQuitSignals();
// The signal that asked kwb-gui to quit; 0 when none did.
int quitSignal();

}  // namespace kwb::gui
