// SPDX-License-Identifier: Apache-2.0
// kwb slurm status and resume: what each shard of a submitted job did, from Slurm (squeue,
// sacct) and from the files in the job's folder; resume resubmits the shards without a document.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

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

// What the folder holds for shard `i`: "document", "failed" (with the record's reason),
// "partial" or "none".
std::pair<std::string, std::string> fileState(const SlurmJob& job, int i) {
  if (fs::exists(shardDocument(job, i))) return {"document", ""};
  if (fs::exists(shardFailureFile(job, i))) {
    try {
      return {"failed", readShardFailure(shardFailureFile(job, i)).reason()};
    } catch (const InputError& e) {
      return {"failed", std::string("record unreadable: ") + e.what()};
    }
  }
  return {fs::exists(shardPartial(job, i)) ? "partial" : "none", ""};
}

// The shard's Slurm state in the latest submission that ran it, and that submission's job.
struct TaskState {
  std::string state;   // squeue's or sacct's; empty when neither knows it any more
  std::string reason;  // squeue's (for a finished task too: NonZeroExitCode, ...)
  std::string job;
  // Why it is still queued (Resources, Priority, ReqNodeNotAvail, ...); empty unless PENDING.
  std::string pendingReason() const { return state.rfind("PENDING", 0) == 0 ? reason : ""; }
  std::string text() const {
    const std::string why = pendingReason();
    return state.empty() ? "(gone from squeue)"
                         : state + " (job " + job + (why.empty() ? "" : ": " + why) + ")";
  }
};

std::map<int, TaskState> latestStates(const SlurmJob& job, std::string& note) {
  std::map<int, TaskState> states;
  for (const SlurmSubmission& s : job.submissions) {
    const auto here = taskStates(s.arrayJob, s.shards, job, note);
    for (int i : s.shards) {
      const auto it = here.find(i);
      states[i] = it == here.end() ? TaskState{"", "", s.arrayJob}
                                   : TaskState{it->second.state, it->second.reason, s.arrayJob};
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

namespace {

// The machine-readable status (docs/SCALE_OUT.md, "kwb slurm status --json"): what the GUI's
// Slurm target polls over ssh.
void printStatusJson(const SlurmJob& job, const std::map<int, TaskState>& states,
                     const std::string& note) {
  const fs::path merged = job.outputDir / kSlurmMerged;
  const bool submitted = !job.submissions.empty();
  // The merge job (the GUI waits for it while it is queued or running), then merged.json, then
  // the shards: the merge job runs after every task, so a merged.json seen here comes with every
  // shard file it merged, and a merge job seen running before merged.json is no race.
  SlurmTask mergeJob = submitted ? jobState(job.submissions.back().mergeJob, job) : SlurmTask{};
  const bool mergedThere = fs::exists(merged);
  if (mergedThere) mergeJob = {};
  nlohmann::json shards = nlohmann::json::array();
  for (int i = 1; i <= job.shards; ++i) {
    const auto it = states.find(i);
    const auto [result, reason] = fileState(job, i);
    shards.push_back({{"index", i},
                      {"slurm", it == states.end() ? "" : it->second.state},
                      {"pendingReason", it == states.end() ? "" : it->second.pendingReason()},
                      {"submitted", it != states.end()},
                      {"arrayJob", it == states.end() ? "" : it->second.job},
                      {"result", result},
                      {"reason", reason},
                      {"document", shardDocument(job, i).string()},
                      {"failureRecord", shardFailureFile(job, i).string()}});
  }
  std::cout << nlohmann::json{{"kind", "kwb-slurm-status"},
                              {"version", 1},
                              {"name", job.name},
                              {"outputDir", job.outputDir.string()},
                              {"count", job.shards},
                              {"arrayJob", submitted ? job.submissions.back().arrayJob : ""},
                              {"mergeJob", submitted ? job.submissions.back().mergeJob : ""},
                              {"merged", mergedThere ? merged.string() : ""},
                              {"mergeState", mergeJob.state},
                              {"mergeReason", mergeJob.reason},
                              {"note", note},
                              {"shards", shards}}
                   .dump()
            << '\n';
}

}  // namespace

int slurmStatus(const std::string& where, bool json) {
  const SlurmJob job = findJob(where);
  std::string note;
  const auto states =
      job.submissions.empty() ? std::map<int, TaskState>{} : latestStates(job, note);
  int documents = 0;
  for (int i = 1; i <= job.shards; ++i) documents += fs::exists(shardDocument(job, i));
  const int exit = documents == job.shards ? kExitOk : kExitCaseFailed;
  if (json) {
    printStatusJson(job, states, note);
    return exit;
  }
  std::vector<std::vector<std::string>> rows{{"shard", "slurm", "result"}};
  for (int i = 1; i <= job.shards; ++i) {
    const auto it = states.find(i);
    const auto [result, reason] = fileState(job, i);
    rows.push_back({std::to_string(i) + "/" + std::to_string(job.shards),
                    it == states.end() ? "not submitted" : it->second.text(),
                    reason.empty() ? result : result + ": " + reason});
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
  return exit;
}

int slurmResume(const std::string& where) {
  SlurmJob job = findJob(where);
  std::string note;
  const auto states = latestStates(job, note);
  std::vector<int> again;
  for (int i = 1; i <= job.shards; ++i) {
    const auto it = states.find(i);
    if (it != states.end() && active(it->second.state))
      throw InputError("shard " + std::to_string(i) + "/" + std::to_string(job.shards) +
                       " is still " + it->second.text() +
                       ": wait for it, or scancel it, then resume");
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
