// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace kwb {

// Notices when nobody reads a file descriptor any more: the read end of the pipe, or the peer
// of the socket, behind `fd` was closed. `kwb run --stream` watches its stdout with it, so an
// engine whose reader went away (the GUI cancelled, the ssh connection dropped) stops at the
// next sample instead of running its plan to the end for no one. A write to the closed pipe
// would tell too, but only at the next event, which may be a whole case away.
// Only pipes and sockets are watched; for a terminal or a file closed() stays false.
class OutputWatch {
 public:
  explicit OutputWatch(int fd);
  ~OutputWatch();
  OutputWatch(const OutputWatch&) = delete;
  OutputWatch& operator=(const OutputWatch&) = delete;

  bool watching() const { return m_thread.joinable(); }
  bool closed() const { return m_closed.load(); }
  // Waits until the reader is gone or `timeout` passed; true when it is gone.
  bool waitClosed(std::chrono::milliseconds timeout) const;

 private:
  void run(int fd);

  std::atomic<bool> m_closed{false};
  int m_wake[2] = {-1, -1};  // the destructor writes here to end the thread's poll
  mutable std::mutex m_mutex;
  mutable std::condition_variable m_changed;
  std::thread m_thread;
};

}  // namespace kwb
