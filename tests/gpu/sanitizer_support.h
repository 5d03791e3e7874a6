// SPDX-License-Identifier: Apache-2.0
#pragma once
// compute-sanitizer over a `kwb verify` process, for test_sanitizer: finding the tool, running
// it with a deadline, reading its log, and the one assertion every sanitizer test makes.
#include <optional>
#include <string>
#include <vector>

namespace kwb::test {

inline constexpr int kSanitizerErrorExitCode = 86;     // --error-exitcode: the tool found errors
inline constexpr int kSanitizerDeadlineSeconds = 270;  // per invocation; ctest's TIMEOUT is 300

// compute-sanitizer on PATH, in /usr/local/cuda/bin, or in the bin folder of the CUDA toolkit
// this build used. Empty when there is none; `looked` says where it looked.
std::string findComputeSanitizer(std::string* looked);

struct Process {
  int exitCode = -1;  // 128 + signal when killed
  bool timedOut = false;
  double seconds = 0;
};

// Runs args[0] (a path; no shell) in its own process group, stdout and stderr to the files.
// The group is killed after `deadlineSeconds`, so a hang ends in a message, not ctest's kill.
Process runProcess(const std::vector<std::string>& args, const std::string& outPath,
                   const std::string& errPath, int deadlineSeconds = kSanitizerDeadlineSeconds);

std::string slurp(const std::string& path);

// One compute-sanitizer run over `kwb verify` and what its log says.
struct SanitizerRun {
  std::string tool;
  std::string commandLine;
  Process process;
  std::optional<long> errors;  // "ERROR SUMMARY: N errors"; none when the tool did not finish
  std::string firstReport;     // the first report's lines, verbatim (capped)
  std::string logPath, outPath, errPath;
  std::string log, out, err;  // the sanitizer's log; kwb's stdout and stderr
};

// Fills errors and firstReport from r.log. Every line of the log starts with "=========". A
// report starts at a line without indentation that is not a summary, and goes on with the
// indented lines after it.
void parseLog(SanitizerRun& r);

// `compute-sanitizer --tool <tool> … <kwb> verify <selection>`, the
// sanitizer's log in <logDir>/<name>.log, kwb's output in <name>.out and <name>.err (left
// there to read after the test). Prints the error count and the time taken.
SanitizerRun runSanitizer(const std::string& sanitizer, const std::string& tool,
                          const std::string& kwb, const std::vector<std::string>& selection,
                          const std::string& logDir, const std::string& name);
// The selection of GEMM kernels and shapes: --kernels <kernels> --shapes <shapes>.
inline std::vector<std::string> gemmSelection(const std::string& kernels,
                                              const std::string& shapes) {
  return {"--kernels", kernels, "--shapes", shapes};
}

// kwb's verdict for a failure message: its "N of M cases pass" line, the cases that did not
// pass, the last lines of its stderr.
std::string kwbSummary(const SanitizerRun& r);

// The assertion of every sanitizer test: nothing when the tool finished with 0 errors and kwb
// verify passed; otherwise exactly one nonfatal failure, which for sanitizer errors starts
// with the count and the command and then shows the first report.
void expectClean(const SanitizerRun& r);

}  // namespace kwb::test
