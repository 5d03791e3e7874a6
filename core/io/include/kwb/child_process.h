// SPDX-License-Identifier: Apache-2.0
#pragma once
// A program run as a child with pipes to its standard input and output, read line by line with
// a time limit (kwb ab's other build of kwb, core/cuda/peer.cpp). Its standard error is this
// process's. The destructor closes its input, waits a moment for it to end, then kills it.
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

}  // namespace kwb
