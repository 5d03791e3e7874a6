// SPDX-License-Identifier: Apache-2.0
// kwb shard-failure (plumbing, hidden from --help): writes a shard failure record
// (kwb/shard_failure.h) for a shard that ended without a document, so that `kwb merge` reports
// it failed with its reason. The Slurm task script calls it (docs/SCALE_OUT.md).
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>

#include "commands.h"
#include "kwb/error.h"
#include "kwb/exit_codes.h"
#include "kwb/output_files.h"
#include "kwb/shard_failure.h"

namespace kwb::cli {
namespace {

struct FailureOpts {
  std::string shard, stderrPath, planHash, out;
  int exit = -1;
};

// The last kFailureTailBytes of a file, or a line saying why there are none: a record is
// written even when the shard left no readable standard error.
std::string tailOf(const std::string& path) {
  if (path.empty()) return "";
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "(its standard error '" + path + "' could not be read)";
  const std::streamoff size = in.tellg();
  const std::streamoff from = std::max<std::streamoff>(0, size - std::streamoff(kFailureTailBytes));
  in.seekg(from);
  std::string text(std::size_t(size - from), '\0');
  in.read(text.data(), std::streamsize(text.size()));
  return text;
}

std::string utcNow() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

int writeFailure(const FailureOpts& o) {
  checkOutputs({{"--stderr", o.stderrPath}}, {{"-o", o.out}});
  ShardFailure f;
  f.shard = parseShard(o.shard);
  f.planHash = o.planHash;
  // A shell reports a process ended by signal S as 128 + S; kwb's own codes are 0-4 and 130.
  if (o.exit > 128 && o.exit != kExitInterrupted && o.exit < 128 + 65) {
    f.signal = o.exit - 128;
  } else {
    f.exitStatus = o.exit;
  }
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) f.host = host;
  f.timestamp = utcNow();
  f.stderrTail = tailLines(tailOf(o.stderrPath));
  writeOutputs({{o.out, [&] { return toJsonText(f); }, "-o"}});
  std::cerr << "kwb: shard " << toString(f.shard) << " failed: " << f.reason() << "; recorded in "
            << o.out << '\n';
  return kExitOk;
}

}  // namespace

void addShardFailureCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand(
      "shard-failure", "Write a shard failure record for kwb merge (plumbing for job scripts)");
  sub->group("");  // hidden from kwb --help
  auto o = std::make_shared<FailureOpts>();
  sub->add_option("--shard", o->shard, "The shard that failed, I/N")->required();
  sub->add_option("--exit", o->exit, "Its exit status as the shell saw it (128+S: signal S)")
      ->required()
      ->check(CLI::Range(0, 255));
  sub->add_option("--stderr", o->stderrPath, "Its standard error; the last lines are kept");
  sub->add_option("--plan-hash", o->planHash, "The plan's hash, where known");
  sub->add_option("-o,--output", o->out, "Write the record here")->required();
  sub->callback([o, &exitCode] { exitCode = writeFailure(*o); });
}

}  // namespace kwb::cli
