// SPDX-License-Identifier: Apache-2.0
#pragma once
// Child processes, the one way kwb starts one. ChildProcess: a program run as a child with pipes
// to its standard input and output, read line by line with a time limit (kwb ab's other build of
// kwb, core/cuda/peer.cpp); its standard error is this process's, and the destructor closes its
// input, waits a moment for it to end, then kills it. runProcess: a program run to its end with
// its output in files (kwb profile's Nsight Compute).
#include <sys/types.h>

#include <string>
#include <vector>

namespace kwb {

class ChildProcess {
 public:
  // Starts argv[0] (a path, or a name looked up on PATH). Throws InputError naming the program
  // when it cannot be started.
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes `line` and a newline. Throws InputError when the child no longer reads.
  void writeLine(const std::string& line);
  // The next line of its output (without the newline). Throws InputError when none came within
  // `timeoutS` seconds, when the output ended (naming how the child ended) or when a line is
  // longer than `maxBytes`.
  std::string readLine(double timeoutS, std::size_t maxBytes = std::size_t(64) << 20);
  // How the child ended, once its output has ended: "exit status 2", "signal 9", or "running".
  std::string endState();
  const std::string& program() const { return m_program; }

 private:
  std::string m_program;
  pid_t m_pid = -1;
  int m_in = -1;   // its standard input
  int m_out = -1;  // its standard output
  std::string m_buffer;
  int m_status = 0;
  bool m_reaped = false;
};

// How a program run by runProcess ended.
struct ProcessResult {
  int exitCode = -1;      // -1 when it did not exit normally
  int signal = 0;         // the signal that ended it, if any
  bool timedOut = false;  // killed after the time limit
};

// Runs argv[0] (a path, or a name looked up on PATH) with standard input from /dev/null and
// standard output and error written to the given files, and waits at most `timeoutS` seconds
// (then kills it with SIGKILL). Throws InputError when it cannot be started, naming the program.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& stdoutPath,
                         const std::string& stderrPath, double timeoutS);

}  // namespace kwb
