// SPDX-License-Identifier: Apache-2.0
#pragma once
// kwb slurm's calls of the Slurm commands (sbatch, squeue, sacct) and what it reads back; kwb
// schedules nothing itself (docs/SCALE_OUT.md).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "kwb/slurm_job.h"

namespace kwb::cli {

// Runs a Slurm command with its output captured (a minute at most). `ok` false when it could
// not start or exited non-zero; the text is then its standard error.
// Its output is captured in files in `logs`.
std::string slurmCall(const std::vector<std::string>& argv, const std::filesystem::path& logs,
                      bool& ok);
// sbatch --parsable `args`: the job id. Throws InputError with sbatch's message.
std::string sbatch(const std::vector<std::string>& args, const SlurmJob& job);
// A job's or task's state as Slurm gives it, and squeue's reason while it waits ("Resources",
// "Priority", "ReqNodeNotAvail, ..."; empty when squeue gives none or "None").
struct SlurmTask {
  std::string state;
  std::string reason;
};
// The array's tasks (`shards`) by shard, as squeue sees them (also finished ones it still
// keeps) and, for those it has forgotten, as sacct does; shards neither knows are absent.
// `note` says what could not be asked.
std::map<int, SlurmTask> taskStates(const std::string& arrayJob, const std::vector<int>& shards,
                                    const SlurmJob& job, std::string& note);
// One job's state (the merge job's) as squeue sees it; an empty state when squeue does not know
// it (any more) or cannot be asked.
SlurmTask jobState(const std::string& jobId, const SlurmJob& job);
// Submits the array for `shards` (all: the script's own range) and the merge job after it, and
// records the submission in the manifest. Prints the job ids.
SlurmSubmission submitShards(SlurmJob& job, const std::vector<int>& shards);

// The output folder of array or merge job `jobId`, from the script squeue says it runs. Throws
// InputError when Slurm no longer knows the job.
std::filesystem::path jobFolder(const std::string& jobId);

// kwb slurm status and resume (slurm_status.cpp); `where` is the output folder or its manifest.
// `json`: one JSON object (kind kwb-slurm-status) instead of the table.
int slurmStatus(const std::string& where, bool json);
int slurmResume(const std::string& where);

}  // namespace kwb::cli
