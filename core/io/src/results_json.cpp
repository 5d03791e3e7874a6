// SPDX-License-Identifier: Apache-2.0
#include "kwb/results_json.h"

#include <cmath>

#include "energy_json.h"
#include "json_read.h"
#include "conformance_json.h"
#include "timing_json.h"
#include "kwb/error.h"
#include "kwb/family.h"
#include "kwb/size_json.h"
#include "kwb/tuning_json.h"

namespace kwb {
using jsonread::get;
using nlohmann::json;

namespace {

// NaN and Inf are not JSON numbers; they are stored as strings and read back.
json number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

template <class T>
void getOpt(const json& j, const char* key, std::optional<T>& out) {
  if (auto it = j.find(key); it != j.end() && !it->is_null())
    jsonread::read(*it, key, out.emplace());
  else
    out.reset();
}

json compareToJson(const CompareReport& r) {
  json j = {{"elements", r.elements},       {"mismatches", r.mismatches},
            {"nonFinite", r.nonFinite},     {"maxAbsError", r.maxAbsError},
            {"maxRelError", r.maxRelError}, {"firstMismatch", nullptr}};
  if (r.firstMismatch)
    j["firstMismatch"] = {{"row", r.firstMismatch->row},
                          {"col", r.firstMismatch->col},
                          {"got", number(r.firstMismatch->got)},
                          {"expected", number(r.firstMismatch->expected)}};
  j["firstMismatchIndex"] = r.firstMismatchIndex ? json(*r.firstMismatchIndex) : json(nullptr);
  json maxAbs = json::array();
  for (double v : r.grid.maxAbs) maxAbs.push_back(number(v));
  j["errorGrid"] = {{"rows", r.grid.rows},
                    {"cols", r.grid.cols},
                    {"maxAbs", maxAbs},
                    {"mismatches", r.grid.mismatches}};
  return j;
}

CompareReport compareFromJson(const json& j) {
  CompareReport r;
  get(j, "elements", r.elements);
  get(j, "mismatches", r.mismatches);
  get(j, "nonFinite", r.nonFinite);
  get(j, "maxAbsError", r.maxAbsError);
  get(j, "maxRelError", r.maxRelError);
  if (const auto& m = j.at("firstMismatch"); !m.is_null()) {
    get(m, "row", r.firstMismatch.emplace().row);
    get(m, "col", r.firstMismatch->col);
    get(m, "got", r.firstMismatch->got);
    get(m, "expected", r.firstMismatch->expected);
  }
  getOpt(j, "firstMismatchIndex", r.firstMismatchIndex);  // schema 4; absent before
  {}
  // Optional: documents written before the grid existed have none.
  if (auto g = j.find("errorGrid"); g != j.end() && !g->is_null()) {
    get(*g, "rows", r.grid.rows);
    get(*g, "cols", r.grid.cols);
    // At most kErrorGridCells a side (compare.h): a larger grid is not one kwb wrote, and
    // drawing it could take minutes and gigabytes.
    for (const int side : {r.grid.rows, r.grid.cols})
      if (side < 0 || side > kErrorGridCells)
        throw InputError("errorGrid is " + std::to_string(r.grid.rows) + " x " +
                         std::to_string(r.grid.cols) + " cells; each side must be from 0 to " +
                         std::to_string(kErrorGridCells));
    get(*g, "maxAbs", r.grid.maxAbs);
    get(*g, "mismatches", r.grid.mismatches);
    const auto cells = std::size_t(r.grid.rows) * std::size_t(r.grid.cols);
    if (r.grid.maxAbs.size() != cells || r.grid.mismatches.size() != cells)
      throw InputError("errorGrid size does not match rows x cols");
  }
  return r;
}

}  // namespace

void to_json(json& j, const Shape& v) { j = {{"m", v.m}, {"n", v.n}, {"k", v.k}}; }
namespace {
// A shape read from a file passes the rules of a typed one (checkedShape), or is refused with
// its message. `unset` allows 0x0x0, written where no shape applies.
Shape readShape(const json& j, bool allowUnset) {
  Shape v;
  get(j, "m", v.m);
  get(j, "n", v.n);
  get(j, "k", v.k);
  if (allowUnset && v == Shape{}) return v;
  return checkedShape(v.m, v.n, v.k);
}
}  // namespace

void from_json(const json& j, Shape& v) { v = readShape(j, false); }

void to_json(json& j, const DeviceInfo& v) {
  j = {{"index", v.index},
       {"name", v.name},
       {"computeCapability", {v.ccMajor, v.ccMinor}},
       {"smCount", v.smCount},
       {"smClockMhz", v.smClockMhz},
       {"memClockMhz", v.memClockMhz},
       {"memBusWidthBits", v.memBusWidthBits},
       {"totalMemoryBytes", v.totalMemoryBytes},
       {"l2Bytes", v.l2Bytes},
       {"warpSize", v.warpSize},
       {"maxThreadsPerBlock", v.maxThreadsPerBlock},
       {"maxBlockDim", {v.maxBlockDim[0], v.maxBlockDim[1], v.maxBlockDim[2]}},
       {"sharedMemPerBlockOptin", v.sharedMemPerBlockOptin},
       {"driverVersion", v.driverVersion},
       {"runtimeVersion", v.runtimeVersion},
       {"peakFp32Tflops", v.peakFp32Tflops},
       {"peakFp16TensorTflops", v.peakFp16TensorTflops},
       {"peakTf32TensorTflops", v.peakTf32TensorTflops},
       {"peakBandwidthGBs", v.peakBandwidthGBs},
       {"copyBandwidthGBs", v.copyBandwidthGBs}};
  if (!v.uuid.empty()) j["uuid"] = v.uuid;  // schema 7
  if (!v.pciBusId.empty()) j["pciBusId"] = v.pciBusId;
  if (!v.host.empty()) j["host"] = v.host;
}
void from_json(const json& j, DeviceInfo& v) {
  get(j, "index", v.index);
  get(j, "name", v.name);
  const auto& cc = j.at("computeCapability");
  jsonread::read(cc.at(0), "computeCapability", v.ccMajor);
  jsonread::read(cc.at(1), "computeCapability", v.ccMinor);
  get(j, "smCount", v.smCount);
  get(j, "smClockMhz", v.smClockMhz);
  get(j, "memClockMhz", v.memClockMhz);
  get(j, "memBusWidthBits", v.memBusWidthBits);
  get(j, "totalMemoryBytes", v.totalMemoryBytes);
  get(j, "l2Bytes", v.l2Bytes);
  get(j, "warpSize", v.warpSize);
  get(j, "maxThreadsPerBlock", v.maxThreadsPerBlock);
  for (int i = 0; i < 3; ++i)
    jsonread::read(j.at("maxBlockDim").at(std::size_t(i)), "maxBlockDim", v.maxBlockDim[i]);
  get(j, "sharedMemPerBlockOptin", v.sharedMemPerBlockOptin);
  get(j, "driverVersion", v.driverVersion);
  get(j, "runtimeVersion", v.runtimeVersion);
  get(j, "peakFp32Tflops", v.peakFp32Tflops);
  get(j, "peakFp16TensorTflops", v.peakFp16TensorTflops);
  get(j, "peakTf32TensorTflops", v.peakTf32TensorTflops);
  get(j, "peakBandwidthGBs", v.peakBandwidthGBs);
  v.copyBandwidthGBs = jsonread::value(j, "copyBandwidthGBs", 0.0);  // schema 4
  v.uuid = jsonread::value(j, "uuid", std::string());                // schema 7
  v.pciBusId = jsonread::value(j, "pciBusId", std::string());
  v.host = jsonread::value(j, "host", std::string());
}

void to_json(json& j, const CaseResult& v) {
  j = {{"kernel", v.kernel},
       {"size", v.size},
       {"precision", toString(v.precision)},
       {"status", toString(v.status)},
       {"message", v.message},
       {"fallback", v.fallback},
       {"ranKernel", v.ranKernel},
       {"verification", nullptr},
       {"samplesMs", v.samplesMs},
       {"sampleRounds", v.sampleRounds},
       {"uncertainty", uncertaintyToJson(v.uncertainty)},
       {"launchesPerSample", v.launchesPerSample},
       {"coldL2", v.coldL2},
       {"timer", toString(v.timer)},
       {"timerNote", v.timerNote},
       {"throttledSamples", v.throttledSamples},
       {"warmupSmClockMhz", v.warmupSmClockMhz},
       {"kernels", v.kernels},
       {"cuptiMedianMs", v.cuptiMedianMs ? json(*v.cuptiMedianMs) : json(nullptr)},
       {"timerVsCuptiPct", v.timerVsCuptiPct ? json(*v.timerVsCuptiPct) : json(nullptr)},
       {"summary", summaryToJson(v.summary)},
       {"gflops", v.gflops},
       {"pctOfFp32Reference", v.pctOfFp32Reference ? json(*v.pctOfFp32Reference) : json(nullptr)},
       {"pctOfFp16Reference", v.pctOfFp16Reference ? json(*v.pctOfFp16Reference) : json(nullptr)},
       {"paired", pairedToJson(v.paired)},
       {"arithmeticIntensity", v.arithmeticIntensity},
       {"bandwidthGBs", v.bandwidthGBs},
       {"clocks",
        {{"available", v.clocks.available},
         {"smClockMhzMin", v.clocks.smClockMhzMin},
         {"smClockMhzMax", v.clocks.smClockMhzMax},
         {"temperatureCMax", v.clocks.temperatureCMax},
         {"powerWMean", v.clocks.powerWMean},
         {"throttleReasons", v.clocks.throttleReasons}}},
       {"figures", v.figures}};
  if (v.config) j["config"] = *v.config;                                      // tuning sweeps only
  if (v.pctOfBf16Reference) j["pctOfBf16Reference"] = *v.pctOfBf16Reference;  // BF16 inputs only
  j["device"] = v.device >= 0 ? json(v.device) : json(nullptr);               // schema 7
  if (!v.sourcePath.empty()) {  // user kernels only: built-in cases keep their schema
    j["sourcePath"] = v.sourcePath;
    j["sourceHash"] = v.sourceHash;
  }
  if (const auto& ver = v.verification) {
    j["verification"] = {
        {"reference", ver->reference},
        {"seed", ver->seed},
        {"rtol", ver->tolerance.rtol},
        {"atol", ver->tolerance.atol},
        {"unwritten", ver->unwritten},
        {"compare", compareToJson(ver->compare)},
        {"negativeControlRejected", ver->negativeControlRejected},
        {"alphaBeta", ver->alphaBeta ? compareToJson(*ver->alphaBeta) : json(nullptr)}};
    // Optional (absent before these checks): docs/RESULTS.md.
    if (ver->nanFromOutput) j["verification"]["nanFromOutput"] = *ver->nanFromOutput;
    if (ver->timedOutput) j["verification"]["timedOutput"] = compareToJson(*ver->timedOutput);
  }
  if (v.inputSets > 1) j["inputSets"] = v.inputSets;  // kwb run --fresh-inputs
  if (!v.suspicious.empty()) j["suspicious"] = v.suspicious;
  if (v.energy) j["energy"] = energyToJson(*v.energy);  // kwb run --energy
}

namespace {

std::optional<Verification> readVerification(const json& ver) {
  if (ver.is_null()) return std::nullopt;
  Verification out;
  get(ver, "reference", out.reference);
  get(ver, "seed", out.seed);
  get(ver, "rtol", out.tolerance.rtol);
  get(ver, "atol", out.tolerance.atol);
  get(ver, "unwritten", out.unwritten);
  out.compare = compareFromJson(ver.at("compare"));
  get(ver, "negativeControlRejected", out.negativeControlRejected);
  if (const auto& ab = ver.at("alphaBeta"); !ab.is_null()) out.alphaBeta = compareFromJson(ab);
  if (auto n = ver.find("nanFromOutput"); n != ver.end() && !n->is_null())
    out.nanFromOutput = jsonread::toInt<std::int64_t>(*n, "nanFromOutput");
  if (auto t = ver.find("timedOutput"); t != ver.end() && !t->is_null())
    out.timedOutput = compareFromJson(*t);
  return out;
}

// The samples, their rounds and the interval's make-up (schema 5; older documents are one
// round with the distribution-free CI they were written with), the timer and CUPTI's kernels.
void readSamples(const json& j, CaseResult& v) {
  get(j, "samplesMs", v.samplesMs);
  v.sampleRounds.clear();
  v.uncertainty = {};
  if (auto r = j.find("sampleRounds"); r != j.end() && !r->is_null())
    get(j, "sampleRounds", v.sampleRounds);
  if (!v.sampleRounds.empty() && v.sampleRounds.size() != v.samplesMs.size())
    throw InputError("sampleRounds has " + std::to_string(v.sampleRounds.size()) + " entries for " +
                     std::to_string(v.samplesMs.size()) + " samples");
  if (auto u = j.find("uncertainty"); u != j.end() && !u->is_null())
    v.uncertainty = uncertaintyFromJson(*u);
  else if (!v.samplesMs.empty())
    v.uncertainty.replicates = 1;
  get(j, "launchesPerSample", v.launchesPerSample);
  get(j, "coldL2", v.coldL2);
  // Schema 1 had no timer field: its events enclosed the host's enqueue.
  v.timer =
      parseTimerMode(jsonread::value(j, "timer", std::string(toString(TimerMode::kHostEvents))));
  v.timerNote = jsonread::value(j, "timerNote", std::string());
  v.throttledSamples = jsonread::value(j, "throttledSamples", 0);
  v.warmupSmClockMhz = jsonread::value(j, "warmupSmClockMhz", 0.0);
  v.kernels.clear();
  if (auto it = j.find("kernels"); it != j.end() && !it->is_null())
    v.kernels = it->get<std::vector<KernelRecord>>();
  getOpt(j, "cuptiMedianMs", v.cuptiMedianMs);
  getOpt(j, "timerVsCuptiPct", v.timerVsCuptiPct);
}

void readClocks(const json& c, ClockSample& v) {
  get(c, "available", v.available);
  get(c, "smClockMhzMin", v.smClockMhzMin);
  get(c, "smClockMhzMax", v.smClockMhzMax);
  get(c, "temperatureCMax", v.temperatureCMax);
  get(c, "powerWMean", v.powerWMean);
  get(c, "throttleReasons", v.throttleReasons);
}

// The family's figures; schemas 1-3 had only the GEMM fields, from which they are derived.
void readFigures(const json& j, CaseResult& v) {
  v.figures.clear();
  if (auto f = j.find("figures"); f != j.end() && !f->is_null()) {
    for (const auto& [key, value] : f->items()) jsonread::read(value, key.c_str(), v.figures[key]);
  } else if (v.timed()) {
    v.figures["gflops"] = v.gflops;
    v.figures["gbps"] = v.bandwidthGBs;
    if (v.pctOfFp32Reference) v.figures["pct_of_reference"] = *v.pctOfFp32Reference;
  }
}

}  // namespace

void from_json(const json& j, CaseResult& v) {
  get(j, "kernel", v.kernel);
  v.size = readCaseSize(j);
  v.precision = parsePrecision(j.at("precision").get<std::string>());
  v.status = parseCaseStatus(j.at("status").get<std::string>());
  get(j, "message", v.message);
  get(j, "fallback", v.fallback);
  get(j, "ranKernel", v.ranKernel);
  v.sourcePath = j.value("sourcePath", std::string());  // user kernels only
  v.sourceHash = j.value("sourceHash", std::string());
  v.verification = readVerification(j.at("verification"));
  readSamples(j, v);
  v.summary = summaryFromJson(j.at("summary"));
  get(j, "gflops", v.gflops);
  getOpt(j, "pctOfFp32Reference", v.pctOfFp32Reference);
  getOpt(j, "pctOfFp16Reference", v.pctOfFp16Reference);
  getOpt(j, "pctOfBf16Reference", v.pctOfBf16Reference);  // absent: not a BF16 case
  v.paired.clear();
  if (auto p = j.find("paired"); p != j.end() && !p->is_null()) v.paired = pairedFromJson(*p);
  get(j, "arithmeticIntensity", v.arithmeticIntensity);
  get(j, "bandwidthGBs", v.bandwidthGBs);
  readClocks(j.at("clocks"), v.clocks);
  getOpt(j, "config", v.config);
  readFigures(j, v);
  v.device = 0;  // before schema 7: the document's one device
  if (auto d = j.find("device"); d != j.end())
    v.device = d->is_null() ? -1 : jsonread::toInt<int>(*d, "device");
  v.inputSets = jsonread::value(j, "inputSets", 1);
  v.suspicious = jsonread::value(j, "suspicious", std::string());
  v.energy.reset();
  if (auto e = j.find("energy"); e != j.end() && !e->is_null()) v.energy = energyFromJson(*e);
}

void to_json(json& j, const RunSettings& v) {
  j = {{"suite", v.suite},           {"seed", v.seed},
       {"verifyOnly", v.verifyOnly}, {"coldL2", v.coldL2},
       {"warmups", v.warmups},       {"minSamples", v.minSamples},
       {"maxSamples", v.maxSamples}, {"minTimeS", v.minTimeS},
       {"maxTimeS", v.maxTimeS},     {"maxNoise", v.maxNoise},
       {"timer", toString(v.timer)}, {"cuptiCheck", v.cuptiCheck},
       {"replicates", v.replicates}, {"profiler", v.profiler}};
  if (v.freshInputs > 1) j["freshInputs"] = v.freshInputs;
  if (v.energySeconds > 0) j["energySeconds"] = v.energySeconds;
}
void from_json(const json& j, RunSettings& v) {
  get(j, "suite", v.suite);
  get(j, "seed", v.seed);
  get(j, "verifyOnly", v.verifyOnly);
  get(j, "coldL2", v.coldL2);
  get(j, "warmups", v.warmups);
  get(j, "minSamples", v.minSamples);
  get(j, "maxSamples", v.maxSamples);
  get(j, "minTimeS", v.minTimeS);
  get(j, "maxTimeS", v.maxTimeS);
  get(j, "maxNoise", v.maxNoise);
  v.timer =
      parseTimerMode(jsonread::value(j, "timer", std::string(toString(TimerMode::kHostEvents))));
  v.cuptiCheck = jsonread::value(j, "cuptiCheck", false);
  v.replicates = jsonread::value(j, "replicates", 1);
  v.profiler = jsonread::value(j, "profiler", std::string());
  v.freshInputs = jsonread::value(j, "freshInputs", 1);
  v.energySeconds = jsonread::value(j, "energySeconds", 0.0);
}

void to_json(json& j, const KnownAnswer& v) {
  j = {{"ran", v.ran},
       {"passed", v.passed},
       {"detail", v.detail},
       {"shape", v.shape},
       {"maxRelError", v.maxRelError}};
}
void from_json(const json& j, KnownAnswer& v) {
  get(j, "ran", v.ran);
  get(j, "passed", v.passed);
  get(j, "detail", v.detail);
  v.shape = readShape(j.at("shape"), true);  // a 1-D family's test has no shape
  get(j, "maxRelError", v.maxRelError);
}

void to_json(json& j, const ProgressionCheck& v) {
  j = {{"checked", v.checked}, {"violations", json::array()}};
  for (const auto& x : v.violations) {
    json e = {{"shape", x.shape},
              {"from", x.from},
              {"to", x.to},
              {"fromGflops", x.fromGflops},
              {"toGflops", x.toGflops},
              {"withinNoise", x.withinNoise},
              {"size", x.size}};
    if (!x.explanation.empty()) e["explanation"] = x.explanation;  // schema 4, optional
    j["violations"].push_back(e);
  }
}
void from_json(const json& j, ProgressionCheck& v) {
  get(j, "checked", v.checked);
  v.violations.clear();
  for (const auto& x : j.at("violations")) {
    ProgressionViolation pv;
    pv.shape = readShape(x.at("shape"), true);  // 0x0x0 for a 1-D family
    get(x, "from", pv.from);
    get(x, "to", pv.to);
    get(x, "fromGflops", pv.fromGflops);
    get(x, "toGflops", pv.toGflops);
    pv.size = jsonread::value(x, "size", toString(pv.shape));  // schema 4
    pv.withinNoise =
        jsonread::value(x, "withinNoise", false);  // absent in documents before it existed
    pv.explanation = jsonread::value(x, "explanation", std::string());
    v.violations.push_back(pv);
  }
}

void to_json(json& j, const LaunchOverhead& v) {
  j = {{"isolatedUs", v.isolatedUs}, {"backToBackUs", v.backToBackUs}};
}
void from_json(const json& j, LaunchOverhead& v) {
  get(j, "isolatedUs", v.isolatedUs);
  get(j, "backToBackUs", v.backToBackUs);
}

void to_json(json& j, const RunDocument& v) {
  j = {{"schemaVersion", v.schemaVersion},
       {"tool", {{"name", "kwb"}, {"version", v.toolVersion}, {"gitRevision", v.gitRevision}}},
       {"timestamp", v.timestamp},
       {"host", v.host},
       {"device", v.device ? json(*v.device) : json(nullptr)},
       {"devices", v.deviceList()},
       {"settings", v.settings},
       {"kernels", v.kernels},
       {"families", v.families},
       {"knownAnswer", v.knownAnswer},
       {"cases", v.cases},
       {"progression", v.progression},
       {"conformance", v.conformance ? conformanceToJson(*v.conformance) : json(nullptr)},
       {"tuning", v.tuning ? json(*v.tuning) : json(nullptr)},
       {"launchOverhead", v.launchOverhead ? json(*v.launchOverhead) : json(nullptr)},
       {"wallSeconds", v.wallSeconds}};
  writeScaleOut(j, v);
}
void from_json(const json& j, RunDocument& v) {
  get(j, "schemaVersion", v.schemaVersion);
  get(j.at("tool"), "version", v.toolVersion);
  get(j.at("tool"), "gitRevision", v.gitRevision);
  get(j, "timestamp", v.timestamp);
  get(j, "host", v.host);
  getOpt(j, "device", v.device);
  get(j, "settings", v.settings);
  v.kernels.clear();
  if (auto it = j.find("kernels"); it != j.end() && !it->is_null()) get(j, "kernels", v.kernels);
  v.families.clear();
  if (auto it = j.find("families"); it != j.end() && !it->is_null())
    get(j, "families", v.families);  // schema 6
  get(j, "knownAnswer", v.knownAnswer);
  get(j, "cases", v.cases);
  get(j, "progression", v.progression);
  v.conformance.reset();
  if (auto it = j.find("conformance"); it != j.end() && !it->is_null())
    v.conformance = conformanceFromJson(*it);
  getOpt(j, "tuning", v.tuning);
  v.launchOverhead.reset();
  if (auto it = j.find("launchOverhead"); it != j.end() && !it->is_null())
    v.launchOverhead = it->get<LaunchOverhead>();
  get(j, "wallSeconds", v.wallSeconds);
  readScaleOut(j, v);
  listMissingKernels(v);  // documents before the list, or a list missing an id
  listMissingFamilies(v);
  for (CaseResult& c : v.cases)
    deriveOlderSchemaFigures(c, v.family(c.problem()), v.schemaVersion,
                             v.device ? &*v.device : nullptr);
}

void encodeNonFinite(json& j) {
  if (j.is_number_float()) {
    if (!std::isfinite(j.get<double>())) j = number(j.get<double>());
  } else if (j.is_structured()) {
    for (auto& e : j) encodeNonFinite(e);
  }
}

}  // namespace kwb
