// SPDX-License-Identifier: Apache-2.0
#pragma once
// A plan run on a Slurm cluster (docs/SCALE_OUT.md): a job array of one task per shard (one GPU
// each), each writing its shard document or a failure record, and a merge job that runs after
// the whole array, however its tasks ended. kwb writes the two batch scripts and a manifest; it
// never schedules anything itself (kwb slurm calls sbatch, squeue, sacct).
#include <filesystem>
#include <string>
#include <vector>

namespace kwb {

inline constexpr const char* kSlurmManifest = "kwb-slurm.json";
inline constexpr const char* kSlurmArrayScript = "kwb-array.sbatch";
inline constexpr const char* kSlurmMergeScript = "kwb-merge.sbatch";
inline constexpr const char* kSlurmMerged = "merged.json";

// One sbatch of the array (and its merge job): which shards it ran.
struct SlurmSubmission {
  std::string arrayJob;
  std::string mergeJob;
  std::vector<int> shards;
};

// What `kwb slurm submit` was asked, kept in the output folder so that status and resume know
// the job.
struct SlurmJob {
  std::string name = "kwb";
  int shards = 0;
  std::string kwb;                   // the engine on the compute nodes (an absolute path)
  std::vector<std::string> command;  // kwb's arguments: "run", "--suite", "spec-benchmark", ...
  std::filesystem::path outputDir;   // absolute
  std::string partition;             // empty: the cluster's default
  int gpusPerTask = 1;               // 0: no GPU request (a cluster without GPUs, tests)
  std::string time;                  // empty: the partition's default
  std::vector<SlurmSubmission> submissions;
};

// The files of shard `index`: its document, its failure record, what an interrupted run wrote,
// and its standard error.
std::filesystem::path shardDocument(const SlurmJob& job, int index);
std::filesystem::path shardFailureFile(const SlurmJob& job, int index);
std::filesystem::path shardPartial(const SlurmJob& job, int index);
std::filesystem::path shardStderr(const SlurmJob& job, int index);

// `text` as one word of a POSIX shell: 'single-quoted', quotes inside escaped.
std::string shellQuote(const std::string& text);
// The array's batch script: #SBATCH lines for the array 1-N, one task, the GPU request, the
// partition and time limit; the task runs `kwb <command> --shard $SLURM_ARRAY_TASK_ID/N --json
// <its document>`, and when kwb ends without a document (or is interrupted: its partial
// document is moved aside) writes a failure record with `kwb shard-failure`.
std::string arrayScript(const SlurmJob& job);
// The merge job's script: `kwb merge --shards N` of every shard document and failure record
// in the output folder, into merged.json.
std::string mergeScript(const SlurmJob& job);
// "1-3,5,7-8" for sbatch --array.
std::string arrayRange(const std::vector<int>& shards);

std::string toJsonText(const SlurmJob& job);
// Throws InputError naming `path` when it is not a kwb slurm manifest.
SlurmJob readSlurmJob(const std::filesystem::path& path);
void writeSlurmJob(const SlurmJob& job);  // into job.outputDir / kSlurmManifest

}  // namespace kwb
