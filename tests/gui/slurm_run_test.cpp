// SPDX-License-Identifier: Apache-2.0
// The GUI's Slurm target (docs/SCALE_OUT.md, "The GUI's Slurm target") driven through a stand-in
// ssh that runs the login node's commands here (tests/data/slurm-gui/ssh-bin), the real `kwb slurm
// submit|status`, and stand-ins for sbatch, squeue, sacct and scancel. The test writes the shard
// documents into the job's folder as the array's tasks would, and sees the pages take each one.
#include <gtest/gtest.h>

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>

#include "app/main_window.h"
#include "gui_test_support.h"
#include "kwb/merge.h"
#include "kwb/results.h"
#include "kwb/shard_failure.h"
#include "model/doc_queries.h"
#include "model/merge_agreement.h"
#include "panels/case_detail_dialog.h"
#include "panels/run_on_combo.h"
#include "panels/run_panel.h"
#include "panels/slurm_dialog.h"

using namespace kwb;
using namespace kwb::gui;

namespace {

constexpr int kShards = 3;

// Puts the stand-ins first on PATH (tests/data/slurm-gui/), and their state in a folder of the
// test's, for the test's life.
class SlurmGui : public ::testing::Test {
 protected:
  virtual bool realSlurm() const { return false; }
  void SetUp() override {
    ASSERT_TRUE(m_dir.isValid());
    m_path = qgetenv("PATH");
    // With a real Slurm up (tests/slurm/slurm_test.sh runs the SlurmGuiReal tests), its own
    // sbatch, squeue, sacct and scancel answer; ssh is always the stand-in.
    const QByteArray fakes = KWB_SOURCE_DIR "/tests/data/slurm-gui/";
    qputenv("PATH", fakes + "ssh-bin:" + (realSlurm() ? "" : fakes + "slurm-bin:") + m_path);
    qputenv("KWB_FAKE_SLURM_DIR", m_dir.path().toUtf8());
    qputenv("KWB_FAKE_SLURM_LOG", (m_dir.path() + "/ssh.log").toUtf8());
    m_window = std::make_unique<MainWindow>(test::quietWindow());
    m_window->slurmRun()->setPollInterval(50);
  }
  void TearDown() override {
    m_window.reset();
    qputenv("PATH", m_path);
    qunsetenv("KWB_FAKE_SLURM_DIR");
    qunsetenv("KWB_FAKE_SLURM_LOG");
    qunsetenv("KWB_FAKE_SBATCH_REFUSE");
  }

  SlurmTarget target(const QString& host = "login1", const QString& kwb = KWB_ENGINE) const {
    SlurmTarget t;
    t.login.host = host;
    t.login.kwbPath = kwb;
    t.shards = kShards;
    t.gpusPerTask = 0;
    t.partition = "gpu";
    t.resultsDir = m_dir.path() + "/runs";
    return t;
  }

  // Submits a run of the sample's kernels at its shapes to `t`.
  void submit(const SlurmTarget& t) {
    ASSERT_EQ(m_window->runOnCombo()->selectCluster(t), "");
    EXPECT_EQ(m_window->runOnCombo()->combo()->currentText(),
              "Slurm cluster via login node " + t.login.host);
    RunRequest r;
    r.kernels = {"sgemm.tiled", "cublas.sgemm"};
    r.sizes = {gemmSize({512, 512, 512}), gemmSize({1024, 1024, 1024})};
    m_window->runRequest(r);
    ASSERT_TRUE(m_window->slurmRun()->isRunning());
  }

  bool waitSubmitted() {
    return test::waitFor([&] { return !m_window->slurmRun()->arrayJob().isEmpty(); }, 30000);
  }
  bool waitEnded() {
    return test::waitFor([&] { return !m_window->slurmRun()->isRunning(); }, 30000);
  }

  // Shard `index` of the bundled run cut by shape (shape j in shard j mod 3 + 1), as the array
  // task on node<index> would write it.
  static RunDocument shardDoc(int index) {
    const RunDocument sample = readDocument(test::sampleRun().toStdString());
    std::vector<std::string> shapes;
    for (const CaseResult& c : sample.cases)
      if (std::find(shapes.begin(), shapes.end(), sizeKey(c.size)) == shapes.end())
        shapes.push_back(sizeKey(c.size));
    const auto partOf = [&](const CaseResult& c) {
      return int(std::find(shapes.begin(), shapes.end(), sizeKey(c.size)) - shapes.begin()) %
                 kShards +
             1;
    };
    RunDocument d = sample;
    d.host = "node" + std::to_string(index);
    DeviceInfo gpu = sample.deviceList().at(0);
    gpu.uuid = "GPU-node" + std::to_string(index);
    gpu.host.clear();  // the document's host: node<index>
    d.devices.clear();
    d.device = gpu;
    d.shard = ShardInfo{{index, kShards}, "plan-of-the-test", {}};
    d.cases.clear();
    for (const CaseResult& c : sample.cases) {
      d.shard->plan.push_back({c.kernel, c.size, c.precision, partOf(c)});
      if (partOf(c) != index) continue;
      d.cases.push_back(c);
      d.cases.back().device = 0;
    }
    return d;
  }

  void writeShard(int index, const std::string& text) {
    const QString path = QString("%1/shard-%2-of-%3.json")
                             .arg(m_window->slurmRun()->folder())
                             .arg(index)
                             .arg(kShards);
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly)) << path.toStdString();
    f.write(QByteArray::fromStdString(text));
  }
  void writeStates(const QByteArray& lines) {
    QFile f(m_dir.path() + "/states");
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(lines);
  }
  QString calls() const {
    QFile f(m_dir.path() + "/calls");
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
  }
  QString status() const { return m_window->runPanel()->statusLabel()->text(); }
  const RunDocument& shown() const { return m_window->model()->document(); }
  int holes() const {
    int n = 0;
    for (const CaseResult& c : shown().cases) n += c.status == CaseStatus::kSkipped;
    return n;
  }

  QTemporaryDir m_dir;
  QByteArray m_path;
  std::unique_ptr<MainWindow> m_window;
};

TEST_F(SlurmGui, SubmitsThenThePagesShowThePartialMergeWithHolesThenTheWholeOne) {
  writeStates("1 RUNNING\n2 COMPLETED\n3 PENDING\n");
  submit(target());
  ASSERT_TRUE(waitSubmitted()) << status().toStdString();
  EXPECT_EQ(m_window->slurmRun()->arrayJob(), "7001");
  EXPECT_TRUE(calls().contains("kwb-array.sbatch")) << calls().toStdString();
  EXPECT_TRUE(calls().contains("--dependency=afterany:7001")) << calls().toStdString();

  const RunDocument second = shardDoc(2);
  writeShard(2, toJsonText(second));
  ASSERT_TRUE(test::waitFor([&] { return !shown().cases.empty(); }, 30000))
      << status().toStdString();
  const std::size_t all = shardDoc(1).shard->plan.size();
  EXPECT_EQ(shown().cases.size(), all);  // the whole plan: holes where shards are not in
  EXPECT_EQ(holes(), int(all - second.cases.size()));
  bool namedMissing = false;
  for (const CaseResult& c : shown().cases)
    namedMissing = namedMissing || c.message == "not run: shard 1/3 missing";
  EXPECT_TRUE(namedMissing);
  EXPECT_TRUE(m_window->model()->source().contains("1 of 3 shards in"))
      << m_window->model()->source().toStdString();
  EXPECT_TRUE(test::waitFor([&] { return status().contains("shard 2/3: done"); }, 30000))
      << status().toStdString();
  EXPECT_TRUE(status().contains("shard 1/3: running")) << status().toStdString();
  EXPECT_TRUE(status().contains("shard 3/3: pending")) << status().toStdString();
  EXPECT_TRUE(m_window->slurmRun()->isRunning());

  writeShard(1, toJsonText(shardDoc(1)));
  writeShard(3, toJsonText(shardDoc(3)));
  ASSERT_TRUE(waitEnded()) << status().toStdString();
  EXPECT_TRUE(status().contains("3 of 3 shards merged")) << status().toStdString();
  EXPECT_EQ(shown().cases.size(), all);
  EXPECT_EQ(holes(), 0);
  // Every case names the GPU and the node that ran it, in its dialog too.
  for (const CaseResult& c : shown().cases) {
    const QString device = caseDeviceText(shown(), c);
    EXPECT_TRUE(device.contains(" on node")) << device.toStdString();
    EXPECT_TRUE(CaseDetailDialog::describe(c, shown()).contains(device.toHtmlEscaped()));
  }
  EXPECT_EQ(shown().devices.size(), 3U);
}

TEST_F(SlurmGui, AFailedShardShowsItsReasonAndATruncatedDocumentIsReportedNotCrashedOn) {
  submit(target());
  ASSERT_TRUE(waitSubmitted()) << status().toStdString();
  writeShard(1, toJsonText(shardDoc(1)));
  ShardFailure f;
  f.shard = {2, kShards};
  f.exitStatus = 3;
  f.host = "node2";
  f.stderrTail = {"kwb: no CUDA device: cudaGetDeviceCount: no CUDA-capable device"};
  writeShardFailure(f,
                    (m_window->slurmRun()->folder() + "/shard-2-of-3.failure.json").toStdString());
  const std::string third = toJsonText(shardDoc(3));
  writeShard(3, third.substr(0, third.size() / 2));
  ASSERT_TRUE(waitEnded()) << status().toStdString();
  EXPECT_TRUE(status().contains("1 of 3 shards merged")) << status().toStdString();
  EXPECT_TRUE(status().contains("shard 2/3: failed: exit 3 (no CUDA device)"))
      << status().toStdString();
  EXPECT_TRUE(status().contains("shard 3/3: refused: ")) << status().toStdString();
  EXPECT_TRUE(status().contains("shard-3-of-3.json")) << status().toStdString();
  EXPECT_TRUE(m_window->messageText().contains("shard 3/3"))
      << m_window->messageText().toStdString();
  // Shard 1's cases stay; the failed shard's are holes saying why.
  EXPECT_EQ(int(shown().cases.size()) - holes(), int(shardDoc(1).cases.size()));
  bool namedFailure = false;
  for (const CaseResult& c : shown().cases)
    namedFailure = namedFailure || c.message.find("not run: shard 2/3 failed: exit 3") == 0;
  EXPECT_TRUE(namedFailure);
}

TEST_F(SlurmGui, CancelRunsScancelOnBothJobsAndKeepsWhatArrived) {
  submit(target());
  ASSERT_TRUE(waitSubmitted()) << status().toStdString();
  writeShard(2, toJsonText(shardDoc(2)));
  ASSERT_TRUE(test::waitFor([&] { return !shown().cases.empty(); }, 30000));
  m_window->cancelRun();
  ASSERT_TRUE(waitEnded()) << status().toStdString();
  EXPECT_TRUE(calls().contains("scancel 7001 7002")) << calls().toStdString();
  EXPECT_TRUE(status().contains("Cancelled Slurm jobs 7001 and 7002 on login1"))
      << status().toStdString();
  EXPECT_EQ(int(shown().cases.size()) - holes(), int(shardDoc(2).cases.size()));
}

TEST_F(SlurmGui, SbatchRefusedIsNamedWithSlurmsReason) {
  qputenv("KWB_FAKE_SBATCH_REFUSE", "gpu");
  submit(target());
  ASSERT_TRUE(waitEnded());
  EXPECT_TRUE(status().contains("kwb slurm submit on login1 did not submit the job"))
      << status().toStdString();
  EXPECT_TRUE(status().contains("invalid partition specified: gpu")) << status().toStdString();
}

TEST_F(SlurmGui, AnUnreachableHostAMissingKwbAndAHostThatNeverAnswersEndWithTheirCause) {
  submit(target("down-login"));
  ASSERT_TRUE(waitEnded());
  EXPECT_TRUE(status().contains("down-login cannot be reached")) << status().toStdString();

  submit(target("login1", "/nonexistent/kwb"));
  ASSERT_TRUE(waitEnded());
  EXPECT_TRUE(status().contains("kwb was not found on login1")) << status().toStdString();

  m_window->slurmRun()->setCallTimeout(500);
  submit(target("hang-login"));
  ASSERT_TRUE(waitEnded());
  EXPECT_TRUE(status().contains("hang-login did not answer")) << status().toStdString();
}

TEST_F(SlurmGui, OnceTheMergeJobHasRunAShardWithoutAFileStaysAHoleAndTheRunEnds) {
  writeStates("1 COMPLETED\n2 COMPLETED\n3 NODE_FAIL\n");
  submit(target());
  ASSERT_TRUE(waitSubmitted()) << status().toStdString();
  writeShard(1, toJsonText(shardDoc(1)));
  writeShard(2, toJsonText(shardDoc(2)));
  QFile merged(m_window->slurmRun()->folder() + "/merged.json");
  ASSERT_TRUE(merged.open(QIODevice::WriteOnly));
  merged.close();
  ASSERT_TRUE(waitEnded()) << status().toStdString();
  EXPECT_TRUE(status().contains("2 of 3 shards merged")) << status().toStdString();
  // The empty merged.json is fetched and reported, and the GUI's merge is the result.
  EXPECT_TRUE(status().contains("merged.json could not be read")) << status().toStdString();
  EXPECT_TRUE(status().contains("shard 3/3: node_fail")) << status().toStdString();
  EXPECT_EQ(holes(), int(shardDoc(3).cases.size()));
}

// A job that stays queued: the run panel says for how long and squeue's reason; after the
// patience the watch ends with a message naming the job and the reason, and the job is left
// queued (no scancel).
TEST_F(SlurmGui, AJobPendingForResourcesShowsItsReasonAndIsGivenUpAfterThePatience) {
  writeStates("1 PENDING Resources\n2 PENDING Resources\n3 PENDING Priority\n");
  m_window->slurmRun()->setPatience(3000);
  submit(target());
  ASSERT_TRUE(waitSubmitted()) << status().toStdString();
  EXPECT_TRUE(
      test::waitFor([&] { return status().contains("shard 1/3: pending (Resources)"); }, 30000))
      << status().toStdString();
  EXPECT_TRUE(status().contains("shard 3/3: pending (Priority)")) << status().toStdString();
  EXPECT_TRUE(status().contains("Queued for ")) << status().toStdString();
  EXPECT_TRUE(status().contains("squeue: Resources, Priority")) << status().toStdString();
  ASSERT_TRUE(waitEnded()) << status().toStdString();
  for (const char* part : {"Stopped watching Slurm job 7001 on login1", "Resources",
                           "The job is left queued", "scancel 7001 7002", "kwb slurm status "})
    EXPECT_TRUE(status().contains(part)) << part << ": " << status().toStdString();
  EXPECT_TRUE(status().contains(m_window->slurmRun()->folder())) << status().toStdString();
  EXPECT_TRUE(m_window->messageText().contains("7001")) << m_window->messageText().toStdString();
  EXPECT_FALSE(calls().contains("scancel")) << "the job is left queued: " << calls().toStdString();
}

class SlurmGuiMergeJob : public SlurmGui {
 protected:
  // Every shard in while the merge job runs; then its merged.json of `shards`, and it is gone.
  void runUntilMerged(const std::vector<int>& shards) {
    writeFile("merge-state", "RUNNING None\n");
    submit(target());
    ASSERT_TRUE(waitSubmitted()) << status().toStdString();
    for (int i = 1; i <= kShards; ++i) writeShard(i, toJsonText(shardDoc(i)));
    ASSERT_TRUE(test::waitFor(
        [&] {
          return status().contains("shard 1/3: done\n") && status().contains("shard 2/3: done\n") &&
                 status().endsWith("shard 3/3: done");
        },
        30000))
        << status().toStdString();
    EXPECT_TRUE(m_window->slurmRun()->isRunning()) << "waits for the merge job";
    QFile merged(m_window->slurmRun()->folder() + "/merged.json");
    ASSERT_TRUE(merged.open(QIODevice::WriteOnly));
    merged.write(QByteArray::fromStdString(mergeJobText(shards)));
    merged.close();
    writeFile("merge-state", "");
    ASSERT_TRUE(waitEnded()) << status().toStdString();
  }
  // The merge job's merged.json of the given shards (as kwb merge writes it).
  static std::string mergeJobText(const std::vector<int>& shards) {
    std::vector<ShardInput> inputs;
    inputs.reserve(shards.size());
    for (int i : shards) inputs.push_back({"shard-" + std::to_string(i), shardDoc(i), {}});
    return toJsonText(mergeShards(inputs, kShards).document);
  }
  void writeFile(const QString& name, const QByteArray& text) {
    QFile f(m_dir.path() + "/" + name);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(text);
  }
};

TEST_F(SlurmGuiMergeJob, TheMergeJobsDocumentIsFetchedComparedAndOpened) {
  runUntilMerged({1, 2, 3});
  EXPECT_TRUE(status().contains("3 of 3 shards merged")) << status().toStdString();
  EXPECT_TRUE(status().contains("merged.json agrees with the GUI's merge and is the open result"))
      << status().toStdString();
  EXPECT_TRUE(m_window->model()->source().contains("login1:") &&
              m_window->model()->source().contains("/merged.json"))
      << m_window->model()->source().toStdString();
  EXPECT_EQ(shown().cases.size(), shardDoc(1).shard->plan.size());
  EXPECT_EQ(holes(), 0);
}

TEST_F(SlurmGuiMergeJob, AMergedDocumentThatDisagreesIsReportedAndTheGuisMergeKept) {
  runUntilMerged({1, 2});  // the merge job saw no shard 3
  EXPECT_TRUE(status().contains("merged.json disagrees with the GUI's merge"))
      << status().toStdString();
  EXPECT_TRUE(status().contains("shard 3/3 is missing there and merged in the GUI's merge"))
      << status().toStdString();
  EXPECT_TRUE(m_window->messageText().contains("disagrees"))
      << m_window->messageText().toStdString();
  EXPECT_FALSE(m_window->model()->source().contains("merged.json"))
      << m_window->model()->source().toStdString();
  EXPECT_EQ(holes(), 0) << "the GUI's merge, every shard in, is the result";
}

// The comparison alone (model/merge_agreement.h): the same merge agrees; a case that ran in one
// and is a hole in the other, a shard in another state, or no merge at all are each named.
TEST_F(SlurmGuiMergeJob, MergeAgreementNamesAHoleAShardStateAndANonMergedDocument) {
  const RunDocument ours = parseDocument(mergeJobText({1, 2, 3}), "ours");
  RunDocument theirs = ours;
  EXPECT_EQ(mergeDisagreement(ours, theirs), "");
  CaseResult& c = theirs.cases.at(0);
  c.status = CaseStatus::kSkipped;
  c.message = "not run: shard 1/3 missing";
  const QString hole = mergeDisagreement(ours, theirs);
  EXPECT_TRUE(hole.startsWith("1 case(s) ran only in the GUI's merge and 0 only there"))
      << hole.toStdString();
  EXPECT_TRUE(hole.contains(QString::fromStdString(c.kernel))) << hole.toStdString();
  const QString other = mergeDisagreement(theirs, ours);
  EXPECT_TRUE(other.startsWith("0 case(s) ran only in the GUI's merge and 1 only there"))
      << other.toStdString();
  theirs = ours;
  theirs.merged->shards.at(1).state = "failed";
  EXPECT_EQ(mergeDisagreement(ours, theirs),
            "shard 2/3 is failed there and merged in the GUI's merge");
  theirs.merged.reset();
  EXPECT_EQ(mergeDisagreement(ours, theirs), "it is not a merged document");
}

TEST(SlurmTarget, ThePatienceIsTheDialogsAndItsBoundsAreChecked) {
  SlurmTarget t;
  t.login.host = "login1";
  t.patienceMin = 45;
  EXPECT_EQ(SlurmDialog(t).target().patienceMin, 45);
  EXPECT_EQ(SlurmTarget{}.patienceMin, 30);
  t.patienceMin = 0;
  EXPECT_TRUE(validateSlurmTarget(t).contains("Patience 0 min"))
      << validateSlurmTarget(t).toStdString();
  t.patienceMin = kMaxPatienceMin + 1;
  EXPECT_FALSE(validateSlurmTarget(t).isEmpty());
}

TEST(SlurmTarget, SubmitArgumentsCarryTheSelectionAndKwbRunsOptionsAfterTheSeparator) {
  SlurmTarget t;
  t.login.host = "login1";
  t.shards = 8;
  t.partition = "gpu";
  t.time = "01:00:00";
  RunRequest r;
  r.kernels = {"sgemm.tiled", "cublas.sgemm"};
  r.sizes = {gemmSize({512, 512, 512})};
  r.samples = 7;
  r.coldL2 = true;
  r.energySeconds = 1.5;
  const QStringList a = slurmSubmitArguments(t, r, "runs/x");
  EXPECT_EQ(a.join(' '),
            "slurm submit --shards 8 --output-dir runs/x --partition gpu --time 01:00:00 "
            "--kernels sgemm.tiled,cublas.sgemm --shapes 512x512x512 -- --samples 7 --cold "
            "--energy 1.5");
  r.samples = 0;
  r.coldL2 = false;
  r.energySeconds = 0;
  t.gpusPerTask = 0;
  const QStringList b = slurmSubmitArguments(t, r, "runs/x");
  EXPECT_TRUE(b.contains("--gpus-per-task")) << b.join(' ').toStdString();
  EXPECT_FALSE(b.contains("--")) << b.join(' ').toStdString();
}

TEST(SlurmTarget, BadFieldsAreRefusedNamingThemAndTheFolderIsNewPerRun) {
  SlurmTarget t;
  EXPECT_TRUE(validateSlurmTarget(t).contains("login node"));
  t.login.host = "-oProxyCommand=evil";
  EXPECT_TRUE(validateSlurmTarget(t).contains("starts with '-'"));
  t.login.host = "login1";
  EXPECT_EQ(validateSlurmTarget(t), "");
  t.partition = "gpu #x";
  EXPECT_TRUE(validateSlurmTarget(t).contains("Partition 'gpu #x'"));
  t.partition.clear();
  t.shards = 0;
  EXPECT_TRUE(validateSlurmTarget(t).contains("Shards 0"));
  t.shards = 2;
  t.resultsDir = "~/kwb runs";
  EXPECT_TRUE(validateSlurmTarget(t).contains("Results folder"));
  t.resultsDir = "~/kwb-runs/";
  const QDateTime when = QDateTime::fromString("2026-11-27T10:00:00.123Z", Qt::ISODateWithMs);
  EXPECT_EQ(slurmRunFolder(t, when), "kwb-runs/kwb-gui-20261127-100000-123");
  EXPECT_NE(slurmRunFolder(t, when), slurmRunFolder(t, when.addMSecs(1)));
}

TEST(SlurmTarget, SavedClustersReadBack) {
  QTemporaryDir dir;
  QSettings s(dir.path() + "/s.ini", QSettings::IniFormat);
  SlurmTarget t;
  t.login.host = "me@login";
  t.login.kwbPath = "~/bin/kwb";
  t.login.sshOptions = {"-p", "2222"};
  t.shards = 6;
  t.partition = "h100";
  t.time = "30";
  t.gpusPerTask = 2;
  t.resultsDir = "/scratch/me";
  t.patienceMin = 45;
  saveSlurmTargets(s, {t});
  const QList<SlurmTarget> back = loadSlurmTargets(s);
  ASSERT_EQ(back.size(), 1);
  EXPECT_TRUE(back[0] == t);
  EXPECT_EQ(back[0].label(), "Slurm cluster via login node me@login");
}

// The same against the real Slurm that tests/slurm/slurm_test.sh starts on this machine (ctest
// label slurm; it sets KWB_TEST_REAL_SLURM): the node has no GPU, so every shard fails with
// kwb's no-device exit; the GUI fetches each failure record and shows its reason, waits for the
// merge job, and opens its merged.json.
class SlurmGuiReal : public SlurmGui {
 protected:
  bool realSlurm() const override { return true; }
};

TEST_F(SlurmGuiReal, EveryShardsFailureOnARealSlurmIsShownWithItsReason) {
  if (qEnvironmentVariableIsEmpty("KWB_TEST_REAL_SLURM"))
    GTEST_SKIP() << "no real Slurm here: tests/slurm/slurm_test.sh runs this test with one";
  m_window->slurmRun()->setPollInterval(300);
  SlurmTarget t = target();
  t.partition.clear();  // the test cluster's one partition
  t.time = "5";
  submit(t);
  ASSERT_TRUE(waitSubmitted()) << status().toStdString();
  ASSERT_TRUE(test::waitFor([&] { return !m_window->slurmRun()->isRunning(); }, 120000))
      << status().toStdString();
  EXPECT_TRUE(status().contains("0 of 3 shards merged")) << status().toStdString();
  for (int i = 1; i <= kShards; ++i)
    EXPECT_TRUE(status().contains(QString("shard %1/3: failed: exit 3 (no CUDA device)").arg(i)))
        << status().toStdString();
  // The GUI waited for the real merge job and opened its merged.json, which agrees.
  EXPECT_TRUE(status().contains("merged.json agrees with the GUI's merge and is the open result"))
      << status().toStdString();
  ASSERT_TRUE(shown().merged.has_value());
  for (const MergedShard& m : shown().merged->shards) EXPECT_EQ(m.state, "failed");
}

}  // namespace
