// SPDX-License-Identifier: Apache-2.0
#include "peer.h"

#include <chrono>

#include "kwb/error.h"
#include "kwb/results_json.h"

namespace kwb::cuda {
namespace {

using nlohmann::json;

// Time limits on the other build's answers: a case's verification can take a minute at the
// largest sizes; a sample takes at most a second or so.
constexpr double kPrepareTimeoutS = 600;
constexpr double kSampleTimeoutS = 120;
constexpr double kHelloTimeoutS = 60;  // CUDA's start-up in the other process

// A case of the other build, timed there: each take() asks it for one sample.
class PeerTiming : public Timing {
 public:
  PeerTiming(PeerBuild& peer, int handle, int target) : m_peer(peer), m_handle(handle) {
    m_target = target;
  }
  ~PeerTiming() override {
    if (m_finished) return;
    try {
      m_peer.call({{"op", "drop"}, {"handle", m_handle}}, kSampleTimeoutS);
    } catch (const std::exception&) {  // the other build is gone: nothing left to free
    }
  }
  void take(int round, int sweep) override {
    const auto t0 = std::chrono::steady_clock::now();
    const json r =
        m_peer.call({{"op", "take"}, {"handle", m_handle}, {"round", round}, {"sweep", sweep}},
                    kSampleTimeoutS);
    if (r.contains("ms")) {
      m_m.samplesMs.push_back(r.at("ms").get<double>());
      m_m.rounds.push_back(round);
      m_m.sweeps.push_back(sweep);
    }
    m_sampledS += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  double sampledSeconds() const override { return m_sampledS; }
  Measurement finish(const std::function<bool()>&) override {
    m_m = measurementFromJson(
        m_peer.call({{"op", "finish"}, {"handle", m_handle}}, kPrepareTimeoutS).at("measurement"));
    m_finished = true;
    return m_m;
  }
  const Measurement& soFar() const override { return m_m; }

 private:
  PeerBuild& m_peer;
  int m_handle;
  Measurement m_m;
  double m_sampledS = 0;
  bool m_finished = false;
};

}  // namespace

json measureOptionsToJson(const MeasureOptions& o) {
  return {{"warmups", o.warmups},
          {"minSamples", o.rule.minSamples},
          {"maxSamples", o.rule.maxSamples},
          {"minTimeS", o.rule.minTimeS},
          {"maxTimeS", o.rule.maxTimeS},
          {"maxNoise", o.rule.maxNoise},
          {"timeCapsMinSamples", o.rule.timeCapsMinSamples},
          {"rounds", o.rounds},
          {"seed", o.seed},
          {"coldL2", o.coldL2},
          {"timer", toString(o.timer)},
          {"cuptiCheck", o.cuptiCheck}};
}

MeasureOptions measureOptionsFromJson(const json& j) {
  MeasureOptions o;
  o.warmups = j.at("warmups").get<int>();
  o.rule.minSamples = j.at("minSamples").get<int>();
  o.rule.maxSamples = j.at("maxSamples").get<int>();
  o.rule.minTimeS = j.at("minTimeS").get<double>();
  o.rule.maxTimeS = j.at("maxTimeS").get<double>();
  o.rule.maxNoise = j.at("maxNoise").get<double>();
  o.rule.timeCapsMinSamples = j.at("timeCapsMinSamples").get<bool>();
  o.rounds = j.at("rounds").get<int>();
  o.seed = j.at("seed").get<std::uint64_t>();
  o.coldL2 = j.at("coldL2").get<bool>();
  o.timer = parseTimerMode(j.at("timer").get<std::string>());
  o.cuptiCheck = j.at("cuptiCheck").get<bool>();
  return o;
}

json measurementToJson(const Measurement& m) {
  auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  return {{"samplesMs", m.samplesMs},
          {"rounds", m.rounds},
          {"sweeps", m.sweeps},
          {"launchesPerSample", m.launchesPerSample},
          {"reason", int(m.reason)},
          {"timer", toString(m.timer)},
          {"timerNote", m.timerNote},
          {"throttledSamples", m.throttledSamples},
          {"warmupSmClockMhz", m.warmupSmClockMhz},
          {"kernels", m.kernels},
          {"cuptiMedianMs", opt(m.cuptiMedianMs)},
          {"cuptiSpanMedianMs", opt(m.cuptiSpanMedianMs)},
          {"cuptiNote", m.cuptiNote}};
}

Measurement measurementFromJson(const json& j) {
  Measurement m;
  m.samplesMs = j.at("samplesMs").get<std::vector<double>>();
  m.rounds = j.at("rounds").get<std::vector<int>>();
  m.sweeps = j.at("sweeps").get<std::vector<int>>();
  if (m.rounds.size() != m.samplesMs.size() || m.sweeps.size() != m.samplesMs.size())
    throw InputError("samples, rounds and sweeps differ in length");
  m.launchesPerSample = j.at("launchesPerSample").get<int>();
  m.reason = StopReason(j.at("reason").get<int>());
  m.timer = parseTimerMode(j.at("timer").get<std::string>());
  m.timerNote = j.at("timerNote").get<std::string>();
  m.throttledSamples = j.at("throttledSamples").get<int>();
  m.warmupSmClockMhz = j.at("warmupSmClockMhz").get<double>();
  m.kernels = j.at("kernels").get<std::vector<KernelRecord>>();
  auto opt = [&](const char* key) {
    const json& v = j.at(key);
    return v.is_null() ? std::optional<double>() : std::optional<double>(v.get<double>());
  };
  m.cuptiMedianMs = opt("cuptiMedianMs");
  m.cuptiSpanMedianMs = opt("cuptiSpanMedianMs");
  m.cuptiNote = j.at("cuptiNote").get<std::string>();
  return m;
}

PeerBuild::PeerBuild(const std::string& program, const RunConfig& cfg)
    : m_child({program, "ab-peer", "--device", std::to_string(cfg.device)}) {
  const std::string notPeer = "'" + program +
                              "' is not a kwb that can time against this one (kwb ab-peer, "
                              "protocol " +
                              std::to_string(kPeerProtocol) + ")";
  json hello;
  try {
    hello = json::parse(m_child.readLine(kHelloTimeoutS));
  } catch (const json::exception&) {
    throw InputError(notPeer + ": its first line is not JSON");
  } catch (const InputError& e) {
    throw InputError(notPeer + ": " + e.what());
  }
  if (hello.contains("error"))
    throw InputError("the other kwb '" + program + "': " + hello.value("error", std::string()));
  if (!hello.is_object() || hello.value("kwbPeer", 0) != kPeerProtocol)
    throw InputError(notPeer + ": it greets with " + hello.dump().substr(0, 200));
  m_version = hello.value("version", std::string());
  m_revision = hello.value("revision", std::string());
  m_deviceName = hello.value("device", std::string());
  const json r = call({{"op", "configure"},
                       {"seed", cfg.seed},
                       {"maxCaseSeconds", cfg.maxCaseSeconds},
                       {"measure", measureOptionsToJson(cfg.measure)}},
                      kPrepareTimeoutS);
  m_knownAnswer = r.at("knownAnswer").get<KnownAnswer>();
}

PeerBuild::~PeerBuild() {
  try {
    m_child.writeLine(json{{"op", "quit"}}.dump());
  } catch (const std::exception&) {  // already gone
  }
}

json PeerBuild::call(const json& request, double timeoutS) {
  json r;
  try {
    m_child.writeLine(request.dump());
    r = json::parse(m_child.readLine(timeoutS));
  } catch (const json::exception& e) {
    throw CudaError("the other kwb '" + program() + "' answered no JSON: " + e.what(), 0, false);
  } catch (const InputError& e) {
    throw CudaError(std::string("the other kwb: ") + e.what(), 0, false);
  }
  if (r.contains("error"))
    throw CudaError("the other kwb (" + program() + "): " + r.at("error").get<std::string>(), 0,
                    false);
  return r;
}

PendingCase PeerBuild::start(const PlanCase& p, const std::string& kernel) {
  const json req = {{"op", "prepare"}, {"kernel", kernel}, {"size", p.size}};
  json r;
  try {
    r = call(req, kPrepareTimeoutS);
  } catch (const CudaError& e) {
    throw InputError(e.what());  // e.g. the kernel is not in the other build: nothing to time
  }
  PendingCase pc;
  pc.result = r.at("result").get<CaseResult>();
  pc.result.kernel = p.kernel->id;
  if (r.contains("handle"))
    pc.timing =
        std::make_unique<PeerTiming>(*this, r.at("handle").get<int>(), r.at("target").get<int>());
  return pc;
}

}  // namespace kwb::cuda
