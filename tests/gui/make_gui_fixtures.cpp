// SPDX-License-Identifier: Apache-2.0
// Writes the GUI's synthetic fixtures into tests/data: a spec-benchmark results document
// (8 kernels × 5 shapes, with one fail, one fallback, one error and a progression violation,
// error grids on every verified case), the same run as a JSON-lines event stream, and a slower
// baseline written as an older kwb wrote it (no error grids). The values are plausible for an
// H200 but invented; the device name says so. Real recordings go to resources/samples.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kwb/events.h"
#include "kwb/progression.h"
#include "kwb/results.h"

namespace {

using kwb::CaseResult;
using kwb::CaseStatus;
using kwb::Precision;
using kwb::Shape;

struct Kernel {
  const char* id;
  int stage;
  Precision precision;
  double peakGflops;  // asymptotic speed at large sizes
};

const Kernel kKernels[] = {
    {"sgemm.naive", 1, Precision::kFp32, 1400},
    {"sgemm.tiled", 2, Precision::kFp32, 4200},
    {"sgemm.bank_free", 3, Precision::kFp32, 5600},
    {"sgemm.double_buffer", 4, Precision::kFp32, 8900},
    {"sgemm.tensor_core", 5, Precision::kFp16Fp32Acc, 61000},
    {"cublas.sgemm", 0, Precision::kFp32, 51000},
    {"cublas.hgemm_f32acc", 0, Precision::kFp16Fp32Acc, 610000},
    {"cublas.tf32", 0, Precision::kTf32, 330000},
};

const Shape kShapes[] = {
    {512, 512, 512}, {1024, 1024, 1024}, {2048, 2048, 2048}, {256, 384, 640}, {511, 513, 1025}};

kwb::DeviceInfo device() {
  kwb::DeviceInfo d;
  d.name = "NVIDIA H200 (synthetic fixture)";
  d.ccMajor = 9;
  d.ccMinor = 0;
  d.smCount = 132;
  d.smClockMhz = 1980;
  d.memClockMhz = 3201;
  d.memBusWidthBits = 6144;
  d.totalMemoryBytes = 150754820096;
  d.l2Bytes = 52428800;
  d.maxThreadsPerBlock = 1024;
  d.maxBlockDim[0] = 1024;
  d.maxBlockDim[1] = 1024;
  d.maxBlockDim[2] = 64;
  d.sharedMemPerBlockOptin = 232448;
  d.driverVersion = 13000;
  d.runtimeVersion = 13000;
  kwb::derivePeaks(d);
  return d;
}

// A passing case's grid: every cell's largest error a fraction of the case's maximum, which
// one cell reaches. Invented (no matrices): the heat map needs plausible, distinct values.
kwb::ErrorGrid tinyErrorGrid(const Shape& s, double maxAbs, std::mt19937& rng) {
  kwb::ErrorGrid g;
  g.rows = int(std::min<std::int64_t>(s.m, kwb::kErrorGridCells));
  g.cols = int(std::min<std::int64_t>(s.n, kwb::kErrorGridCells));
  std::uniform_real_distribution<double> share(0.05, 1.0);
  for (int i = 0; i < g.rows * g.cols; ++i) g.maxAbs.push_back(maxAbs * share(rng));
  g.maxAbs[std::size_t(rng() % g.maxAbs.size())] = maxAbs;
  g.mismatches.assign(g.maxAbs.size(), 0);
  return g;
}

// The failing case, compared for real (kwb::compareMatrices) so its grid, counts and first
// mismatch agree: the ragged bottom-right tile (rows 480–510, columns 480–512) is never
// written, and one element (C[37][100]) is NaN in the canary run only. Returns the canary
// run's report and the alpha/beta run's.
std::pair<kwb::CompareReport, kwb::CompareReport> failingCompare(const Shape& s,
                                                                 const kwb::Tolerance& tol,
                                                                 std::mt19937& rng) {
  const auto m = s.m, n = s.n;
  std::normal_distribution<float> value(0.0f, float(std::sqrt(double(s.k) / 9.0)));
  std::uniform_real_distribution<float> rounding(-2e-5f, 2e-5f);
  std::vector<float> ref(std::size_t(m * n)), prefill(ref.size()), refAb(ref.size());
  for (auto& v : ref) v = value(rng);
  for (auto& v : prefill) v = value(rng);
  const float alpha = 1.5f, beta = -0.5f;
  for (std::size_t i = 0; i < ref.size(); ++i) refAb[i] = alpha * ref[i] + beta * prefill[i];
  std::vector<float> got(ref.size()), gotAb(ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    got[i] = ref[i] + rounding(rng);
    gotAb[i] = refAb[i] + 2.5f * rounding(rng);  // |α|, |β| scale the rounding up
  }
  for (std::int64_t r = 480; r < m; ++r)
    for (std::int64_t c = 480; c < n; ++c) {
      got[std::size_t(r * n + c)] = kwb::canaryValue();
      gotAb[std::size_t(r * n + c)] = prefill[std::size_t(r * n + c)];
    }
  got[std::size_t(37 * n + 100)] = std::nanf("");
  return {kwb::compareMatrices(got, ref, m, n, tol), kwb::compareMatrices(gotAb, refAb, m, n, tol)};
}

int stageOf(std::string_view id) {
  for (const auto& k : kKernels)
    if (id == k.id) return k.stage;
  return 0;
}

// `grids`: false writes the document as kwb did before comparison reports had error grids.
kwb::RunDocument makeRun(double speedFactor, std::uint32_t seed, const char* timestamp,
                         bool grids) {
  std::mt19937 rng(seed);
  std::mt19937 gridRng(seed + 1);  // its own stream: the timings stay as they were
  kwb::RunDocument doc;
  doc.toolVersion = "0.1.0";
  doc.gitRevision = "fixture";
  doc.timestamp = timestamp;
  doc.host = "fixture-host";
  doc.device = device();
  doc.settings.suite = "spec-benchmark";
  doc.settings.seed = seed;
  doc.settings.warmups = 3;
  doc.settings.minSamples = 20;
  doc.settings.maxSamples = 200;
  doc.settings.minTimeS = 0.05;
  doc.settings.maxTimeS = 1.0;
  doc.settings.maxNoise = 0.005;
  doc.knownAnswer = {true, true, "cublas.sgemm against cpu.fp64", {64, 64, 64}, 3.1e-7};
  std::map<Shape, std::map<std::string, double>> speed;
  for (const Shape& s : kShapes) {
    for (const Kernel& k : kKernels) {
      CaseResult c;
      c.kernel = k.id;
      c.size = kwb::gemmSize(s);
      c.precision = k.precision;
      c.status = CaseStatus::kPass;
      c.ranKernel = k.id;
      const double size = std::cbrt(s.flops() / 2);
      double gflops = k.peakGflops * speedFactor * (size * size) / (size * size + 700.0 * 700.0);
      // Stage 3 loses to stage 2 at 512³: the progression violation the plots must show.
      if (std::string(k.id) == "sgemm.bank_free" && s == Shape{512, 512, 512}) gflops *= 0.62;
      const bool odd = !s.multipleOf(16);
      if (std::string(k.id) == "sgemm.tensor_core" && odd) {
        c.status = CaseStatus::kFallback;
        c.fallback = true;
        c.ranKernel = "sgemm.double_buffer";
        c.message = "511x513x1025 is not a multiple of 16: ran the FP32 double-buffered kernel";
        gflops = speed[s]["sgemm.double_buffer"] * 0.97;
      }
      if (std::string(k.id) == "sgemm.double_buffer" && s == Shape{256, 384, 640}) {
        c.status = CaseStatus::kError;
        c.message =
            "CUDA error at kernels/sgemm_double_buffer.cu:88: cudaErrorMisalignedAddress "
            "(misaligned address)";
        doc.cases.push_back(c);
        continue;
      }
      kwb::Verification v;
      v.reference =
          k.stage == 0 && std::string(k.id) == "cublas.sgemm" ? "cpu.fp64" : "cublas.sgemm";
      v.seed = seed;
      v.tolerance = {k.precision == Precision::kFp32 ? 1e-3 : 5e-2,
                     k.precision == Precision::kFp32 ? 1e-4 : 1e-2};
      v.compare.elements = s.m * s.n;
      v.compare.maxAbsError = k.precision == Precision::kFp32 ? 3.8e-5 : 4.1e-3;
      v.compare.maxRelError = k.precision == Precision::kFp32 ? 2.2e-6 : 1.9e-3;
      v.negativeControlRejected = true;
      v.alphaBeta = v.compare;
      if (grids) {
        v.compare.grid = tinyErrorGrid(s, v.compare.maxAbsError, gridRng);
        v.alphaBeta->grid = tinyErrorGrid(s, v.compare.maxAbsError, gridRng);
      }
      if (std::string(k.id) == "sgemm.tiled" && s == Shape{511, 513, 1025}) {
        // The ragged edge tile is never written: the canary shows it and the compare fails.
        c.status = CaseStatus::kFail;
        std::tie(v.compare, *v.alphaBeta) = failingCompare(s, v.tolerance, gridRng);
        if (!grids) v.compare.grid = v.alphaBeta->grid = {};
        v.unwritten = 31 * 33;
        c.message = std::to_string(v.compare.mismatches) + " of " +
                    std::to_string(v.compare.elements) +
                    " elements differ from cublas.sgemm (first at C[37][100])";
      }
      c.verification = v;
      const double medianMs = s.flops() / gflops / 1e6;
      std::lognormal_distribution<double> noise(0.0, 0.015);
      std::uniform_int_distribution<int> count(40, 120);
      const int n = count(rng);
      for (int i = 0; i < n; ++i) c.samplesMs.push_back(medianMs * noise(rng));
      c.launchesPerSample = medianMs < 0.01 ? 10 : 1;
      c.summary = kwb::stats::summarize(c.samplesMs);
      c.gflops = s.flops() / c.summary.median / 1e6;
      speed[s][k.id] = c.gflops;
      const double elem = k.precision == Precision::kFp16Fp32Acc ? 2.0 : 4.0;
      c.arithmeticIntensity = s.flops() / s.minBytes(elem);
      c.bandwidthGBs = s.minBytes(elem) / (c.summary.median * 1e-3) / 1e9;
      c.clocks.available = true;
      c.clocks.smClockMhzMin = 1755;
      c.clocks.smClockMhzMax = 1980;
      c.clocks.temperatureCMax = 51;
      c.clocks.powerWMean = k.stage == 5 || k.stage == 0 ? 540 : 310;
      doc.cases.push_back(c);
    }
  }
  for (auto& c : doc.cases) {
    if (!c.timed()) continue;
    if (const auto* ref = doc.find("cublas.sgemm", c.shape()); ref && ref->timed())
      c.pctOfFp32Reference = 100.0 * c.gflops / ref->gflops;
    if (c.precision == Precision::kFp16Fp32Acc)
      if (const auto* ref = doc.find("cublas.hgemm_f32acc", c.shape()); ref && ref->timed())
        c.pctOfFp16Reference = 100.0 * c.gflops / ref->gflops;
  }
  doc.progression = kwb::checkProgression(doc.cases, stageOf);
  doc.wallSeconds = 14.2;
  return doc;
}

void writeStream(const kwb::RunDocument& doc, const std::string& path) {
  std::ofstream out(path);
  double t = 0;
  auto emit = [&](kwb::StreamEvent e) {
    e.elapsedS = t;
    out << kwb::toJsonLine(e) << '\n';
  };
  kwb::StreamEvent hello(kwb::EventType::kHello);
  hello.toolVersion = doc.toolVersion;
  hello.gitRevision = doc.gitRevision;
  hello.host = doc.host;
  hello.timestamp = doc.timestamp;
  emit(hello);
  kwb::StreamEvent dev(kwb::EventType::kDevice);
  dev.device = doc.device;
  emit(dev);
  kwb::StreamEvent plan(kwb::EventType::kPlan);
  plan.settings = doc.settings;
  for (const auto& c : doc.cases) plan.plan.push_back({c.kernel, c.size});
  emit(plan);
  for (std::size_t i = 0; i < doc.cases.size(); ++i) {
    const auto& c = doc.cases[i];
    kwb::StreamEvent started(kwb::EventType::kCaseStarted);
    started.index = int(i);
    started.planned = {c.kernel, c.size};
    emit(started);
    t += 0.05 + 0.002 * double(c.samplesMs.size());
    kwb::StreamEvent finished(kwb::isGood(c.status) ? kwb::EventType::kCaseFinished
                                                    : kwb::EventType::kCaseFailed);
    finished.index = int(i);
    finished.result = c;
    emit(finished);
  }
  kwb::StreamEvent done(kwb::EventType::kDone);
  done.exitCode = 1;
  done.knownAnswer = doc.knownAnswer;
  done.progression = doc.progression;
  done.wallSeconds = t;
  emit(done);
}

// The document as kwb wrote it before comparison reports carried "errorGrid".
void writeWithoutGrids(const kwb::RunDocument& doc, const std::string& path) {
  auto j = nlohmann::json::parse(kwb::toJsonText(doc));
  for (auto& c : j.at("cases")) {
    auto& v = c.at("verification");
    if (v.is_null()) continue;
    v.at("compare").erase("errorGrid");
    if (!v.at("alphaBeta").is_null()) v.at("alphaBeta").erase("errorGrid");
  }
  std::ofstream(path) << j.dump(2) << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "tests/data";
  const auto run = makeRun(1.0, 42, "2026-11-22T10:15:00Z", true);
  kwb::writeDocument(run, dir + "/gui-sample-spec-benchmark.json");
  writeStream(run, dir + "/gui-sample-spec-benchmark.jsonl");
  writeWithoutGrids(makeRun(0.8, 7, "2026-11-01T09:00:00Z", false),
                    dir + "/gui-baseline-spec-benchmark.json");
  std::printf("fixtures written to %s\n", dir.c_str());
  return 0;
}
