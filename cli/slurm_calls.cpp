// SPDX-License-Identifier: Apache-2.0
#include "slurm_calls.h"

#include <algorithm>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <sstream>

#include "kwb/child_process.h"
#include "kwb/error.h"
#include "kwb/text_file.h"

namespace kwb::cli {
namespace {

constexpr double kCallTimeoutS = 60.0;

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

// squeue's "%r" for a job that is not waiting is "None"; older versions print "(null)".
std::string waitReason(std::string reason) {
  const std::size_t first = reason.find_first_not_of(' ');
  reason = first == std::string::npos ? "" : reason.substr(first);
  while (!reason.empty() && (reason.back() == ' ' || reason.back() == '\r')) reason.pop_back();
  return reason == "None" || reason == "(null)" ? "" : reason;
}

}  // namespace

std::string slurmCall(const std::vector<std::string>& argv, const std::filesystem::path& logs,
                      bool& ok) {
  std::filesystem::create_directories(logs);
  const std::string out = (logs / ".slurm-call.out").string();
  const std::string err = (logs / ".slurm-call.err").string();
  ok = false;
  ProcessResult r;
  try {
    r = runProcess(argv, out, err, kCallTimeoutS);
  } catch (const InputError& e) {
    return e.what();  // not installed: "cannot start 'sbatch': ..."
  }
  ok = r.exitCode == 0;
  std::string text = readTextFile(ok ? out : err, "output", 1 << 20);
  if (r.timedOut) return "'" + argv[0] + "' did not answer within a minute";
  return text;
}

std::string sbatch(const std::vector<std::string>& args, const SlurmJob& job) {
  std::vector<std::string> argv{"sbatch", "--parsable"};
  argv.insert(argv.end(), args.begin(), args.end());
  bool ok = false;
  const std::string text = slurmCall(argv, job.outputDir / "logs", ok);
  // --parsable prints "id" or "id;cluster".
  std::string id = firstLine(text).substr(0, firstLine(text).find(';'));
  if (!ok || id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw InputError("sbatch failed: " + firstLine(text));
  return id;
}

std::map<int, SlurmTask> taskStates(const std::string& arrayJob, const std::vector<int>& shards,
                                    const SlurmJob& job, std::string& note) {
  std::map<int, SlurmTask> states;
  bool ok = false;
  const std::string queue =
      slurmCall({"squeue", "-h", "-r", "-t", "all", "-j", arrayJob, "-o", "%K %T %r"},
                job.outputDir / "logs", ok);
  if (ok) {
    std::istringstream in(queue);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      int task = 0;
      SlurmTask t;
      if (!(fields >> task >> t.state)) continue;
      std::getline(fields, t.reason);  // the rest of the line: a reason may hold spaces
      t.reason = waitReason(t.reason);
      states[task] = t;
    }
  } else {
    note = "squeue: " + firstLine(queue);
  }
  if (std::all_of(shards.begin(), shards.end(), [&](int i) { return states.count(i) > 0; }))
    return states;  // sacct only for the tasks squeue has forgotten
  const std::string acct = slurmCall(
      {"sacct", "-n", "-P", "-X", "-j", arrayJob, "-o", "JobID,State"}, job.outputDir / "logs", ok);
  if (!ok) {
    note += (note.empty() ? "" : "; ") + std::string("sacct: ") + firstLine(acct);
    return states;
  }
  std::istringstream in(acct);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t us = line.find('_'), bar = line.find('|');
    if (us == std::string::npos || bar == std::string::npos || bar < us) continue;
    try {
      states.emplace(std::stoi(line.substr(us + 1, bar - us - 1)),
                     SlurmTask{line.substr(bar + 1), ""});
    } catch (const std::exception&) {  // "123_[2-4]": pending tasks, squeue has them
    }
  }
  return states;
}

SlurmTask jobState(const std::string& jobId, const SlurmJob& job) {
  bool ok = false;
  const std::string line = firstLine(slurmCall(
      {"squeue", "-h", "-t", "all", "-j", jobId, "-o", "%T %r"}, job.outputDir / "logs", ok));
  if (!ok) return {};
  const std::size_t space = line.find(' ');
  return {line.substr(0, space), space == std::string::npos ? "" : waitReason(line.substr(space))};
}

std::filesystem::path jobFolder(const std::string& jobId) {
  bool ok = false;
  const std::filesystem::path logs =
      std::filesystem::temp_directory_path() / ("kwb-slurm-" + std::to_string(::getpid()));
  const std::string script =
      firstLine(slurmCall({"squeue", "-h", "-t", "all", "-j", jobId, "-o", "%o"}, logs, ok));
  std::filesystem::remove_all(logs);
  if (!ok || script.empty())
    throw InputError("Slurm does not know job " + jobId +
                     " (any more): give the job's --output-dir");
  return std::filesystem::path(script).parent_path();
}

SlurmSubmission submitShards(SlurmJob& job, const std::vector<int>& shards) {
  SlurmSubmission s;
  s.shards = shards;
  std::vector<std::string> args;
  if (int(shards.size()) != job.shards) args.push_back("--array=" + arrayRange(shards));
  args.push_back((job.outputDir / kSlurmArrayScript).string());
  s.arrayJob = sbatch(args, job);
  s.mergeJob = sbatch(
      {"--dependency=afterany:" + s.arrayJob, (job.outputDir / kSlurmMergeScript).string()}, job);
  job.submissions.push_back(s);
  writeSlurmJob(job);
  std::cout << "array job " << s.arrayJob << " (shards " << arrayRange(shards) << " of "
            << job.shards << ")\nmerge job " << s.mergeJob
            << " (after the array: " << (job.outputDir / kSlurmMerged).string() << ")\n";
  return s;
}

}  // namespace kwb::cli
