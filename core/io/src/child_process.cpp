// SPDX-License-Identifier: Apache-2.0
#include "kwb/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <csignal>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>

#include "kwb/error.h"

extern char** environ;

namespace kwb {
namespace {

using Clock = std::chrono::steady_clock;

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Starts argv[0] with `files` applied; returns posix_spawnp's result (0: started).
int spawn(const std::vector<std::string>& argv, const posix_spawn_file_actions_t& files,
          pid_t& pid) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  return posix_spawnp(&pid, args[0], &files, nullptr, args.data(), environ);
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv)
    : m_program(argv.empty() ? std::string() : argv[0]) {
  if (argv.empty()) throw InputError("no program to start");
  int toChild[2], fromChild[2];
  if (::pipe2(toChild, O_CLOEXEC) != 0)
    throw InputError("cannot start '" + m_program + "': " + std::strerror(errno));
  if (::pipe2(fromChild, O_CLOEXEC) != 0) {
    ::close(toChild[0]);
    ::close(toChild[1]);
    throw InputError("cannot start '" + m_program + "': " + std::strerror(errno));
  }
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_adddup2(&files, toChild[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&files, fromChild[1], STDOUT_FILENO);
  const int rc = spawn(argv, files, m_pid);
  posix_spawn_file_actions_destroy(&files);
  ::close(toChild[0]);
  ::close(fromChild[1]);
  m_in = toChild[1];
  m_out = fromChild[0];
  if (rc != 0) {
    closeFd(m_in);
    closeFd(m_out);
    m_reaped = true;
    throw InputError("cannot start '" + m_program + "': " + std::strerror(rc));
  }
  ::signal(SIGPIPE, SIG_IGN);  // a child that stopped reading is an error on write, not death
}

ChildProcess::~ChildProcess() {
  closeFd(m_in);  // a child reading its commands ends at end of input
  closeFd(m_out);
  if (m_reaped) return;
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  while (Clock::now() < deadline) {
    if (::waitpid(m_pid, &m_status, WNOHANG) == m_pid) return;
    ::poll(nullptr, 0, 20);  // waits for the child's exit, bounded by the deadline
  }
  ::kill(m_pid, SIGKILL);
  ::waitpid(m_pid, &m_status, 0);
}

void ChildProcess::writeLine(const std::string& line) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(m_in, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw InputError("'" + m_program + "' stopped reading its input (" + endState() + ")");
    done += std::size_t(n);
  }
}

std::string ChildProcess::readLine(double timeoutS, std::size_t maxBytes) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeoutS);
  for (;;) {
    if (const auto nl = m_buffer.find('\n'); nl != std::string::npos) {
      std::string line = m_buffer.substr(0, nl);
      m_buffer.erase(0, nl + 1);
      return line;
    }
    if (m_buffer.size() > maxBytes)
      throw InputError("'" + m_program + "' wrote a line longer than " + std::to_string(maxBytes) +
                       " bytes");
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0)
      throw InputError("'" + m_program + "' did not answer within " +
                       (std::ostringstream() << timeoutS).str() + " s");
    pollfd p{m_out, POLLIN, 0};
    const int ready = ::poll(&p, 1, int(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR)
      throw InputError("cannot read from '" + m_program + "': " + std::strerror(errno));
    if (ready <= 0) continue;
    char chunk[65536];
    const ssize_t n = ::read(m_out, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      for (int i = 0; i < 100 && endState() == "running"; ++i)
        ::poll(nullptr, 0, 20);  // its output ended: give it a moment to exit and say how
      throw InputError("'" + m_program + "' ended (" + endState() + ")");
    }
    m_buffer.append(chunk, std::size_t(n));
  }
}

std::string ChildProcess::endState() {
  if (!m_reaped && ::waitpid(m_pid, &m_status, WNOHANG) == m_pid) m_reaped = true;
  if (!m_reaped) return "running";
  if (WIFEXITED(m_status)) return "exit status " + std::to_string(WEXITSTATUS(m_status));
  if (WIFSIGNALED(m_status)) return "signal " + std::to_string(WTERMSIG(m_status));
  return "ended";
}

ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& stdoutPath,
                         const std::string& stderrPath, double timeoutS) {
  if (argv.empty()) throw InputError("no program to start");
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, stdoutPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&files, STDERR_FILENO, stderrPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int rc = spawn(argv, files, pid);
  posix_spawn_file_actions_destroy(&files);
  if (rc != 0) throw InputError("cannot start '" + argv[0] + "': " + std::strerror(rc));

  ProcessResult r;
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeoutS);
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) throw InputError("lost track of '" + argv[0] + "'");
    if (Clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      r.timedOut = true;
      break;
    }
    ::poll(nullptr, 0, 20);  // polls the child's exit, bounded by the deadline
  }
  if (WIFEXITED(status)) r.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace kwb
