// SPDX-License-Identifier: Apache-2.0
// kwb slurm submit|status|resume: a plan as a Slurm job array of shards and a merge job after it
// (docs/SCALE_OUT.md). kwb writes the batch scripts and a manifest and calls sbatch, squeue and
// sacct; Slurm schedules.
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "commands.h"
#include "kwb/error.h"
#include "kwb/text_file.h"
#include "output.h"
#include "run_options.h"
#include "slurm_calls.h"

namespace kwb::cli {
namespace {

namespace fs = std::filesystem;

struct SubmitOpts {
  SlurmJob job;
  std::string command = "run";
  std::string outputDir = "kwb-slurm";
  std::string kwb;
  cuda::Selection sel;
  std::vector<std::string> extra;  // more of kwb <command>'s options, after --
  bool dryRun = false;
};

// A word that goes into an #SBATCH line as it is: no spaces, quotes or line breaks.
void checkWord(const std::string& option, const std::string& value) {
  if (value.find_first_of(" \t\r\n'\"\\#") != std::string::npos)
    throw InputError(option + " '" + value.substr(0, 40) +
                     "' must be one word without quotes (it goes into an #SBATCH line)");
}

// kwb's arguments for each task, without --shard and --json (the script adds them).
std::vector<std::string> taskCommand(const SubmitOpts& o) {
  std::vector<std::string> c{o.command};
  const auto add = [&](const char* opt, const std::string& v) {
    if (!v.empty()) c.insert(c.end(), {opt, v});
  };
  add("--suite", o.sel.suite);
  add("--kernels", o.sel.kernels);
  add("--family", o.sel.family);
  add("--shapes", o.sel.shapes);
  add("--sizes", o.sel.sizes);
  add("--types", o.sel.types);
  for (const std::string& e : o.extra) {
    for (const char* own : {"--shard", "--json", "--stream"})
      if (e == own || e.rfind(std::string(own) + "=", 0) == 0)
        throw InputError("'" + e +
                         "' is the job's to set: each task gets its own --shard and "
                         "--json (docs/SCALE_OUT.md)");
    c.push_back(e);
  }
  return c;
}

void writeScript(const fs::path& path, const std::string& text) {
  writeTextFile(path, text);
  fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
}

int submit(SubmitOpts o) {
  SlurmJob& job = o.job;
  for (const auto& [opt, v] : {std::pair<std::string, std::string>{"--name", job.name},
                               {"--partition", job.partition},
                               {"--time", job.time}})
    checkWord(opt, v);
  job.command = taskCommand(o);
  if (o.command != "tune") resolve(o.sel, o.command == "run" ? "quick" : "spec-correctness");
  job.kwb = o.kwb.empty() ? thisKwb() : fs::absolute(o.kwb).string();
  job.outputDir = fs::absolute(o.outputDir).lexically_normal();
  checkWord("--output-dir", job.outputDir.string());  // it is in the #SBATCH --output lines
  if (fs::exists(job.outputDir / kSlurmManifest))
    throw InputError("--output-dir '" + job.outputDir.string() + "' already holds a job (" +
                     kSlurmManifest + "): kwb slurm resume it, or choose another folder");
  fs::create_directories(job.outputDir / "logs");
  writeScript(job.outputDir / kSlurmArrayScript, arrayScript(job));
  writeScript(job.outputDir / kSlurmMergeScript, mergeScript(job));
  writeSlurmJob(job);
  std::cout << "wrote " << (job.outputDir / kSlurmArrayScript).string() << " (" << job.shards
            << " tasks) and " << (job.outputDir / kSlurmMergeScript).string() << '\n';
  if (o.dryRun) {
    std::cout << "dry run: nothing submitted; submit with\n  sbatch "
              << (job.outputDir / kSlurmArrayScript).string()
              << "\n  sbatch --dependency=afterany:<array job id> "
              << (job.outputDir / kSlurmMergeScript).string() << '\n';
    return kExitOk;
  }
  std::vector<int> all;
  for (int i = 1; i <= job.shards; ++i) all.push_back(i);
  submitShards(job, all);
  return kExitOk;
}

void addSubmit(CLI::App& slurm, int& exitCode) {
  auto* sub = slurm.add_subcommand(
      "submit", "Write and submit a job array of --shards tasks (one GPU each) and a merge job");
  auto o = std::make_shared<SubmitOpts>();
  sub->add_option("--shards", o->job.shards, "How many shards (array tasks)")
      ->required()
      ->check(CLI::Range(1, kMaxShards));
  sub->add_option("--command", o->command, "What each task runs: run (default), verify or tune")
      ->check(CLI::IsMember({"run", "verify", "tune"}));
  sub->add_option("--partition", o->job.partition, "Slurm partition (default: the cluster's)");
  sub->add_option("--gpus-per-task", o->job.gpusPerTask,
                  "GPUs each task asks for (--gres=gpu:N; default 1; 0: no GPU request)")
      ->check(CLI::Range(0, 16));
  sub->add_option("--time", o->job.time, "Time limit of each task, as sbatch --time takes it");
  sub->add_option("--name", o->job.name, "Job name (default kwb)")->check(kNotEmpty);
  sub->add_option("--output-dir", o->outputDir,
                  "Folder for the scripts, manifest, shard documents, logs and merged.json "
                  "(default ./kwb-slurm; on a file system the nodes share)");
  sub->add_option("--kwb", o->kwb, "The kwb the nodes run (default: this one)");
  sub->add_flag("--dry-run", o->dryRun, "Write the scripts and manifest, submit nothing");
  addSelectionOptions(*sub, o->sel, "quick");
  sub->add_option("extra", o->extra, "More options of kwb <command>, after --");
  sub->callback([o, &exitCode] { exitCode = submit(*o); });
}

}  // namespace

void addSlurmCommand(CLI::App& app, int& exitCode) {
  auto* slurm = app.add_subcommand(
      "slurm",
      "Run a plan on a Slurm cluster as shards: submit, status, resume (docs/SCALE_OUT.md)");
  slurm->require_subcommand(1);
  addSubmit(*slurm, exitCode);
  auto where = std::make_shared<std::string>();
  auto* status = slurm->add_subcommand(
      "status", "Each shard's Slurm state and whether its document or failure record exists");
  status
      ->add_option("job", *where,
                   "The job's --output-dir, its kwb-slurm.json, or its array or merge job id")
      ->required();
  auto json = std::make_shared<bool>(false);
  status->add_flag("--json", *json,
                   "One JSON object: each shard's Slurm state, result and files (for kwb-gui)");
  status->callback([where, json, &exitCode] { exitCode = slurmStatus(*where, *json); });
  auto* resume = slurm->add_subcommand(
      "resume", "Resubmit only the shards without a document, and a new merge job");
  resume
      ->add_option("job", *where,
                   "The job's --output-dir, its kwb-slurm.json, or its array or merge job id")
      ->required();
  resume->callback([where, &exitCode] { exitCode = slurmResume(*where); });
}

}  // namespace kwb::cli
