// SPDX-License-Identifier: Apache-2.0
#pragma once
// One worker of the host pool (kwb/host_pool.h): a long-lived child engine with
// CUDA_VISIBLE_DEVICES set, its requests written to its standard input (a pipe), its standard
// output on a pipe read without blocking, its standard error in a file.
#include <sys/types.h>

#include <string>
#include <vector>

namespace kwb::detail {

class PoolWorker {
 public:
  // Starts `argv` with CUDA_VISIBLE_DEVICES=`gpu` and standard error into `stderrPath`. Throws
  // InputError naming the program when it cannot be started.
  PoolWorker(const std::vector<std::string>& argv, int gpu, const std::string& stderrPath);
  ~PoolWorker();
  PoolWorker(PoolWorker&& other) noexcept;
  PoolWorker& operator=(PoolWorker&&) = delete;
  PoolWorker(const PoolWorker&) = delete;
  PoolWorker& operator=(const PoolWorker&) = delete;

  int outputFd() const { return m_out; }
  // Writes one request line to the worker's standard input; false when the worker is gone.
  bool send(const std::string& line);
  // Closes the worker's standard input: it ends once its current request is done.
  void closeInput();
  bool inputOpen() const { return m_in >= 0; }
  // Reads what is ready; returns the complete lines. Sets ended() at end of output.
  std::vector<std::string> readLines();
  bool ended() const { return m_out < 0; }
  // Waits for the process to exit (after its output ended); then exitCode() or signal().
  void wait();
  void signal(int sig) const;
  int exitCode() const { return m_exitCode; }  // -1 when a signal ended it
  int endSignal() const { return m_signal; }

 private:
  pid_t m_pid = -1;
  int m_out = -1;
  int m_in = -1;
  std::string m_buffer;
  int m_exitCode = -1;
  int m_signal = 0;
  bool m_reaped = false;
};

}  // namespace kwb::detail
