// SPDX-License-Identifier: Apache-2.0
#include "kwb/host_pool.h"

#include <poll.h>

#include <algorithm>
#include <csignal>
#include <deque>
#include <fstream>
#include <list>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>

#include "kwb/error.h"
#include "kwb/format.h"
#include "kwb/pool_protocol.h"
#include "kwb/run_info.h"
#include "pool_worker.h"

namespace kwb {
namespace {

using detail::PoolWorker;

constexpr int kAttempts = 2;         // a shard whose worker died runs once more
constexpr int kStopGraceMs = 15000;  // after SIGTERM, workers get this long before SIGKILL

struct Queued {
  int shard = 0;
  int avoidGpu = -1;  // the GPU its worker died on
  int attempt = 1;
};

// One long-lived engine on one GPU; it runs the shards sent to it one after another.
struct Worker {
  PoolWorker proc;
  int gpu = 0;
  std::string stderrPath;
  std::optional<Queued> job;   // the shard it runs now; none while idle
  double jobSinceS = 0.0;      // when it was sent (the first: the worker started), pool seconds
  double closedS = -1.0;       // when its input was closed with nothing left for it; -1: not yet
  std::size_t startIndex = 0;  // its entry in the result's starts (its start, its CUDA up)
  bool retiring = false;       // its last shard's end said it takes no more (workerEnds)
};

std::string fileText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class Pool {
 public:
  explicit Pool(const HostPoolConfig& cfg) : m_cfg(cfg), m_count(int(cfg.shardCosts.size())) {
    for (int s : poolOrder(cfg.shardCosts)) m_queue.push_back({s});
    m_free.insert(cfg.gpus.begin(), cfg.gpus.end());
    // A worker that died while a request was written to it must not end the pool.
    m_oldPipe = std::signal(SIGPIPE, SIG_IGN);
  }
  ~Pool() { std::signal(SIGPIPE, m_oldPipe); }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  HostPoolResult run() {
    while (!m_queue.empty() || !m_workers.empty()) {
      if (!m_stopping && stopNow()) stop();
      if (!m_stopping) {
        assignIdle();
        startWorkers();
      }
      if (m_workers.empty()) break;  // nothing can start (stopped, or no GPU may take it)
      pollOnce();
      if (m_stopping) killLate();
    }
    return std::move(m_result);
  }

 private:
  bool stopNow() const { return m_stopping || (m_cfg.stopRequested && m_cfg.stopRequested()); }

  // The first queued shard `gpu` may run: not the one whose worker died on it while another
  // GPU exists.
  std::deque<Queued>::iterator nextFor(int gpu) {
    return std::find_if(m_queue.begin(), m_queue.end(), [&](const Queued& q) {
      return q.avoidGpu != gpu || m_cfg.gpus.size() == 1;
    });
  }

  // Idle workers take the next shard; with the queue empty their input is closed and they end.
  void assignIdle() {
    for (Worker& w : m_workers) assignNext(w);
  }
  void assignNext(Worker& w) {
    if (w.job || !w.proc.inputOpen()) return;
    const auto next = nextFor(w.gpu);
    if (next != m_queue.end()) {
      send(w, *next);
      m_queue.erase(next);
    } else if (m_queue.empty()) {
      w.proc.closeInput();
      w.closedS = sinceStart();
    }
  }

  // A GPU without a worker starts one when a queued shard may run on it. All at once: started
  // one after another, each once the last said its CUDA context was up, four H200s' workers were
  // up in 0.3-0.5 s each instead of 0.7-1.2 s, but the last one 1.7 s after the pool's start, and
  // the pool's wall time did not change (docs/SCALE_OUT.md).
  void startWorkers() {
    for (auto g = m_free.begin(); g != m_free.end() && !m_queue.empty();) {
      const auto next = nextFor(*g);
      if (next == m_queue.end()) {
        ++g;
        continue;
      }
      const int gpu = *g;
      std::vector<std::string> argv = m_cfg.workerArgv;
      for (const char* a : {"--pool-serve", "--device", "0"}) argv.emplace_back(a);
      if (m_cfg.workerStreams) argv.emplace_back("--stream");
      const std::string err = (m_cfg.workDir / ("gpu-" + std::to_string(gpu) + ".worker-" +
                                                std::to_string(++m_started) + ".stderr"))
                                  .string();
      const double startS = sinceStart();
      m_workers.push_back({PoolWorker(argv, gpu, err), gpu, err, std::nullopt});
      send(m_workers.back(), *next);
      m_workers.back().jobSinceS = startS;  // a worker's first shard counts from its start
      m_workers.back().startIndex = m_result.starts.size();
      m_result.starts.push_back({gpu, startS, -1.0});
      m_queue.erase(next);
      g = m_free.erase(g);
    }
  }

  std::filesystem::path documentOf(int shard) const {
    return m_cfg.workDir / ("shard-" + std::to_string(shard) + ".json");
  }

  // A worker that is gone by now fails to take it: its end reports the shard as its death.
  void send(Worker& w, const Queued& job) {
    std::filesystem::remove(documentOf(job.shard));
    w.jobSinceS = sinceStart();
    w.job = job;
    (void)w.proc.send(shardRequestLine({{job.shard, m_count}, documentOf(job.shard).string()}));
  }

  void pollOnce() {
    std::vector<pollfd> fds;
    fds.reserve(m_workers.size());
    for (const Worker& w : m_workers) fds.push_back({w.proc.outputFd(), POLLIN, 0});
    ::poll(fds.data(), fds.size(), 100);  // wakes for output, an exit, or Ctrl-C (EINTR)
    for (auto it = m_workers.begin(); it != m_workers.end();) {
      Worker& w = *it;
      for (const std::string& line : w.proc.readLines()) {
        if (isWorkerReadyLine(line)) {
          m_result.starts[w.startIndex].readyS = sinceStart();
          continue;
        }
        const std::optional<ShardEnd> end = parseShardEnd(line);
        if (!end && m_cfg.onLine) m_cfg.onLine(w.gpu, w.job ? w.job->shard : 0, line);
        if (end && w.job && end->shard == w.job->shard) {
          if (end->workerEnds) w.retiring = true;  // nothing more for it: it is ending
          shardEnded(w, *end);
          if (w.retiring) w.proc.closeInput();
        }
      }
      if (!w.proc.ended()) {
        ++it;
        continue;
      }
      w.proc.wait();
      if (!w.job && w.closedS >= 0.0) m_result.exits.push_back({w.gpu, w.closedS, sinceStart()});
      // It said with its last shard's end that it takes no more (its CUDA context was lost;
      // a fresh engine finished that shard's cases): a new worker takes the GPU's next shard.
      if (w.retiring && !m_stopping) {
        ShardFailure end;  // its end, worded as a failure record words one
        end.exitStatus = w.proc.exitCode();
        end.signal = w.proc.endSignal();
        end.stderrTail = tailLines(fileText(w.stderrPath));
        note("the worker on GPU " + std::to_string(w.gpu) + " ended after its shard (" +
             end.reason() + ")" + (m_queue.empty() ? "" : "; a new worker takes its next shard"));
      }
      if (w.job) {  // it ended in the middle of a shard
        const std::size_t span = ended(w);
        settle(span, *w.job, w.gpu, w.proc.exitCode(), w.proc.endSignal(), w.stderrPath);
      }
      m_free.insert(w.gpu);
      it = m_workers.erase(it);
    }
  }

  // The worker said its shard ended with `code`. Another code than 0, 1 (or 130 once stopped)
  // ends the worker too: its exit then reports the shard, with its standard error.
  // The worker is sent its next shard before this one's document is read: reading a document of
  // a thousand cases takes tens of milliseconds, which the worker would otherwise wait.
  void shardEnded(Worker& w, const ShardEnd& end) {
    const int code = end.exitCode;
    if (!(code == 0 || code == 1 || (code == 130 && stopNow()))) return;
    const Queued job = *w.job;
    const std::size_t span = ended(w);
    m_result.spans[span].workerS = end.workerS;
    w.job.reset();
    if (!m_stopping && !w.retiring) assignNext(w);
    settle(span, job, w.gpu, code, 0, w.stderrPath);
  }

  // The shard that ended: its span (`span`, already closed) says whether its document was taken
  // and how long its run took; a shard without its document runs again or fails.
  void settle(std::size_t span, const Queued& job, int gpu, int code, int signal,
              const std::string& stderrPath) {
    ShardSpan& s = m_result.spans[span];
    s.ok = tookDocument(job, gpu, code, s);
    if (!s.ok) failed(job, gpu, code, signal, stderrPath);
  }

  double sinceStart() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_t0).count();
  }

  // Closes the span of the worker's shard (not yet taken) and returns its index.
  std::size_t ended(const Worker& w) {
    m_result.spans.push_back({w.job->shard, w.gpu, w.jobSinceS, sinceStart(), false});
    return m_result.spans.size() - 1;
  }

  // Exit 0 or 1 with its document (or 130 once stopped) is the shard's result; its run's own
  // seconds (the document's wall time) go to `span`.
  bool tookDocument(const Queued& job, int gpu, int code, ShardSpan& span) {
    const std::filesystem::path doc = documentOf(job.shard);
    const bool wrote = code == 0 || code == 1 || (code == 130 && stopNow());
    if (!wrote || !std::filesystem::exists(doc)) return false;
    try {
      m_result.inputs.push_back(readShardInput(doc));
      if (m_result.inputs.back().document) span.runS = m_result.inputs.back().document->wallSeconds;
      return true;
    } catch (const InputError& e) {
      note(label(job, gpu) + ": its document is unreadable: " + e.what());
      return false;
    }
  }

  std::string label(const Queued& job, int gpu) const {
    return "shard " + std::to_string(job.shard) + "/" + std::to_string(m_count) + " on GPU " +
           std::to_string(gpu);
  }

  // A shard without its document: run once more elsewhere, then recorded as a failure.
  void failed(const Queued& job, int gpu, int code, int signal, const std::string& stderrPath) {
    ShardFailure f;
    f.shard = {job.shard, m_count};
    f.exitStatus = code;
    f.signal = signal;
    f.host = hostName();
    f.timestamp = utcTimestamp();
    f.stderrTail = tailLines(fileText(stderrPath));
    std::string tail;
    for (std::size_t i = f.stderrTail.size() > 3 ? f.stderrTail.size() - 3 : 0;
         i < f.stderrTail.size(); ++i)
      tail += "\n    " + f.stderrTail[i];
    const bool again = job.attempt < kAttempts && !m_stopping;
    note("the worker of " + label(job, gpu) + " died (" + f.reason().substr(0, 60) + ")" +
         (again ? "; its shard runs again on another GPU" : "; its cases stay not run") + tail);
    if (again) {
      m_queue.push_front({job.shard, gpu, job.attempt + 1});
      return;
    }
    const std::filesystem::path rec =
        m_cfg.workDir / ("shard-" + std::to_string(job.shard) + ".failure.json");
    writeShardFailure(f, rec);
    m_result.inputs.push_back(readShardInput(rec));
  }

  // Every worker is sent SIGTERM (a busy one writes its finished cases and ends) and loses its
  // input (an idle one ends).
  void stop() {
    m_stopping = true;
    m_result.interrupted = true;
    m_queue.clear();
    m_stopDeadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kStopGraceMs);
    for (Worker& w : m_workers) {
      w.proc.signal(SIGTERM);
      w.proc.closeInput();
    }
  }

  void killLate() {
    if (std::chrono::steady_clock::now() < m_stopDeadline) return;
    for (const Worker& w : m_workers) w.proc.signal(SIGKILL);
  }

  void note(const std::string& text) const {
    if (m_cfg.onNote) m_cfg.onNote(text);
  }

  const HostPoolConfig& m_cfg;
  std::chrono::steady_clock::time_point m_t0 = std::chrono::steady_clock::now();
  int m_count;
  std::deque<Queued> m_queue;
  std::set<int> m_free;         // GPUs without a worker
  std::list<Worker> m_workers;  // a list: a worker is neither copied nor moved once started
  int m_started = 0;            // workers started, to name their standard errors
  bool m_stopping = false;
  std::chrono::steady_clock::time_point m_stopDeadline;
  HostPoolResult m_result;
  void (*m_oldPipe)(int) = SIG_DFL;
};

}  // namespace

std::vector<int> parseDevices(std::string_view text, int deviceCount) {
  const std::string quoted = "--devices '" + std::string(text) + "'";
  std::vector<int> out;
  if (text == "all") {
    if (deviceCount <= 0) throw NoDeviceError("--devices all: this host has no CUDA device");
    out.resize(std::size_t(deviceCount));
    std::iota(out.begin(), out.end(), 0);
    return out;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item(text.substr(start, comma - start));
    const bool digits =
        !item.empty() && item.size() <= 6 &&
        std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits)
      throw InputError(quoted + ": '" + item +
                       "' is not a device index (give 'all' or indices such as 0,2,3)");
    const int d = std::stoi(item);
    if (d >= deviceCount)
      throw InputError(quoted + ": device " + item + " does not exist (this host has " +
                       std::to_string(deviceCount) + " CUDA device(s))");
    if (std::find(out.begin(), out.end(), d) != out.end())
      throw InputError(quoted + ": device " + item + " is named twice");
    out.push_back(d);
    start = comma + 1;
  }
  return out;
}

std::vector<int> poolOrder(const std::vector<double>& costs) {
  std::vector<int> order(costs.size());
  std::iota(order.begin(), order.end(), 1);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return costs[std::size_t(a - 1)] > costs[std::size_t(b - 1)];
  });
  return order;
}

std::vector<std::string> poolTimeline(const std::vector<ShardSpan>& spans,
                                      const std::vector<int>& gpus, double wallS,
                                      const std::vector<double>& costs,
                                      const std::vector<WorkerExit>& exits,
                                      const std::vector<WorkerStart>& starts) {
  constexpr std::size_t kListed = 8;  // shards named per GPU; the rest are counted
  std::vector<std::string> lines;
  for (const int gpu : gpus) {
    std::vector<ShardSpan> mine;
    for (const ShardSpan& s : spans)
      if (s.gpu == gpu) mine.push_back(s);
    std::sort(mine.begin(), mine.end(),
              [](const ShardSpan& a, const ShardSpan& b) { return a.startS < b.startS; });
    double busy = 0.0, inRuns = 0.0, inWorkers = 0.0;
    bool runsKnown = false, workersKnown = false;
    std::string list;
    for (std::size_t i = 0; i < mine.size(); ++i) {
      busy += mine[i].endS - mine[i].startS;
      if (mine[i].runS >= 0.0) {
        inRuns += mine[i].runS;
        runsKnown = true;
      }
      if (mine[i].workerS >= 0.0) {
        inWorkers += mine[i].workerS;
        workersKnown = true;
      }
      if (i == kListed) list += ", " + std::to_string(mine.size() - kListed) + " more";
      if (i >= kListed) continue;
      list += std::string(i ? ", " : "") + "shard " + std::to_string(mine[i].shard) + " " +
              fixed(mine[i].startS, 2) + "-" + fixed(mine[i].endS, 2) +
              (std::size_t(mine[i].shard) <= costs.size() && mine[i].shard > 0
                   ? " est " + fixed(costs[std::size_t(mine[i].shard - 1)], 2)
                   : "") +
              (mine[i].ok ? "" : " failed");
    }
    std::string line = "GPU " + std::to_string(gpu) + ": " + std::to_string(mine.size()) +
                       (mine.size() == 1 ? " shard" : " shards");
    if (!mine.empty())
      line += ", busy " + fixed(busy, 2) + " of " + fixed(wallS, 2) + " s" +
              (workersKnown ? ", " + fixed(inWorkers, 2) + " s in the worker" : "") +
              (runsKnown ? ", " + fixed(inRuns, 2) + " s in their runs" : "") + " (" + list + ")";
    double exitS = -1.0;
    for (const WorkerExit& e : exits)
      if (e.gpu == gpu) exitS = std::max(exitS, e.endS - e.closedS);
    if (exitS >= 0.0) line += ", worker's exit " + fixed(exitS, 2) + " s";
    const auto first = std::find_if(starts.begin(), starts.end(),
                                    [gpu](const WorkerStart& s) { return s.gpu == gpu; });
    if (first != starts.end())
      line += ", started at " + fixed(first->startS, 2) + " s" +
              (first->readyS >= 0.0
                   ? ", CUDA up " + fixed(first->readyS - first->startS, 2) + " s later"
                   : "");
    lines.push_back(line);
  }
  return lines;
}

HostPoolResult runHostPool(const HostPoolConfig& cfg) {
  if (cfg.gpus.empty()) throw InputError("the host pool has no GPU to run on");
  if (cfg.shardCosts.empty()) throw InputError("the host pool has no shard to run");
  return Pool(cfg).run();
}

}  // namespace kwb
