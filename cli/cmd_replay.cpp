#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "commands.h"
#include "kwb/error.h"
#include "kwb/events.h"

namespace kwb::cli {
namespace {

// Re-emits a recorded event stream, paced by each event's elapsedS / speed. Every line is
// parsed first, so a malformed file is refused (exit 2) before anything is written.
int replay(const std::string& path, double speed) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open event stream '" + path + "'");
  std::vector<std::string> lines;
  std::vector<Event> events;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    events.push_back(parseEventLine(line, path, n));
    lines.push_back(line);
  }
  if (events.empty()) throw InputError("event stream '" + path + "' is empty");
  if (events.back().type != EventType::kDone)
    throw InputError("event stream '" + path + "' is truncated: its last event is '" +
                     std::string(toString(events.back().type)) + "', not 'done'");
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (speed > 0)
      std::this_thread::sleep_until(start +
                                    std::chrono::duration<double>(events[i].elapsedS / speed));
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
      ->check(CLI::NonNegativeNumber);
  sub->callback([path, speed, &exitCode] { exitCode = replay(*path, *speed); });
}

}  // namespace kwb::cli
