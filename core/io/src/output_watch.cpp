// SPDX-License-Identifier: Apache-2.0
#include "kwb/output_watch.h"

#include <cerrno>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kwb {

OutputWatch::OutputWatch(int fd) {
  struct stat st {};
  if (fstat(fd, &st) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) return;
  if (pipe(m_wake) != 0) return;
  m_thread = std::thread([this, fd] { run(fd); });
}

OutputWatch::~OutputWatch() {
  if (m_thread.joinable()) {
    const char byte = 0;
    while (write(m_wake[1], &byte, 1) < 0 && errno == EINTR) {
    }
    m_thread.join();
  }
  for (int end : m_wake)
    if (end >= 0) close(end);
}

bool OutputWatch::waitClosed(std::chrono::milliseconds timeout) const {
  std::unique_lock lock(m_mutex);
  return m_changed.wait_for(lock, timeout, [this] { return m_closed.load(); });
}

void OutputWatch::run(int fd) {
  // No events asked for: poll still reports POLLERR (a pipe whose reader closed) and POLLHUP
  // (a socket whose peer closed), and nothing else, so it sleeps until one of those happens.
  pollfd fds[2] = {{fd, 0, 0}, {m_wake[0], POLLIN, 0}};
  for (;;) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    if (fds[0].revents & POLLNVAL) return;  // the descriptor was closed here: nothing to watch
    if (fds[0].revents & (POLLERR | POLLHUP)) {
      {
        std::lock_guard lock(m_mutex);
        m_closed = true;
      }
      m_changed.notify_all();
      return;
    }
  }
}

}  // namespace kwb
