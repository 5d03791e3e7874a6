// SPDX-License-Identifier: Apache-2.0
#include "kwb/host_pool.h"

#include <poll.h>

#include <algorithm>
#include <csignal>
#include <deque>
#include <fstream>
#include <list>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include "kwb/error.h"
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

struct Running {
  PoolWorker worker;
  int gpu = 0;
  Queued job;
  std::string stderrPath;
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
    m_idle.insert(cfg.gpus.begin(), cfg.gpus.end());
  }

  HostPoolResult run() {
    while (!m_queue.empty() || !m_running.empty()) {
      if (!m_stopping && m_cfg.stopRequested && m_cfg.stopRequested()) stop();
      if (!m_stopping) startIdle();
      if (m_running.empty()) break;  // nothing can start (stopped, or no GPU may take it)
      pollOnce();
      if (m_stopping) killLate();
    }
    return std::move(m_result);
  }

 private:
  // Each idle GPU takes the first queued shard it may run: not the one its worker died on on
  // this GPU while another GPU exists.
  void startIdle() {
    for (auto g = m_idle.begin(); g != m_idle.end() && !m_queue.empty();) {
      const int gpu = *g;
      const auto job = std::find_if(m_queue.begin(), m_queue.end(), [&](const Queued& q) {
        return q.avoidGpu != gpu || m_cfg.gpus.size() == 1;
      });
      if (job == m_queue.end()) {
        ++g;
        continue;
      }
      start(gpu, *job);
      m_queue.erase(job);
      g = m_idle.erase(g);
    }
  }

  void start(int gpu, const Queued& job) {
    const std::string id = std::to_string(job.shard);
    std::vector<std::string> argv = m_cfg.workerArgv;
    const std::string doc = (m_cfg.workDir / ("shard-" + id + ".json")).string();
    for (const std::string& a :
         {std::string("--shard"), id + "/" + std::to_string(m_count), std::string("--json"), doc,
          std::string("--device"), std::string("0")})
      argv.push_back(a);
    if (m_cfg.workerStreams) argv.emplace_back("--stream");
    std::filesystem::remove(doc);
    const std::string err =
        (m_cfg.workDir / ("shard-" + id + ".try-" + std::to_string(job.attempt) + ".stderr"))
            .string();
    m_running.push_back({PoolWorker(argv, gpu, err), gpu, job, err});
  }

  void pollOnce() {
    std::vector<pollfd> fds;
    fds.reserve(m_running.size());
    for (const Running& r : m_running) fds.push_back({r.worker.outputFd(), POLLIN, 0});
    ::poll(fds.data(), fds.size(), 100);  // wakes for output, an exit, or Ctrl-C (EINTR)
    for (auto it = m_running.begin(); it != m_running.end();) {
      Running& r = *it;
      for (const std::string& line : r.worker.readLines())
        if (m_cfg.onLine) m_cfg.onLine(r.gpu, r.job.shard, line);
      if (!r.worker.ended()) {
        ++it;
        continue;
      }
      r.worker.wait();
      finished(r);
      m_idle.insert(r.gpu);
      it = m_running.erase(it);
    }
  }

  // A worker ended: exit 0 or 1 with its document (or 130 once stopped) is its shard's result;
  // anything else is a death, run once more elsewhere, then recorded as a failure.
  void finished(const Running& r) {
    const std::string label = "shard " + std::to_string(r.job.shard) + "/" +
                              std::to_string(m_count) + " on GPU " + std::to_string(r.gpu);
    const std::filesystem::path doc =
        m_cfg.workDir / ("shard-" + std::to_string(r.job.shard) + ".json");
    const int code = r.worker.exitCode();
    const bool wrote = code == 0 || code == 1 || (m_stopping && code == 130);
    if (wrote && std::filesystem::exists(doc)) {
      try {
        m_result.inputs.push_back(readShardInput(doc));
        return;
      } catch (const InputError& e) {
        note(label + ": its document is unreadable: " + e.what());
      }
    }
    ShardFailure f;
    f.shard = {r.job.shard, m_count};
    f.exitStatus = code;
    f.signal = r.worker.endSignal();
    f.host = hostName();
    f.timestamp = utcTimestamp();
    f.stderrTail = tailLines(fileText(r.stderrPath));
    std::string tail;
    for (std::size_t i = f.stderrTail.size() > 3 ? f.stderrTail.size() - 3 : 0;
         i < f.stderrTail.size(); ++i)
      tail += "\n    " + f.stderrTail[i];
    const bool again = r.job.attempt < kAttempts && !m_stopping;
    note("the worker of " + label + " died (" + f.reason().substr(0, 60) + ")" +
         (again ? "; its shard runs again on another GPU" : "; its cases stay not run") + tail);
    if (again) {
      m_queue.push_front({r.job.shard, r.gpu, r.job.attempt + 1});
      return;
    }
    const std::filesystem::path rec =
        m_cfg.workDir / ("shard-" + std::to_string(r.job.shard) + ".failure.json");
    writeShardFailure(f, rec);
    m_result.inputs.push_back(readShardInput(rec));
  }

  void stop() {
    m_stopping = true;
    m_result.interrupted = true;
    m_queue.clear();
    m_stopDeadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kStopGraceMs);
    for (const Running& r : m_running) r.worker.signal(SIGTERM);
  }

  void killLate() {
    if (std::chrono::steady_clock::now() < m_stopDeadline) return;
    for (const Running& r : m_running) r.worker.signal(SIGKILL);
  }

  void note(const std::string& text) const {
    if (m_cfg.onNote) m_cfg.onNote(text);
  }

  const HostPoolConfig& m_cfg;
  int m_count;
  std::deque<Queued> m_queue;
  std::set<int> m_idle;
  std::list<Running> m_running;  // a list: a worker is neither copied nor moved once started
  bool m_stopping = false;
  std::chrono::steady_clock::time_point m_stopDeadline;
  HostPoolResult m_result;
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

HostPoolResult runHostPool(const HostPoolConfig& cfg) {
  if (cfg.gpus.empty()) throw InputError("the host pool has no GPU to run on");
  if (cfg.shardCosts.empty()) throw InputError("the host pool has no shard to run");
  return Pool(cfg).run();
}

}  // namespace kwb
