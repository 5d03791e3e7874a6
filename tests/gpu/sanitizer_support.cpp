// SPDX-License-Identifier: Apache-2.0
#include "sanitizer_support.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <thread>

namespace kwb::test {
namespace {

constexpr std::size_t kReportLines = 24;  // of the first report, in the failure message

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string lastLines(const std::string& text, std::size_t n) {
  const auto all = lines(text);
  std::string out;
  for (std::size_t i = all.size() > n ? all.size() - n : 0; i < all.size(); ++i)
    out += "    " + all[i] + '\n';
  return out.empty() ? "    (empty)\n" : out;
}

std::string joined(const std::vector<std::string>& args) {
  std::string s;
  for (const auto& a : args) s += (s.empty() ? "" : " ") + a;
  return s;
}

}  // namespace

std::string findComputeSanitizer(std::string* looked) {
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("PATH")) {
    std::istringstream in(path);
    for (std::string dir; std::getline(in, dir, ':');)
      if (!dir.empty()) dirs.push_back(dir);
  }
  dirs.push_back("/usr/local/cuda/bin");
  dirs.push_back(KWB_CUDA_BIN_DIR);
  *looked = "PATH, /usr/local/cuda/bin, " + std::string(KWB_CUDA_BIN_DIR);
  for (const auto& dir : dirs) {
    const std::string candidate = dir + "/compute-sanitizer";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

Process runProcess(const std::vector<std::string>& args, const std::string& outPath,
                   const std::string& errPath, int deadlineSeconds) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    std::vector<std::string> copy = args;
    std::vector<char*> argv;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (!std::freopen("/dev/null", "r", stdin) || !std::freopen(outPath.c_str(), "w", stdout) ||
        !std::freopen(errPath.c_str(), "w", stderr))
      ::_exit(127);
    ::execv(argv[0], argv.data());
    std::perror(argv[0]);  // to errPath
    ::_exit(127);
  }
  Process p;
  if (pid < 0) return p;
  int status = 0;
  while (true) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (done == pid) break;
    if (done < 0) return p;
    if (p.seconds > deadlineSeconds) {
      p.timedOut = true;
      ::kill(-pid, SIGKILL);  // the sanitizer and the kwb it started
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  p.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return p;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void parseLog(SanitizerRun& r) {
  // memcheck and initcheck end with "ERROR SUMMARY: N errors"; racecheck (CUDA 13) only with
  // "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)".
  static const std::regex summary(R"(ERROR SUMMARY: (\d+) error)");
  static const std::regex raceSummary(R"(RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) error)");
  const std::string prefix = "=========";
  bool inReport = false, done = false;
  std::size_t taken = 0;
  r.errors.reset();
  r.firstReport.clear();
  for (const std::string& line : lines(r.log)) {
    std::smatch m;
    if (std::regex_search(line, m, summary) || std::regex_search(line, m, raceSummary))
      r.errors = std::max(r.errors.value_or(0), std::stol(m[1].str()));
    if (done || !startsWith(line, prefix)) continue;
    std::string body = line.substr(prefix.size());
    if (startsWith(body, " ")) body.erase(0, 1);
    const bool blank = body.find_first_not_of(" \t\r") == std::string::npos;
    const bool indented = !blank && (body[0] == ' ' || body[0] == '\t');
    if (inReport) {
      if (!indented) {
        done = true;
        continue;
      }
      if (taken++ < kReportLines) r.firstReport += line + '\n';
    } else if (!blank && !startsWith(body, "COMPUTE-SANITIZER") &&
               body.find("SUMMARY") == std::string::npos) {
      inReport = true;
      r.firstReport += line + '\n';
      ++taken;
    }
  }
  if (taken > kReportLines)
    r.firstReport += "=========     … " + std::to_string(taken - kReportLines) + " more lines\n";
}

SanitizerRun runSanitizer(const std::string& sanitizer, const std::string& tool,
                          const std::string& kwb, const std::vector<std::string>& selection,
                          const std::string& logDir, const std::string& name) {
  std::filesystem::create_directories(logDir);
  SanitizerRun r;
  r.tool = tool;
  const std::string base = logDir + "/" + name;
  r.logPath = base + ".log";
  r.outPath = base + ".out";
  r.errPath = base + ".err";
  std::remove(r.logPath.c_str());
  // --check-exit-code no: kwb's verdict is its own exit code, kept apart from the tool's
  // errors. --show-backtrace device: the kernel and its offset, not pages of host frames.
  std::vector<std::string> args{sanitizer,
                                "--tool",
                                tool,
                                "--error-exitcode",
                                std::to_string(kSanitizerErrorExitCode),
                                "--check-exit-code",
                                "no",
                                "--print-limit",
                                "20",
                                "--show-backtrace",
                                "device",
                                "--log-file",
                                r.logPath,
                                kwb,
                                "verify"};
  args.insert(args.end(), selection.begin(), selection.end());
  r.commandLine = joined(args);
  r.process = runProcess(args, r.outPath, r.errPath);
  r.log = slurp(r.logPath);
  r.out = slurp(r.outPath);
  r.err = slurp(r.errPath);
  parseLog(r);
  std::cout << tool << ": " << (r.errors ? std::to_string(*r.errors) : "no summary")
            << " errors, exit " << r.process.exitCode << ", " << r.process.seconds
            << " s: " << r.commandLine << std::endl;
  return r;
}

std::string kwbSummary(const SanitizerRun& r) {
  std::string s, passLine;
  bool notPassed = false;
  std::size_t shown = 0;
  for (const std::string& line : lines(r.out)) {
    if (line.find("cases pass") != std::string::npos) passLine = line;
    if (line == "not passed:") notPassed = true;
    if (notPassed && line.empty()) notPassed = false;
    if (notPassed && shown++ < 12) s += "    " + line + '\n';
  }
  return "kwb verify: " + (passLine.empty() ? "(no 'cases pass' line)" : passLine) + "\n" + s +
         "kwb stderr, last lines (" + r.errPath + "):\n" + lastLines(r.err, 4) +
         "kwb stdout: " + r.outPath + '\n';
}

void expectClean(const SanitizerRun& r) {
  if (r.process.timedOut) {
    ADD_FAILURE() << r.tool << " did not finish in " << kSanitizerDeadlineSeconds
                  << " s and was killed: " << r.commandLine << "\nits log so far (" << r.logPath
                  << "):\n"
                  << lastLines(r.log, 12) << kwbSummary(r);
  } else if (r.process.exitCode == kSanitizerErrorExitCode || (r.errors && *r.errors > 0)) {
    ADD_FAILURE() << "compute-sanitizer --tool " << r.tool << " reported "
                  << (r.errors ? std::to_string(*r.errors) : "some") << " error(s) in "
                  << r.commandLine << "\nfirst report:\n"
                  << (r.firstReport.empty() ? lastLines(r.log, 12) : r.firstReport)
                  << "full log: " << r.logPath << '\n'
                  << kwbSummary(r);
  } else if (!r.errors) {
    ADD_FAILURE() << "no ERROR SUMMARY in the compute-sanitizer log, so the tool did not run to "
                     "the end (exit "
                  << r.process.exitCode << "): " << r.commandLine << "\nlog (" << r.logPath
                  << "):\n"
                  << lastLines(r.log, 12) << "stderr:\n"
                  << lastLines(r.err, 8);
  } else if (r.process.exitCode != 0) {
    ADD_FAILURE() << "kwb verify failed under " << r.tool << " (exit " << r.process.exitCode
                  << ") with no sanitizer error: " << r.commandLine << '\n'
                  << kwbSummary(r);
  }
}

}  // namespace kwb::test
