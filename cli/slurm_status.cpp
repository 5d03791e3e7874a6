// SPDX-License-Identifier: Apache-2.0
// kwb slurm status and resume: what each shard of a submitted job did, from Slurm (squeue,
// sacct) and from the files in the job's folder; resume resubmits the shards without a document.
#include <filesystem>
#include <iostream>

#include "kwb/error.h"
#include "kwb/exit_codes.h"
#include "kwb/merge.h"
#include "output.h"
#include "slurm_calls.h"

namespace kwb::cli {
namespace {

namespace fs = std::filesystem;

// `where`: the job's folder, its manifest, or the id of its array or merge job.
SlurmJob findJob(const std::string& where) {
  const bool id = !where.empty() && where.find_first_not_of("0123456789") == std::string::npos &&
                  !fs::exists(where);
  const fs::path dir = id ? jobFolder(where) : fs::path(where);
  const fs::path p = fs::is_directory(dir) ? dir / kSlurmManifest : dir;
  if (!fs::exists(p))
    throw InputError("'" + where + "' holds no kwb slurm job (" + kSlurmManifest +
                     "): give the --output-dir of kwb slurm submit");
  return readSlurmJob(p);
}

// What the folder holds for shard `i`: "document", "failed: <reason>", "partial" or "none".
std::string fileState(const SlurmJob& job, int i) {
  if (fs::exists(shardDocument(job, i))) return "document";
  if (fs::exists(shardFailureFile(job, i))) {
    try {
      return "failed: " + readShardFailure(shardFailureFile(job, i)).reason();
    } catch (const InputError& e) {
      return std::string("failed (record unreadable: ") + e.what() + ")";
    }
  }
  return fs::exists(shardPartial(job, i)) ? "partial" : "none";
}

// The shard's Slurm state in the latest submission that ran it.
std::map<int, std::string> latestStates(const SlurmJob& job, std::string& note) {
  std::map<int, std::string> states;
  for (const SlurmSubmission& s : job.submissions) {
    const auto here = taskStates(s.arrayJob, s.shards, job, note);
    for (int i : s.shards) {
      const auto it = here.find(i);
      states[i] =
          it == here.end() ? "(gone from squeue)" : it->second + " (job " + s.arrayJob + ")";
    }
  }
  return states;
}

bool active(const std::string& state) {
  return state.rfind("PENDING", 0) == 0 || state.rfind("RUNNING", 0) == 0 ||
         state.rfind("CONFIGURING", 0) == 0 || state.rfind("COMPLETING", 0) == 0 ||
         state.rfind("SUSPENDED", 0) == 0 || state.rfind("REQUEUED", 0) == 0;
}

}  // namespace

int slurmStatus(const std::string& where) {
  const SlurmJob job = findJob(where);
  std::string note;
  const auto states =
      job.submissions.empty() ? std::map<int, std::string>{} : latestStates(job, note);
  std::vector<std::vector<std::string>> rows{{"shard", "slurm", "result"}};
  int documents = 0;
  for (int i = 1; i <= job.shards; ++i) {
    const auto it = states.find(i);
    const std::string file = fileState(job, i);
    documents += file == "document";
    rows.push_back({std::to_string(i) + "/" + std::to_string(job.shards),
                    it == states.end() ? "not submitted" : it->second, file});
  }
  std::cout << "job " << job.name << " in " << job.outputDir.string() << ": kwb";
  for (const std::string& a : job.command) std::cout << ' ' << a;
  std::cout << '\n' << formatTable(rows);
  if (!note.empty()) std::cout << "note: " << note << '\n';
  const fs::path merged = job.outputDir / kSlurmMerged;
  std::cout << documents << " of " << job.shards << " shards have their document; "
            << (fs::exists(merged)        ? "merged: " + merged.string()
                : job.submissions.empty() ? std::string("not submitted")
                                          : "merge job " + job.submissions.back().mergeJob +
                                                " has not written " + merged.string() + " yet")
            << '\n';
  return documents == job.shards ? kExitOk : kExitCaseFailed;
}

int slurmResume(const std::string& where) {
  SlurmJob job = findJob(where);
  std::string note;
  const auto states = latestStates(job, note);
  std::vector<int> again;
  for (int i = 1; i <= job.shards; ++i) {
    const auto it = states.find(i);
    if (it != states.end() && active(it->second))
      throw InputError("shard " + std::to_string(i) + "/" + std::to_string(job.shards) +
                       " is still " + it->second + ": wait for it, or scancel it, then resume");
    if (!fs::exists(shardDocument(job, i))) again.push_back(i);
  }
  if (again.empty()) {
    std::cout << "nothing to resume: all " << job.shards << " shards have their document\n";
    return kExitOk;
  }
  // Their old failure records would otherwise speak for shards that have not run again yet.
  for (int i : again) fs::remove(shardFailureFile(job, i));
  submitShards(job, again);
  return kExitOk;
}

}  // namespace kwb::cli
