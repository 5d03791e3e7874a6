// SPDX-License-Identifier: Apache-2.0
#include "gui_test_support.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

#include "app/main_window.h"
#include "kwb/tuning.h"

namespace kwb::gui::test {

QString fixture(const QString& name) {
  return QStringLiteral(KWB_SOURCE_DIR "/tests/data/") + name;
}
QString bundled(const QString& name) {
  return QStringLiteral(KWB_SOURCE_DIR "/resources/samples/") + name;
}
QString sampleRun() { return bundled("spec-benchmark-h100.json"); }
QString sampleStream() { return bundled("spec-benchmark-h100.jsonl"); }
QString baselineRun() { return bundled("scaling-h100.json"); }
QString syntheticRun() { return fixture("gui-sample-spec-benchmark.json"); }
QString syntheticBaseline() { return fixture("gui-baseline-spec-benchmark.json"); }

namespace {

RunDocument header() {
  RunDocument doc = readDocument(sampleRun().toStdString());
  doc.cases.clear();
  doc.progression = {};
  doc.knownAnswer = {};
  return doc;
}

}  // namespace

RunDocument conformanceDocument(bool failing) {
  RunDocument doc = header();
  ConformanceReport report;
  report.warpSize = 32;
  const char* ids[] = {"all_written",       "group_id",
                       "local_id",          "local_range",
                       "group_range",       "leader",
                       "max_local_range",   "group_count_per_block",
                       "group_ids_present", "group_size_per_group",
                       "local_ids_once"};
  for (int tile : kConformanceTileSizes) {
    SubgroupRun run;
    run.tileSize = tile;
    run.launch.block = {15, 7, 7};
    run.launch.grid = {2, 2, 2};
    run.items = run.launch.items();
    // 735 threads: 22 full warps and one of 31 live lanes; smaller tiles split it further.
    const std::int64_t perBlock = (run.launch.threadsPerBlock() + tile - 1) / tile;
    run.tiles = perBlock * run.launch.blocks();
    run.incompleteTiles = run.launch.blocks();
    for (const char* id : ids) {
      ConformanceCheck c;
      c.id = id;
      c.description = std::string("the plan's bullet for ") + id;
      run.checks.push_back(c);
    }
    if (failing && tile == 16) {
      ConformanceCheck& c = run.checks.back();
      c.passed = false;
      c.failures = 2;
      c.offenders = {"block 3 group 45: local id 14 seen twice (threads 733 and 734)",
                     "block 5 group 45: local id 14 seen twice (threads 733 and 734)"};
    }
    report.runs.push_back(run);
  }
  doc.conformance = report;
  return doc;
}

RunDocument tuningDocument() {
  RunDocument doc = header();
  TuneGrid grid;
  grid.kernel = "sgemm.warp_tiled";
  grid.shape = {4096, 4096, 4096};
  grid.seed = 7;
  const std::int64_t configs[][8] = {
      {128, 128, 16, 64, 64, 4, 8, 4}, {128, 128, 8, 64, 64, 4, 8, 4},
      {128, 128, 16, 64, 32, 2, 8, 4}, {128, 256, 16, 64, 64, 4, 8, 4},
      {128, 64, 16, 64, 32, 2, 8, 4},  {64, 128, 16, 32, 64, 4, 4, 4}};
  const char* keys[] = {"BM", "BN", "BK", "WM", "WN", "WNITER", "TM", "TN"};
  double gflops = 31000;
  for (const auto& p : configs) {
    CaseResult r;
    r.config.emplace();
    for (int i = 0; i < 8; ++i) r.config->params[keys[i]] = p[i];
    r.config->name = std::to_string(p[0]) + "x" + std::to_string(p[1]) + "x" +
                     std::to_string(p[2]) + "_w" + std::to_string(p[3]) + "x" +
                     std::to_string(p[4]);
    r.kernel = grid.kernel + "[" + r.config->name + "]";
    r.size = kwb::gemmSize(grid.shape);
    r.ranKernel = r.kernel;
    if (p[1] == 256) {
      r.status = CaseStatus::kFail;
      r.message = "12 of 16777216 elements differ from cublas.sgemm";
    } else {
      r.status = CaseStatus::kPass;
      r.gflops = gflops;
      r.samplesMs.assign(40, Shape{4096, 4096, 4096}.flops() / gflops / 1e6);
      r.summary = stats::summarize(r.samplesMs);
      gflops += 2500;
    }
    grid.results.push_back(r);
  }
  grid.best = grid.results[*fastest(grid.results)].config->name;
  doc.tuning = grid;
  return doc;
}

QString writeFixture(const RunDocument& doc, const QString& path) {
  writeDocument(doc, path.toStdString());
  return path;
}

bool waitFor(const std::function<bool()>& done, int timeoutMs) {
  QElapsedTimer t;
  t.start();
  while (!done() && t.elapsed() < timeoutMs) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return done();
}

WindowOptions quietWindow() {
  WindowOptions o;
  o.probeEngine = false;
  o.persistSettings = false;
  return o;
}

}  // namespace kwb::gui::test
