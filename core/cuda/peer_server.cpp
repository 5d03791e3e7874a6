// SPDX-License-Identifier: Apache-2.0
// `kwb ab-peer`: the other build's side of kwb ab across builds (peer.h).
#include <istream>
#include <map>
#include <ostream>

#include "case_start.h"
#include "kwb/cuda/ab.h"
#include "kwb/cuda/device.h"
#include "kwb/error.h"
#include "kwb/results_json.h"
#include "peer.h"

namespace kwb::cuda {
namespace {

using nlohmann::json;

struct PeerServer {
  PeerServer(const KernelRegistry& r, const RunConfig& b, DeviceInfo d)
      : registry(r), base(b), device(std::move(d)), cfg(b) {}
  const KernelRegistry& registry;
  const RunConfig& base;
  const DeviceInfo device;
  RunConfig cfg;  // the run's, once configured
  std::unique_ptr<RunState> state;
  std::map<int, PendingCase> cases;  // by handle
  int next = 0;

  Timing& timing(const json& req) {
    const auto it = cases.find(req.at("handle").get<int>());
    if (it == cases.end()) throw InputError("no case with handle " + req.at("handle").dump());
    return *it->second.timing;
  }

  json configure(const json& req) {
    cfg = base;
    cfg.seed = req.at("seed").get<std::uint64_t>();
    cfg.maxCaseSeconds = req.at("maxCaseSeconds").get<double>();
    cfg.measure = measureOptionsFromJson(req.at("measure"));
    cases.clear();
    state.reset();
    state = std::make_unique<RunState>(cfg, device);
    return {{"knownAnswer", gemmKnownAnswer()}};
  }

  // The other side's known answer is GEMM's (cuBLAS against a double-precision GEMM), as kwb ab
  // across builds has always reported it.
  KnownAnswer gemmKnownAnswer() {
    FamilyDriver& gemm = familyDriver("gemm");
    KernelDescriptor reference;  // GEMM's test runs cuBLAS whichever kernel it is given
    reference.id = gemm.family().reference;
    const KernelDescriptor* k = registry.tryFind(reference.id);
    return gemm.knownAnswer(k ? *k : reference, state->context(cfg, nullptr));
  }

  json prepare(const json& req) {
    if (!state) throw InputError("prepare before configure");
    PlanCase p{&registry.find(req.at("kernel").get<std::string>()), req.at("size").get<CaseSize>(),
               std::nullopt};
    if (p.kernel->problem != p.size.family)
      throw InputError(p.kernel->id + " solves " + p.kernel->problem + " here, not " +
                       p.size.family);
    std::string stopReason;
    PendingCase pc = startCase(p, cfg, *state, {}, stopReason);
    json r = {{"result", pc.result}};
    if (!stopReason.empty()) r["stopReason"] = stopReason;
    if (pc.timing) {
      r["handle"] = next;
      r["target"] = pc.timing->targetSamples();
      cases.emplace(next++, std::move(pc));
    }
    return r;
  }

  json take(const json& req) {
    Timing& t = timing(req);
    const std::size_t before = t.soFar().samplesMs.size();
    t.take(req.at("round").get<int>(), req.at("sweep").get<int>());
    json r = json::object();
    if (t.soFar().samplesMs.size() > before) r["ms"] = t.soFar().samplesMs.back();
    return r;  // no "ms": the sample was dropped (taken below the throttle clock)
  }

  json finish(const json& req) {
    json r = {{"measurement", measurementToJson(timing(req).finish({}))}};
    cases.erase(req.at("handle").get<int>());
    return r;
  }

  json answer(const json& req) {
    const std::string op = req.at("op").get<std::string>();
    if (op == "configure") return configure(req);
    if (op == "prepare") return prepare(req);
    if (op == "take") return take(req);
    if (op == "finish") return finish(req);
    if (op == "drop") {
      cases.erase(req.at("handle").get<int>());
      return json::object();
    }
    throw InputError("unknown request '" + op + "'");
  }
};

}  // namespace

int servePeer(std::istream& in, std::ostream& out, const KernelRegistry& registry,
              const RunConfig& base) {
  DeviceInfo device;
  try {
    device = queryDevice(base.device);
    KWB_CUDA_CHECK(cudaSetDevice(base.device));
  } catch (const std::exception& e) {
    out << json{{"error", e.what()}}.dump() << std::endl;
    return 3;
  }
  PeerServer server(registry, base, std::move(device));
  out << json{{"kwbPeer", kPeerProtocol},
              {"version", base.toolVersion},
              {"revision", base.gitRevision},
              {"device", server.device.name}}
             .dump()
      << std::endl;
  std::string line;
  while (std::getline(in, line)) {
    json reply;
    try {
      const json req = json::parse(line);
      if (req.value("op", std::string()) == "quit") break;
      reply = server.answer(req);
    } catch (const CudaError& e) {
      reply = {{"error", e.what()}, {"sticky", e.sticky()}};
    } catch (const std::exception& e) {
      reply = {{"error", e.what()}};
    }
    out << reply.dump() << std::endl;
  }
  server.cases.clear();  // the cases' inputs go before the session that made them
  return 0;
}

}  // namespace kwb::cuda
