// SPDX-License-Identifier: Apache-2.0
#include "pool_worker.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "kwb/error.h"
#include "kwb/visible_devices.h"

extern char** environ;

namespace kwb::detail {
namespace {

// This process's environment with CUDA_VISIBLE_DEVICES naming only `gpu`, an index among the
// devices this process sees: the entry of this process's own CUDA_VISIBLE_DEVICES at that index
// when it has one (CUDA_VISIBLE_DEVICES=2,3: GPU 1 is "3"), else the index itself.
std::vector<std::string> pinnedEnvironment(int gpu) {
  std::vector<std::string> env;
  std::string pinned = std::to_string(gpu);
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "CUDA_VISIBLE_DEVICES=", 21) != 0) {
      env.emplace_back(*e);
      continue;
    }
    const std::vector<std::string> visible = visibleDeviceEntries(*e + 21);
    if (gpu >= 0 && std::size_t(gpu) < visible.size()) pinned = visible[std::size_t(gpu)];
  }
  env.push_back("CUDA_VISIBLE_DEVICES=" + pinned);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& texts) {
  std::vector<char*> out;
  out.reserve(texts.size() + 1);
  for (auto& t : texts) out.push_back(t.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

PoolWorker::PoolWorker(const std::vector<std::string>& argv, int gpu,
                       const std::string& stderrPath) {
  if (argv.empty()) throw InputError("no worker program to start");
  int fds[2];
  int input[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw InputError("cannot start '" + argv[0] + "': " + std::strerror(errno));
  if (::pipe2(input, O_CLOEXEC) != 0) {
    const int e = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw InputError("cannot start '" + argv[0] + "': " + std::strerror(e));
  }
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_adddup2(&files, input[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&files, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&files, STDERR_FILENO, stderrPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> args = argv;
  std::vector<std::string> env = pinnedEnvironment(gpu);
  const std::vector<char*> argp = pointers(args);
  const std::vector<char*> envp = pointers(env);
  const int rc = posix_spawnp(&m_pid, argp[0], &files, nullptr, argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&files);
  ::close(fds[1]);
  ::close(input[0]);
  if (rc != 0) {
    ::close(fds[0]);
    ::close(input[1]);
    m_reaped = true;
    throw InputError("cannot start the worker '" + argv[0] + "': " + std::strerror(rc));
  }
  m_out = fds[0];
  m_in = input[1];
  ::fcntl(m_out, F_SETFL, ::fcntl(m_out, F_GETFL) | O_NONBLOCK);
}

PoolWorker::PoolWorker(PoolWorker&& other) noexcept
    : m_pid(other.m_pid),
      m_out(other.m_out),
      m_in(other.m_in),
      m_buffer(std::move(other.m_buffer)),
      m_exitCode(other.m_exitCode),
      m_signal(other.m_signal),
      m_reaped(other.m_reaped) {
  other.m_out = -1;
  other.m_in = -1;
  other.m_reaped = true;
}

PoolWorker::~PoolWorker() {
  if (m_out >= 0) ::close(m_out);
  closeInput();
  if (m_reaped) return;
  ::kill(m_pid, SIGKILL);  // only a pool unwinding from an error leaves one running
  ::waitpid(m_pid, nullptr, 0);
}

std::vector<std::string> PoolWorker::readLines() {
  std::vector<std::string> lines;
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(m_out, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;  // EAGAIN: nothing more for now
    if (n == 0) {
      ::close(m_out);
      m_out = -1;
      m_buffer += '\n';  // a last line without its newline still counts
      break;
    }
    m_buffer.append(chunk, std::size_t(n));
  }
  std::size_t start = 0;
  for (std::size_t nl = m_buffer.find('\n'); nl != std::string::npos;
       nl = m_buffer.find('\n', start)) {
    lines.push_back(m_buffer.substr(start, nl - start));
    start = nl + 1;
  }
  m_buffer.erase(0, start);
  if (m_out < 0 && !lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

bool PoolWorker::send(const std::string& line) {
  if (m_in < 0) return false;
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {  // a request is a short line: the pipe takes it at once
    const ssize_t n = ::write(m_in, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // EPIPE (SIGPIPE is ignored while the pool runs): it is gone
    done += std::size_t(n);
  }
  return true;
}

void PoolWorker::closeInput() {
  if (m_in < 0) return;
  ::close(m_in);
  m_in = -1;
}

void PoolWorker::wait() {
  if (m_reaped) return;
  int status = 0;
  while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
  }
  m_reaped = true;
  if (WIFEXITED(status)) m_exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) m_signal = WTERMSIG(status);
}

void PoolWorker::signal(int sig) const {
  if (!m_reaped) ::kill(m_pid, sig);
}

}  // namespace kwb::detail
