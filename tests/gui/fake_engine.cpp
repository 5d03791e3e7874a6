// SPDX-License-Identifier: Apache-2.0
// A stand-in for `kwb run --stream` with no GPU: replays the cases a request asks for out of a
// recorded document, so tests exercise the GUI's real argument list and process handling.
//   KWB_FAKE_DOC       results document to take the cases from (required)
//   KWB_FAKE_DELAY_MS  pause per case (default 0)
//   KWB_FAKE_CRASH     "kernel@MxNxK": die from SIGKILL after starting that case
//   KWB_FAKE_DEVICE    `device --json`: a results document whose device to print; unset, the
//                      answer of a machine with no GPU (exit 3)
//   KWB_FAKE_HOSTILE   a broken engine: "range" prints a number no double holds after the plan;
//                      "ignore-args" always runs the document's first three cases and dies from
//                      SIGSEGV on the second; "die-always" dies from SIGSEGV on every first case;
//                      "long-line" prints 65 MiB without a newline and waits;
//                      "stderr-flood" writes 64 MiB on stderr without a newline, then runs;
//                      "hang" stops mid-case, silent, and ignores SIGTERM; "sigstop" stops
//                      itself (SIGSTOP) mid-case; "close-stdout" closes its stdout mid-case
//                      and lives on, ignoring SIGTERM; "linger" lives on after `done`,
//                      ignoring SIGTERM; "skip-case" plans every case but never reports the
//                      last one, and says done
//   KWB_FAKE_PIDFILE   its process id is written to this file when it starts
//   KWB_FAKE_PROTOCOL  protocol version to claim in hello (default: this build's)
//   KWB_FAKE_USER_AS   with --source F.cu: the case user.<stem> is answered with this kernel's
//                      recorded case, its samples divided by the number on a `// fake-speedup: X`
//                      line of F.cu (default 1), so an edit of the file changes the result
// With --source the file is first compiled by the real engine (`kwb compile --source F.cu`,
// NVRTC, no GPU): a compile error is its stderr and exit 2 before any event, as in kwb run.
// Its case user.<stem> runs where --kernels names it, beside the others named there (alone,
// if only it is named); else after the --kernels named, or after cublas.sgemm when neither
// --kernels nor --suite is given, as kwb run --source selects.
// Like `kwb run --stream`, it stops when its stdout's reader is gone (kwb/output_watch.h), also
// in the middle of a case's pause, and then writes nothing more.
// `list --json` is answered by the real engine built beside it, so the registry list is current.
// `ab --against A.cu --source B.cu --shapes S --json R` writes a kwb-ab report whose B / A at
// each shape is A's fake-speedup over B's, with a 95% CI of ±0.1% and core's verdict rule.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

#include "kwb/ab_report.h"
#include "kwb/events.h"
#include "kwb/output_watch.h"
#include "kwb/results_json.h"
#include "kwb/stats.h"

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(item);
  return out;
}

void emit(kwb::StreamEvent e, double t) {
  e.elapsedS = t;
  std::cout << kwb::toJsonLine(e) << '\n' << std::flush;
}

int device() {
  const char* docPath = std::getenv("KWB_FAKE_DEVICE");
  if (!docPath) {
    std::fprintf(stderr, "kwb: error: no CUDA device: cudaErrorNoDevice (simulated)\n");
    return 3;
  }
  const kwb::RunDocument doc = kwb::readDocument(docPath);
  if (!doc.device) {
    std::fprintf(stderr, "fake kwb: %s records no device\n", docPath);
    return 2;
  }
  std::cout << nlohmann::json(*doc.device).dump(2) << '\n';
  return 0;
}

// A case's work: true when the reader went away meanwhile.
bool pauseUnlessReaderGone(const kwb::OutputWatch& readerGone, int ms) {
  if (!readerGone.watching()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return false;
  }
  return readerGone.waitClosed(std::chrono::milliseconds(ms));
}

// `kwb compile --source path` by the real engine, its stdout sent to stderr; its exit code.
int compileWithRealEngine(const std::string& path) {
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(2, 1);
    execl(KWB_REAL_ENGINE, "kwb", "compile", "--source", path.c_str(), nullptr);
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) return 4;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 4;
}

// The recorded case of `as` standing for the user kernel `id`, `speedup` times as fast.
kwb::CaseResult userCase(const kwb::CaseResult& recorded, const std::string& id,
                         const std::string& path, double speedup) {
  kwb::CaseResult c = recorded;
  c.kernel = c.ranKernel = id;
  c.sourcePath = path;
  for (double& ms : c.samplesMs) ms /= speedup;
  c.summary = kwb::stats::summarize(c.samplesMs);
  c.gflops *= speedup;
  c.cuptiMedianMs.reset();
  c.timerVsCuptiPct.reset();
  return c;
}

double fakeSpeedup(const std::string& path) {
  std::ifstream in(path);
  const std::string tag = "// fake-speedup:";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(tag, 0) == 0) return std::strtod(line.c_str() + tag.size(), nullptr);
  return 1.0;
}

std::string optionValue(const std::vector<std::string>& args, const std::string& name) {
  for (std::size_t i = 1; i + 1 < args.size(); ++i)
    if (args[i] == name) return args[i + 1];
  return {};
}

// `kwb ab --against A.cu --source B.cu`: both versions "timed" from their fake-speedup lines.
int ab(const std::vector<std::string>& args) {
  const std::string against = optionValue(args, "--against");
  const std::string source = optionValue(args, "--source");
  const std::string json = optionValue(args, "--json");
  if (against.empty() || source.empty() || json.empty()) {
    std::fprintf(stderr, "fake kwb: ab needs --against, --source and --json\n");
    return 2;
  }
  for (const std::string& path : {against, source})
    if (!std::ifstream(path)) {
      std::fprintf(stderr, "kwb: error: cannot read the kernel source '%s'\n", path.c_str());
      return 2;
    }
  kwb::AbReport r;
  const auto slash = source.find_last_of('/');
  const std::string name = source.substr(slash == std::string::npos ? 0 : slash + 1);
  r.a = "user." + name.substr(0, name.rfind('.'));
  r.b = r.a + "#b";
  r.aLabel = against;
  r.bLabel = source;
  if (const char* docPath = std::getenv("KWB_FAKE_DOC")) {
    r.document = kwb::readDocument(docPath);
    r.document.cases.clear();
    r.device = r.document.device;
  }
  const double ratio = fakeSpeedup(against) / fakeSpeedup(source);
  for (const auto& s : split(optionValue(args, "--shapes"))) {
    kwb::AbResult x;
    x.size = kwb::toString(kwb::parseShape(s));
    x.aMs = 1.0;
    x.bMs = ratio;
    x.ratio = ratio;
    x.ci95 = {ratio * 0.999, ratio * 1.001};
    x.pairs = 200;
    x.rounds = 10;
    const kwb::Decision d = kwb::decide(x.ratio, x.ci95, r.sameWithin);
    x.verdict = d.verdict;
    x.reason = d.reason;
    r.results.push_back(x);
  }
  std::ofstream(json) << kwb::toJsonText(r);
  std::cout << "A: " << against << "\nB: " << source << "\nB / A " << ratio << '\n';
  return 0;
}

}  // namespace

// Never returns: what a hung engine does (SIGTERM ignored; SIGKILL still ends it).
[[noreturn]] void hangForever() {
  std::signal(SIGTERM, SIG_IGN);
  for (;;) pause();
}

// The kernels of a `--kernels` list, `userId` among them or added after them (after
// cublas.sgemm when no --kernels or --suite is given), as kwb run --source selects them.
std::string withUserKernel(const std::string& kernels, const std::string& suite,
                           const std::string& userId) {
  for (const auto& k : split(kernels))
    if (k == userId) return kernels;
  if (kernels.empty()) return (suite.empty() ? "cublas.sgemm," : "") + userId;
  return kernels + "," + userId;
}

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "device") return device();
  if (!args.empty() && args[0] == "ab") return ab(args);
  if (!args.empty() && args[0] == "list") {
    execv(KWB_REAL_ENGINE, argv);
    std::perror("fake kwb: cannot start " KWB_REAL_ENGINE);
    return 2;
  }
  if (args.empty() || args[0] != "run") {
    std::fprintf(stderr,
                 "fake kwb: only run --stream, ab, device --json and list --json are supported\n");
    return 2;
  }
  const std::string hostile =
      std::getenv("KWB_FAKE_HOSTILE") ? std::getenv("KWB_FAKE_HOSTILE") : "";
  std::string kernels, shapes, suite, source;
  for (std::size_t i = 1; i + 1 < args.size(); ++i) {
    if (args[i] == "--kernels") kernels = args[i + 1];
    if (args[i] == "--shapes") shapes = args[i + 1];
    if (args[i] == "--suite") suite = args[i + 1];
    if (args[i] == "--source") source = args[i + 1];
  }
  std::string userId;
  double speedup = 1.0;  // read with the compile, as kwb compiles once before the first case
  if (!source.empty()) {
    speedup = fakeSpeedup(source);
    if (const int rc = compileWithRealEngine(source); rc != 0) return rc;
    const auto slash = source.find_last_of('/');
    const std::string name = source.substr(slash == std::string::npos ? 0 : slash + 1);
    userId = "user." + name.substr(0, name.rfind('.'));
    kernels = withUserKernel(kernels, suite, userId);
  }
  const char* docPath = std::getenv("KWB_FAKE_DOC");
  if (!docPath) {
    std::fprintf(stderr, "fake kwb: KWB_FAKE_DOC is not set\n");
    return 2;
  }
  const kwb::RunDocument doc = kwb::readDocument(docPath);
  const int delayMs =
      std::getenv("KWB_FAKE_DELAY_MS") ? std::atoi(std::getenv("KWB_FAKE_DELAY_MS")) : 0;
  const std::string crash = std::getenv("KWB_FAKE_CRASH") ? std::getenv("KWB_FAKE_CRASH") : "";

  if (const char* pidFile = std::getenv("KWB_FAKE_PIDFILE")) std::ofstream(pidFile) << getpid();
  std::signal(SIGPIPE, SIG_IGN);  // as kwb does: a write to a closed stream fails, not kills
  const kwb::OutputWatch readerGone(fileno(stdout));
  kwb::StreamEvent hello(kwb::EventType::kHello);
  if (const char* v = std::getenv("KWB_FAKE_PROTOCOL")) hello.protocolVersion = std::atoi(v);
  hello.toolVersion = doc.toolVersion;
  hello.gitRevision = "fake";
  hello.host = doc.host;
  hello.timestamp = doc.timestamp;
  emit(hello, 0);
  kwb::StreamEvent dev(kwb::EventType::kDevice);
  dev.device = doc.device;
  emit(dev, 0);
  kwb::StreamEvent plan(kwb::EventType::kPlan);
  plan.settings = doc.settings;
  plan.settings.suite = suite;  // as kwb run records the --suite it was given
  plan.kernels = doc.kernels;
  for (const auto& s : split(shapes))
    for (const auto& k : split(kernels)) plan.plan.push_back({k, kwb::parseShape(s)});
  if (hostile == "ignore-args") {
    plan.plan.clear();
    for (std::size_t i = 0; i < 3 && i < doc.cases.size(); ++i)
      plan.plan.push_back({doc.cases[i].kernel, doc.cases[i].size});
  }
  emit(plan, 0);
  if (hostile == "range")
    std::cout << R"({"event":"log","elapsedS":1e400,"level":"info","message":"x"})" << '\n'
              << std::flush;
  if (hostile == "long-line") {
    const std::string chunk(1 << 20, 'x');
    for (int i = 0; i < 65; ++i) std::cout << chunk;
    std::cout << std::flush;
    std::this_thread::sleep_for(std::chrono::seconds(60));
    return 0;
  }
  if (hostile == "stderr-flood") {
    const std::string chunk(1 << 20, 'e');
    for (int i = 0; i < 64; ++i) std::fwrite(chunk.data(), 1, chunk.size(), stderr);
    std::fflush(stderr);
  }
  std::fprintf(stderr, "fake kwb: %zu cases\n", plan.plan.size());
  if (hostile == "skip-case" && !plan.plan.empty()) plan.plan.pop_back();  // planned, never run
  double t = 0;
  bool failed = false;
  for (std::size_t i = 0; i < plan.plan.size(); ++i) {
    const auto& p = plan.plan[i];
    kwb::StreamEvent started(kwb::EventType::kCaseStarted);
    started.index = int(i);
    started.planned = p;
    emit(started, t);
    if (hostile == "die-always" || (hostile == "ignore-args" && i == 1)) {
      std::fflush(stdout);
      std::signal(SIGSEGV, SIG_DFL);
      std::raise(SIGSEGV);
    }
    if (i == 1 && hostile == "hang") hangForever();
    if (i == 1 && hostile == "sigstop") std::raise(SIGSTOP);
    if (i == 1 && hostile == "close-stdout") {
      std::fclose(stdout);
      hangForever();
    }
    if (crash == p.kernel + "@" + kwb::sizeLabel(p.size)) {
      std::fprintf(stderr, "fake kwb: illegal memory access (simulated)\n");
      std::fflush(stderr);
      std::raise(SIGKILL);
    }
    if (pauseUnlessReaderGone(readerGone, delayMs)) {
      std::fprintf(stderr, "fake kwb: the event stream's reader is gone; stopping\n");
      return 1;
    }
    t += delayMs / 1000.0;
    const kwb::CaseResult* c = doc.find(p.kernel, p.size);
    std::optional<kwb::CaseResult> user;
    if (p.kernel == userId && std::getenv("KWB_FAKE_USER_AS"))
      if (const kwb::CaseResult* as = doc.find(std::getenv("KWB_FAKE_USER_AS"), p.size))
        c = &user.emplace(userCase(*as, userId, source, speedup));
    kwb::StreamEvent finished(c && kwb::isGood(c->status) ? kwb::EventType::kCaseFinished
                                                          : kwb::EventType::kCaseFailed);
    finished.index = int(i);
    if (c) {
      finished.result = *c;
    } else {
      kwb::CaseResult skipped;
      skipped.kernel = p.kernel;
      skipped.size = p.size;
      skipped.status = kwb::CaseStatus::kSkipped;
      skipped.message = "not in the recorded document";
      finished.result = skipped;
    }
    failed = failed || !kwb::isGood(finished.result->status);
    emit(finished, t);
  }
  kwb::StreamEvent done(kwb::EventType::kDone);
  done.exitCode = failed ? 1 : 0;
  done.knownAnswer = doc.knownAnswer;
  emit(done, t);
  if (hostile == "linger") hangForever();
  return done.exitCode;
}
