// SPDX-License-Identifier: Apache-2.0
// kwb merge: shard documents (kwb run|verify|tune --shard I/N) and failure records joined into
// one document (docs/SCALE_OUT.md). Missing and failed shards stay holes and are named; the
// merged document is written even then, and the exit status says it is incomplete.
#include <iostream>

#include "commands.h"
#include "kwb/error.h"
#include "kwb/merge.h"
#include "kwb/output_files.h"

namespace kwb::cli {
namespace {

struct MergeOpts {
  std::vector<std::string> inputs;
  std::string out;
  int shards = 0;
};

int mergeCommand(const MergeOpts& o) {
  std::vector<NamedPath> ins;
  for (const std::string& in : o.inputs) ins.push_back({"a shard file", in});
  checkOutputs(ins, {{"-o", o.out}});
  std::vector<ShardInput> inputs;
  inputs.reserve(o.inputs.size());
  for (const std::string& in : o.inputs) inputs.push_back(readShardInput(in));
  const MergeOutcome m = mergeShards(inputs, o.shards);
  writeOutputs({{o.out, [&] { return toJsonText(m.document); }, "-o"}});
  for (const std::string& note : m.notes) std::cerr << "kwb merge: " << note << '\n';
  int merged = 0;
  for (const MergedShard& s : m.document.merged->shards) merged += s.state == "merged";
  std::cout << "merged " << merged << " of " << m.document.merged->count << " shards ("
            << m.document.cases.size() << " cases"
            << (m.document.tuning
                    ? ", " + std::to_string(m.document.tuning->results.size()) + " tuning results"
                    : "")
            << ", " << m.document.deviceList().size() << " device(s)) into " << o.out << '\n';
  if (!m.complete) {
    std::cout << "incomplete: the cases of missing or failed shards are listed as not run\n";
    return kExitCaseFailed;
  }
  return allPassed(m.document) ? kExitOk : kExitCaseFailed;
}

}  // namespace

void addMergeCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand(
      "merge",
      "Join the shard documents of one plan (kwb run --shard I/N) and failure records into one "
      "document; missing or failed shards stay holes (exit 1), other plans are refused (exit 2)");
  auto o = std::make_shared<MergeOpts>();
  sub->add_option("files", o->inputs, "Shard documents and shard failure records")->required();
  sub->add_option("-o,--output", o->out, "Write the merged document here")->required();
  sub->add_option("--shards", o->shards,
                  "How many shards the plan has (default: what the files say); a shard with no "
                  "file is reported missing")
      ->check(CLI::Range(1, kMaxShards));
  sub->callback([o, &exitCode] { exitCode = mergeCommand(*o); });
}

}  // namespace kwb::cli
