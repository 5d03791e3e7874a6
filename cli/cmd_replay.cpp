// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "commands.h"
#include "interrupt.h"
#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/results.h"
#include "run_options.h"

namespace kwb::cli {
namespace {

// Re-emits a recorded event stream, paced by each event's elapsedS / speed. Every line is
// parsed first, so a malformed file is refused (exit 2) before anything is written.
int replay(const std::string& path, double speed) {
  if (speed > 0 && speed < 0.01)
    throw InputError("--speed " + std::to_string(speed) +
                     " is too slow to finish; give 0 (no pauses) or at least 0.01");
  // A regular file of bounded size: a FIFO or /dev/zero is refused, not waited on.
  const std::string text = readTextFile(path, "event stream", kMaxDocumentBytes);
  std::vector<std::string> lines;
  std::vector<StreamEvent> events;
  int n = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    events.push_back(parseEventLine(line, path, n));
    lines.push_back(std::move(line));
  }
  if (events.empty()) throw InputError("event stream '" + path + "' is empty");
  if (events.back().type != EventType::kDone)
    throw InputError("event stream '" + path + "' is truncated: its last event is '" +
                     std::string(toString(events.back().type)) + "', not 'done'");
  // Ctrl-C ends a replay between two lines, as it ends a run: the lines written stay.
  installInterruptHandlers();
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < events.size(); ++i) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point due =
        start + std::chrono::duration_cast<Clock::duration>(
                    std::chrono::duration<double>(speed > 0 ? events[i].elapsedS / speed : 0.0));
    while (speed > 0 && !interruptRequested() && Clock::now() < due)
      std::this_thread::sleep_for(
          std::min<Clock::duration>(due - Clock::now(), std::chrono::milliseconds(20)));
    if (interruptRequested()) {
      std::fprintf(stderr, "interrupted after %zu of %zu events\n", i, events.size());
      return kExitInterrupted;
    }
    std::fputs((lines[i] + "\n").c_str(), stdout);
    std::fflush(stdout);
  }
  return events.back().exitCode;
}

}  // namespace

void addReplayCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand("replay", "Re-emit a recorded --stream event file on stdout");
  auto path = std::make_shared<std::string>();
  auto speed = std::make_shared<double>(1.0);
  sub->add_option("file", *path, "A .jsonl file recorded from kwb run --stream")->required();
  sub->add_option("--speed", *speed, "Pace multiplier (2 = twice as fast, 0 = no pauses)")
      ->check(finiteRange(0.0, 1e6));
  sub->callback([path, speed, &exitCode] { exitCode = replay(*path, *speed); });
}

}  // namespace kwb::cli
