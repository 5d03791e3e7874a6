#include "kwb/results_json.h"

#include <cmath>

#include "kwb/tuning_json.h"

namespace kwb {
using nlohmann::json;

namespace {

// NaN and Inf are not JSON numbers; they are stored as strings and read back.
json number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return v;
}

double readNumber(const json& j) {
  if (j.is_string()) {
    const auto s = j.get<std::string>();
    if (s == "NaN") return NAN;
    if (s == "Infinity") return INFINITY;
    if (s == "-Infinity") return -INFINITY;
    throw json::type_error::create(302, "expected a number or NaN/Infinity, got '" + s + "'", &j);
  }
  if (j.is_null()) return NAN;  // nlohmann writes NaN as null
  return j.get<double>();
}

template <class T>
void getOpt(const json& j, const char* key, std::optional<T>& out) {
  if (auto it = j.find(key); it != j.end() && !it->is_null())
    out = it->template get<T>();
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
  j.at("elements").get_to(r.elements);
  j.at("mismatches").get_to(r.mismatches);
  j.at("nonFinite").get_to(r.nonFinite);
  j.at("maxAbsError").get_to(r.maxAbsError);
  j.at("maxRelError").get_to(r.maxRelError);
  if (const auto& m = j.at("firstMismatch"); !m.is_null())
    r.firstMismatch = Mismatch{m.at("row").get<std::int64_t>(), m.at("col").get<std::int64_t>(),
                               readNumber(m.at("got")), readNumber(m.at("expected"))};
  // Optional: documents written before the grid existed have none.
  if (auto g = j.find("errorGrid"); g != j.end() && !g->is_null()) {
    g->at("rows").get_to(r.grid.rows);
    g->at("cols").get_to(r.grid.cols);
    for (const auto& v : g->at("maxAbs")) r.grid.maxAbs.push_back(readNumber(v));
    g->at("mismatches").get_to(r.grid.mismatches);
    const auto cells = std::size_t(r.grid.rows) * std::size_t(r.grid.cols);
    if (r.grid.maxAbs.size() != cells || r.grid.mismatches.size() != cells)
      throw json::other_error::create(501, "errorGrid size does not match rows x cols", &*g);
  }
  return r;
}

}  // namespace

void to_json(json& j, const Shape& v) { j = {{"m", v.m}, {"n", v.n}, {"k", v.k}}; }
void from_json(const json& j, Shape& v) {
  j.at("m").get_to(v.m);
  j.at("n").get_to(v.n);
  j.at("k").get_to(v.k);
}

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
       {"peakBandwidthGBs", v.peakBandwidthGBs}};
}
void from_json(const json& j, DeviceInfo& v) {
  j.at("index").get_to(v.index);
  j.at("name").get_to(v.name);
  const auto& cc = j.at("computeCapability");
  cc.at(0).get_to(v.ccMajor);
  cc.at(1).get_to(v.ccMinor);
  j.at("smCount").get_to(v.smCount);
  j.at("smClockMhz").get_to(v.smClockMhz);
  j.at("memClockMhz").get_to(v.memClockMhz);
  j.at("memBusWidthBits").get_to(v.memBusWidthBits);
  j.at("totalMemoryBytes").get_to(v.totalMemoryBytes);
  j.at("l2Bytes").get_to(v.l2Bytes);
  j.at("warpSize").get_to(v.warpSize);
  j.at("maxThreadsPerBlock").get_to(v.maxThreadsPerBlock);
  for (int i = 0; i < 3; ++i) j.at("maxBlockDim").at(std::size_t(i)).get_to(v.maxBlockDim[i]);
  j.at("sharedMemPerBlockOptin").get_to(v.sharedMemPerBlockOptin);
  j.at("driverVersion").get_to(v.driverVersion);
  j.at("runtimeVersion").get_to(v.runtimeVersion);
  j.at("peakFp32Tflops").get_to(v.peakFp32Tflops);
  j.at("peakFp16TensorTflops").get_to(v.peakFp16TensorTflops);
  j.at("peakTf32TensorTflops").get_to(v.peakTf32TensorTflops);
  j.at("peakBandwidthGBs").get_to(v.peakBandwidthGBs);
}

static json kernelsToJson(const std::vector<KernelRecord>& kernels) {
  json a = json::array();
  for (const auto& k : kernels)
    a.push_back({{"name", k.name}, {"perLaunch", k.perLaunch}, {"medianMs", k.medianMs}});
  return a;
}

static json summaryToJson(const stats::Summary& s) {
  return {{"count", s.count}, {"median", s.median}, {"min", s.min},
          {"max", s.max},     {"mean", s.mean},     {"stddev", s.stddev},
          {"cv", s.cv},       {"p5", s.p5},         {"p25", s.p25},
          {"p75", s.p75},     {"p95", s.p95},       {"ci95", {s.ci95.low, s.ci95.high}}};
}
static stats::Summary summaryFromJson(const json& j) {
  stats::Summary s;
  j.at("count").get_to(s.count);
  j.at("median").get_to(s.median);
  j.at("min").get_to(s.min);
  j.at("max").get_to(s.max);
  j.at("mean").get_to(s.mean);
  j.at("stddev").get_to(s.stddev);
  j.at("cv").get_to(s.cv);
  j.at("p5").get_to(s.p5);
  j.at("p25").get_to(s.p25);
  j.at("p75").get_to(s.p75);
  j.at("p95").get_to(s.p95);
  j.at("ci95").at(0).get_to(s.ci95.low);
  j.at("ci95").at(1).get_to(s.ci95.high);
  return s;
}

void to_json(json& j, const CaseResult& v) {
  j = {{"kernel", v.kernel},
       {"shape", v.shape},
       {"precision", toString(v.precision)},
       {"status", toString(v.status)},
       {"message", v.message},
       {"fallback", v.fallback},
       {"ranKernel", v.ranKernel},
       {"verification", nullptr},
       {"samplesMs", v.samplesMs},
       {"launchesPerSample", v.launchesPerSample},
       {"coldL2", v.coldL2},
       {"timer", toString(v.timer)},
       {"timerNote", v.timerNote},
       {"throttledSamples", v.throttledSamples},
       {"warmupSmClockMhz", v.warmupSmClockMhz},
       {"kernels", kernelsToJson(v.kernels)},
       {"cuptiMedianMs", v.cuptiMedianMs ? json(*v.cuptiMedianMs) : json(nullptr)},
       {"timerVsCuptiPct", v.timerVsCuptiPct ? json(*v.timerVsCuptiPct) : json(nullptr)},
       {"summary", summaryToJson(v.summary)},
       {"gflops", v.gflops},
       {"pctOfFp32Reference", v.pctOfFp32Reference ? json(*v.pctOfFp32Reference) : json(nullptr)},
       {"pctOfFp16Reference", v.pctOfFp16Reference ? json(*v.pctOfFp16Reference) : json(nullptr)},
       {"arithmeticIntensity", v.arithmeticIntensity},
       {"bandwidthGBs", v.bandwidthGBs},
       {"clocks",
        {{"available", v.clocks.available},
         {"smClockMhzMin", v.clocks.smClockMhzMin},
         {"smClockMhzMax", v.clocks.smClockMhzMax},
         {"temperatureCMax", v.clocks.temperatureCMax},
         {"powerWMean", v.clocks.powerWMean},
         {"throttleReasons", v.clocks.throttleReasons}}}};
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
  }
}

void from_json(const json& j, CaseResult& v) {
  j.at("kernel").get_to(v.kernel);
  j.at("shape").get_to(v.shape);
  v.precision = parsePrecision(j.at("precision").get<std::string>());
  v.status = parseCaseStatus(j.at("status").get<std::string>());
  j.at("message").get_to(v.message);
  j.at("fallback").get_to(v.fallback);
  j.at("ranKernel").get_to(v.ranKernel);
  v.verification.reset();
  if (const auto& ver = j.at("verification"); !ver.is_null()) {
    Verification out;
    ver.at("reference").get_to(out.reference);
    ver.at("seed").get_to(out.seed);
    ver.at("rtol").get_to(out.tolerance.rtol);
    ver.at("atol").get_to(out.tolerance.atol);
    ver.at("unwritten").get_to(out.unwritten);
    out.compare = compareFromJson(ver.at("compare"));
    ver.at("negativeControlRejected").get_to(out.negativeControlRejected);
    if (const auto& ab = ver.at("alphaBeta"); !ab.is_null()) out.alphaBeta = compareFromJson(ab);
    v.verification = out;
  }
  j.at("samplesMs").get_to(v.samplesMs);
  j.at("launchesPerSample").get_to(v.launchesPerSample);
  j.at("coldL2").get_to(v.coldL2);
  // Schema 1 had no timer field: its events enclosed the host's enqueue.
  v.timer = parseTimerMode(j.value("timer", std::string(toString(TimerMode::kHostEvents))));
  v.timerNote = j.value("timerNote", std::string());
  v.throttledSamples = j.value("throttledSamples", 0);
  v.warmupSmClockMhz = j.value("warmupSmClockMhz", 0.0);
  v.kernels.clear();
  if (auto it = j.find("kernels"); it != j.end() && !it->is_null())
    for (const auto& k : *it)
      v.kernels.push_back({k.at("name").get<std::string>(), k.at("perLaunch").get<double>(),
                           k.at("medianMs").get<double>()});
  getOpt(j, "cuptiMedianMs", v.cuptiMedianMs);
  getOpt(j, "timerVsCuptiPct", v.timerVsCuptiPct);
  v.summary = summaryFromJson(j.at("summary"));
  j.at("gflops").get_to(v.gflops);
  getOpt(j, "pctOfFp32Reference", v.pctOfFp32Reference);
  getOpt(j, "pctOfFp16Reference", v.pctOfFp16Reference);
  j.at("arithmeticIntensity").get_to(v.arithmeticIntensity);
  j.at("bandwidthGBs").get_to(v.bandwidthGBs);
  const auto& c = j.at("clocks");
  c.at("available").get_to(v.clocks.available);
  c.at("smClockMhzMin").get_to(v.clocks.smClockMhzMin);
  c.at("smClockMhzMax").get_to(v.clocks.smClockMhzMax);
  c.at("temperatureCMax").get_to(v.clocks.temperatureCMax);
  c.at("powerWMean").get_to(v.clocks.powerWMean);
  c.at("throttleReasons").get_to(v.clocks.throttleReasons);
}

void to_json(json& j, const RunSettings& v) {
  j = {{"suite", v.suite},           {"seed", v.seed},
       {"verifyOnly", v.verifyOnly}, {"coldL2", v.coldL2},
       {"warmups", v.warmups},       {"minSamples", v.minSamples},
       {"maxSamples", v.maxSamples}, {"minTimeS", v.minTimeS},
       {"maxTimeS", v.maxTimeS},     {"maxNoise", v.maxNoise},
       {"timer", toString(v.timer)}, {"cuptiCheck", v.cuptiCheck}};
}
void from_json(const json& j, RunSettings& v) {
  j.at("suite").get_to(v.suite);
  j.at("seed").get_to(v.seed);
  j.at("verifyOnly").get_to(v.verifyOnly);
  j.at("coldL2").get_to(v.coldL2);
  j.at("warmups").get_to(v.warmups);
  j.at("minSamples").get_to(v.minSamples);
  j.at("maxSamples").get_to(v.maxSamples);
  j.at("minTimeS").get_to(v.minTimeS);
  j.at("maxTimeS").get_to(v.maxTimeS);
  j.at("maxNoise").get_to(v.maxNoise);
  v.timer = parseTimerMode(j.value("timer", std::string(toString(TimerMode::kHostEvents))));
  v.cuptiCheck = j.value("cuptiCheck", false);
}

void to_json(json& j, const KnownAnswer& v) {
  j = {{"ran", v.ran},
       {"passed", v.passed},
       {"detail", v.detail},
       {"shape", v.shape},
       {"maxRelError", v.maxRelError}};
}
void from_json(const json& j, KnownAnswer& v) {
  j.at("ran").get_to(v.ran);
  j.at("passed").get_to(v.passed);
  j.at("detail").get_to(v.detail);
  j.at("shape").get_to(v.shape);
  j.at("maxRelError").get_to(v.maxRelError);
}

void to_json(json& j, const ProgressionCheck& v) {
  j = {{"checked", v.checked}, {"violations", json::array()}};
  for (const auto& x : v.violations)
    j["violations"].push_back({{"shape", x.shape},
                               {"from", x.from},
                               {"to", x.to},
                               {"fromGflops", x.fromGflops},
                               {"toGflops", x.toGflops},
                               {"withinNoise", x.withinNoise}});
}
void from_json(const json& j, ProgressionCheck& v) {
  j.at("checked").get_to(v.checked);
  v.violations.clear();
  for (const auto& x : j.at("violations")) {
    ProgressionViolation pv;
    x.at("shape").get_to(pv.shape);
    x.at("from").get_to(pv.from);
    x.at("to").get_to(pv.to);
    x.at("fromGflops").get_to(pv.fromGflops);
    x.at("toGflops").get_to(pv.toGflops);
    pv.withinNoise = x.value("withinNoise", false);  // absent in documents before it existed
    v.violations.push_back(pv);
  }
}

// `passed` and `threadsPerBlock` are written for readers (the GUI) and recomputed on reading.
static json conformanceToJson(const ConformanceReport& r) {
  json runs = json::array();
  for (const auto& run : r.runs) {
    json checks = json::array();
    for (const auto& c : run.checks)
      checks.push_back({{"id", c.id},
                        {"description", c.description},
                        {"passed", c.passed},
                        {"failures", c.failures},
                        {"notJudged", c.notJudged},
                        {"offenders", c.offenders}});
    runs.push_back({{"tileSize", run.tileSize},
                    {"block", run.launch.block},
                    {"grid", run.launch.grid},
                    {"threadsPerBlock", run.launch.threadsPerBlock()},
                    {"items", run.items},
                    {"tiles", run.tiles},
                    {"incompleteTiles", run.incompleteTiles},
                    {"error", run.error},
                    {"passed", run.passed()},
                    {"checks", checks}});
  }
  return {{"suite", r.suite}, {"warpSize", r.warpSize}, {"passed", r.passed()}, {"runs", runs}};
}
static ConformanceReport conformanceFromJson(const json& j) {
  ConformanceReport r;
  j.at("suite").get_to(r.suite);
  j.at("warpSize").get_to(r.warpSize);
  for (const auto& jr : j.at("runs")) {
    SubgroupRun run;
    jr.at("tileSize").get_to(run.tileSize);
    jr.at("block").get_to(run.launch.block);
    jr.at("grid").get_to(run.launch.grid);
    jr.at("items").get_to(run.items);
    jr.at("tiles").get_to(run.tiles);
    jr.at("incompleteTiles").get_to(run.incompleteTiles);
    jr.at("error").get_to(run.error);
    for (const auto& jc : jr.at("checks")) {
      ConformanceCheck c;
      jc.at("id").get_to(c.id);
      jc.at("description").get_to(c.description);
      jc.at("passed").get_to(c.passed);
      jc.at("failures").get_to(c.failures);
      jc.at("notJudged").get_to(c.notJudged);
      jc.at("offenders").get_to(c.offenders);
      run.checks.push_back(std::move(c));
    }
    r.runs.push_back(std::move(run));
  }
  return r;
}

void to_json(json& j, const RunDocument& v) {
  j = {{"schemaVersion", v.schemaVersion},
       {"tool", {{"name", "kwb"}, {"version", v.toolVersion}, {"gitRevision", v.gitRevision}}},
       {"timestamp", v.timestamp},
       {"host", v.host},
       {"device", v.device ? json(*v.device) : json(nullptr)},
       {"settings", v.settings},
       {"knownAnswer", v.knownAnswer},
       {"cases", v.cases},
       {"progression", v.progression},
       {"conformance", v.conformance ? conformanceToJson(*v.conformance) : json(nullptr)},
       {"tuning", v.tuning ? json(*v.tuning) : json(nullptr)},
       {"launchOverhead", nullptr},
       {"wallSeconds", v.wallSeconds}};
  if (v.launchOverhead)
    j["launchOverhead"] = {{"isolatedUs", v.launchOverhead->isolatedUs},
                           {"backToBackUs", v.launchOverhead->backToBackUs}};
}
void from_json(const json& j, RunDocument& v) {
  j.at("schemaVersion").get_to(v.schemaVersion);
  j.at("tool").at("version").get_to(v.toolVersion);
  j.at("tool").at("gitRevision").get_to(v.gitRevision);
  j.at("timestamp").get_to(v.timestamp);
  j.at("host").get_to(v.host);
  getOpt(j, "device", v.device);
  j.at("settings").get_to(v.settings);
  j.at("knownAnswer").get_to(v.knownAnswer);
  j.at("cases").get_to(v.cases);
  j.at("progression").get_to(v.progression);
  v.conformance.reset();
  if (auto it = j.find("conformance"); it != j.end() && !it->is_null())
    v.conformance = conformanceFromJson(*it);
  getOpt(j, "tuning", v.tuning);
  v.launchOverhead.reset();
  if (auto it = j.find("launchOverhead"); it != j.end() && !it->is_null())
    v.launchOverhead =
        LaunchOverhead{it->at("isolatedUs").get<double>(), it->at("backToBackUs").get<double>()};
  j.at("wallSeconds").get_to(v.wallSeconds);
}

}  // namespace kwb
