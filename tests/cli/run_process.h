// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runs the built `kwb` with an argument list (no shell) and captures both streams.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

struct ProcessResult {
  int exitCode = -1;
  long peakKb = 0;  // the child's peak resident memory (ru_maxrss), KiB
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `fileSizeLimit`: RLIMIT_FSIZE of the child (ulimit -f), with SIGXFSZ as a shell leaves it.
inline ProcessResult runKwb(const std::vector<std::string>& args,
                            const std::string& stdinPath = "/dev/null",
                            rlim_t fileSizeLimit = RLIM_INFINITY) {
  static int counter = 0;
  const std::string base =
      "/tmp/kwb_cli_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  const std::string outPath = base + ".out", errPath = base + ".err";
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv;
    std::string exe = KWB_EXE;
    argv.push_back(exe.data());
    std::vector<std::string> copy = args;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (!std::freopen(stdinPath.c_str(), "r", stdin) ||
        !std::freopen(outPath.c_str(), "w", stdout) || !std::freopen(errPath.c_str(), "w", stderr))
      ::_exit(127);
    if (fileSizeLimit != RLIM_INFINITY) {
      std::signal(SIGXFSZ, SIG_DFL);
      const rlimit limit{fileSizeLimit, fileSizeLimit};
      if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(127);
    }
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  ProcessResult r;
  r.peakKb = usage.ru_maxrss;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(outPath);
  r.err = slurp(errPath);
  std::remove(outPath.c_str());
  std::remove(errPath.c_str());
  return r;
}

inline bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

// An empty folder under the temporary directory, unique to this process and `name` (FIFOs and
// links are made here, never in /dev).
inline std::filesystem::path tempDir(const std::string& name) {
  std::filesystem::path d = std::filesystem::temp_directory_path() /
                            ("kwb_cli_test_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

// Writes `text` to `p`, replacing it.
inline void spit(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
}
