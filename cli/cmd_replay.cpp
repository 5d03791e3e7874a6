// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string_view>
#include <thread>

#include "commands.h"
#include "interrupt.h"
#include "kwb/error.h"
#include "kwb/events.h"
#include "kwb/results.h"
#include "run_options.h"

namespace kwb::cli {
namespace {

// The lines of `text` with their numbers (from 1), '\r' and empty lines dropped.
template <class Each>
void forEachLine(std::string_view text, const Each& each) {
  int n = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++n;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && !each(line, n)) return;
  }
}

// Re-emits a recorded event stream, paced by each event's elapsedS / speed with no pause longer
// than maxGap. Every line is parsed first, so a malformed file is refused (exit 2) before
// anything is written; only the text (at most 64 MiB) and one event at a time are held, so a
// stream of 10^6 events costs its size, not gigabytes.
int replay(const std::string& path, double speed, double maxGap) {
  if (speed > 0 && speed < 0.01)
    throw InputError("--speed " + std::to_string(speed) +
                     " is too slow to finish; give 0 (no pauses) or at least 0.01");
  // A regular file of bounded size: a FIFO or /dev/zero is refused, not waited on.
  const std::string text = readTextFile(path, "event stream", kMaxDocumentBytes);
  std::size_t count = 0;
  StreamEvent last;
  forEachLine(text, [&](std::string_view line, int n) {
    last = parseEventLine(line, path, n);
    ++count;
    return true;
  });
  if (count == 0) throw InputError("event stream '" + path + "' is empty");
  if (last.type != EventType::kDone)
    throw InputError("event stream '" + path + "' is truncated: its last event is '" +
                     std::string(toString(last.type)) + "', not 'done'");
  // Ctrl-C ends a replay between two lines, as it ends a run: the lines written stay.
  installInterruptHandlers();
  using Clock = std::chrono::steady_clock;
  Clock::time_point due = Clock::now();
  double previousS = 0;
  std::size_t written = 0;
  forEachLine(text, [&](std::string_view line, int n) {
    if (speed > 0) {  // --speed 0 never waits
      // The line was valid in the first pass: its time is finite, from 0 to a week.
      const double elapsedS = parseEventLine(line, path, n).elapsedS;
      const double gap = std::clamp((elapsedS - previousS) / speed, 0.0, maxGap);
      previousS = std::max(previousS, elapsedS);
      due += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(gap));
    }
    while (!interruptRequested() && Clock::now() < due)
      std::this_thread::sleep_for(
          std::min<Clock::duration>(due - Clock::now(), std::chrono::milliseconds(20)));
    if (interruptRequested()) return false;
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
    ++written;
    return true;
  });
  if (written < count) {
    std::fprintf(stderr, "interrupted after %zu of %zu events\n", written, count);
    return kExitInterrupted;
  }
  return last.exitCode;
}

}  // namespace

void addReplayCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand("replay", "Re-emit a recorded --stream event file on stdout");
  auto path = std::make_shared<std::string>();
  auto speed = std::make_shared<double>(1.0);
  auto maxGap = std::make_shared<double>(1.0);
  sub->add_option("file", *path, "A .jsonl file recorded from kwb run --stream")->required();
  sub->add_option("--speed", *speed, "Pace multiplier (2 = twice as fast, 0 = no pauses)")
      ->check(finiteRange(0.0, 1e6));
  sub->add_option("--max-gap", *maxGap,
                  "The longest pause between two lines, in seconds (default 1): a stream whose "
                  "times span hours replays in seconds per event at most")
      ->check(finiteRange(0.0, 86400));
  sub->callback([path, speed, maxGap, &exitCode] { exitCode = replay(*path, *speed, *maxGap); });
}

}  // namespace kwb::cli
