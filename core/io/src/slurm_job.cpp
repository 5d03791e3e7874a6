// SPDX-License-Identifier: Apache-2.0
#include "kwb/slurm_job.h"

#include "json_read.h"
#include "kwb/error.h"
#include "kwb/text_file.h"

namespace kwb {
using nlohmann::json;

namespace {

std::string base(const SlurmJob& job, int index) {
  return "shard-" + std::to_string(index) + "-of-" + std::to_string(job.shards);
}

// The #SBATCH lines both scripts share.
std::string commonLines(const SlurmJob& job) {
  std::string s;
  if (!job.partition.empty()) s += "#SBATCH --partition=" + job.partition + "\n";
  if (!job.time.empty()) s += "#SBATCH --time=" + job.time + "\n";
  s += "#SBATCH --ntasks=1\n";
  return s;
}

}  // namespace

std::filesystem::path shardDocument(const SlurmJob& job, int index) {
  return job.outputDir / (base(job, index) + ".json");
}
std::filesystem::path shardFailureFile(const SlurmJob& job, int index) {
  return job.outputDir / (base(job, index) + ".failure.json");
}
std::filesystem::path shardPartial(const SlurmJob& job, int index) {
  return job.outputDir / (base(job, index) + ".partial.json");
}
std::filesystem::path shardStderr(const SlurmJob& job, int index) {
  return job.outputDir / "logs" / ("shard-" + std::to_string(index) + ".stderr");
}

std::string shellQuote(const std::string& text) {
  std::string q = "'";
  for (const char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string arrayScript(const SlurmJob& job) {
  const std::string dir = job.outputDir.string();
  std::string s = "#!/bin/bash\n# Written by kwb slurm submit: one shard of the plan per task.\n";
  s += "#SBATCH --job-name=" + job.name + "\n";
  s += "#SBATCH --array=1-" + std::to_string(job.shards) + "\n";
  s += commonLines(job);
  if (job.gpusPerTask > 0) s += "#SBATCH --gres=gpu:" + std::to_string(job.gpusPerTask) + "\n";
  s += "#SBATCH --output=" + dir + "/logs/shard-%a.out\n";
  s += "set -u\n";
  s += "i=${SLURM_ARRAY_TASK_ID:?run this script as a Slurm array task}\n";
  s += "n=" + std::to_string(job.shards) + "\n";
  s += "dir=" + shellQuote(dir) + "\n";
  s += "doc=\"$dir/shard-$i-of-$n.json\"\n";
  s += "fail=\"$dir/shard-$i-of-$n.failure.json\"\n";
  s += "partial=\"$dir/shard-$i-of-$n.partial.json\"\n";
  s += "err=\"$dir/logs/shard-$i.stderr\"\n";
  s += "rm -f \"$doc\" \"$fail\" \"$partial\"\n";
  s += "# scancel sends SIGTERM to the task: kwb writes what it finished (atomically) and exits\n"
       "# 130; this shell waits for it, then records the failure.\n";
  s += "trap 'echo \"kwb-array: SIGTERM received\" >&2' TERM\n";
  std::string cmd = shellQuote(job.kwb);
  for (const std::string& a : job.command) {
    cmd += ' ';
    cmd += shellQuote(a);
  }
  // In the foreground: the trap runs only once kwb has ended, so rc is kwb's own.
  s += cmd + " --shard \"$i/$n\" --json \"$doc\" 2>\"$err\"\nrc=$?\n";
  s += "if [ \"$rc\" -le 1 ] && [ -s \"$doc\" ]; then exit 0; fi\n";
  s += "[ -e \"$doc\" ] && mv -f \"$doc\" \"$partial\"\n";
  s += shellQuote(job.kwb) +
       " shard-failure --shard \"$i/$n\" --exit \"$rc\" --stderr \"$err\" -o \"$fail\"\n";
  s += "exit \"$rc\"\n";
  return s;
}

std::string mergeScript(const SlurmJob& job) {
  const std::string dir = job.outputDir.string();
  const std::string n = std::to_string(job.shards);
  std::string s =
      "#!/bin/bash\n# Written by kwb slurm submit: joins the shards once the array has ended.\n";
  s += "#SBATCH --job-name=" + job.name + "-merge\n";
  s += commonLines(job);
  s += "#SBATCH --output=" + dir + "/logs/merge.out\n";
  s += "shopt -s nullglob\n";
  s += "dir=" + shellQuote(dir) + "\n";
  s += "files=(\"$dir\"/shard-*-of-" + n + ".json \"$dir\"/shard-*-of-" + n + ".failure.json)\n";
  s += "if [ ${#files[@]} -eq 0 ]; then echo \"kwb-merge: no shard wrote a document or a failure "
       "record in $dir\" >&2; exit 1; fi\n";
  s += "exec " + shellQuote(job.kwb) + " merge --shards " + n + " \"${files[@]}\" -o \"$dir/" +
       kSlurmMerged + "\"\n";
  return s;
}

std::string arrayRange(const std::vector<int>& shards) {
  std::string s;
  for (std::size_t i = 0; i < shards.size();) {
    std::size_t j = i;
    while (j + 1 < shards.size() && shards[j + 1] == shards[j] + 1) ++j;
    if (!s.empty()) s += ',';
    s += std::to_string(shards[i]);
    if (j > i) {
      s += '-';
      s += std::to_string(shards[j]);
    }
    i = j + 1;
  }
  return s;
}

std::string toJsonText(const SlurmJob& job) {
  json subs = json::array();
  for (const SlurmSubmission& s : job.submissions)
    subs.push_back({{"arrayJob", s.arrayJob}, {"mergeJob", s.mergeJob}, {"shards", s.shards}});
  const json j = {{"kind", "kwb-slurm-job"},
                  {"version", 1},
                  {"name", job.name},
                  {"shards", job.shards},
                  {"kwb", job.kwb},
                  {"command", job.command},
                  {"outputDir", job.outputDir},
                  {"partition", job.partition},
                  {"gpusPerTask", job.gpusPerTask},
                  {"time", job.time},
                  {"submissions", subs}};
  return j.dump(2) + "\n";
}

SlurmJob readSlurmJob(const std::filesystem::path& path) {
  const std::string text = readTextFile(path, "kwb slurm manifest", 1 << 20);
  try {
    const json j = jsonread::parse(text);
    if (!j.is_object() || j.value("kind", std::string()) != "kwb-slurm-job")
      throw InputError("not a kwb slurm manifest (no \"kind\": \"kwb-slurm-job\")");
    SlurmJob job;
    jsonread::get(j, "name", job.name);
    jsonread::get(j, "shards", job.shards);
    if (job.shards < 1) throw InputError("'shards' must be at least 1");
    jsonread::get(j, "kwb", job.kwb);
    jsonread::get(j, "command", job.command);
    job.outputDir = j.at("outputDir").get<std::string>();
    jsonread::get(j, "partition", job.partition);
    jsonread::get(j, "gpusPerTask", job.gpusPerTask);
    jsonread::get(j, "time", job.time);
    for (const json& s : j.at("submissions")) {
      SlurmSubmission sub;
      jsonread::get(s, "arrayJob", sub.arrayJob);
      jsonread::get(s, "mergeJob", sub.mergeJob);
      jsonread::get(s, "shards", sub.shards);
      job.submissions.push_back(std::move(sub));
    }
    return job;
  } catch (const nlohmann::json::exception& e) {
    throw InputError("cannot read '" + path.string() + "': " + jsonread::plain(e.what()));
  } catch (const InputError& e) {
    throw InputError("cannot read '" + path.string() + "': " + e.what());
  }
}

void writeSlurmJob(const SlurmJob& job) {
  writeTextFile(job.outputDir / kSlurmManifest, toJsonText(job));
}

}  // namespace kwb
