// SPDX-License-Identifier: Apache-2.0
#include "engine/slurm_target.h"

#include <QSettings>

#include "kwb/case_size.h"

namespace kwb::gui {
namespace {

// What kwb slurm submit writes into an #SBATCH line must be one word.
bool oneWord(const QString& v) {
  for (QChar c : v)
    if (c.isSpace() || QString("'\"\\#").contains(c)) return false;
  return true;
}

}  // namespace

QString validateSlurmTarget(const SlurmTarget& t) {
  if (t.login.isLocal()) return "Name the cluster's login node, e.g. user@login.cluster.";
  if (QString e = validateLocation(t.login); !e.isEmpty()) return e;
  if (t.shards < 1 || t.shards > 10000) return QString("Shards %1: give 1 to 10000.").arg(t.shards);
  if (!oneWord(t.partition)) return QString("Partition '%1' must be one word.").arg(t.partition);
  if (!oneWord(t.time)) return QString("Time limit '%1' must be one word.").arg(t.time);
  if (t.patienceMin < 1 || t.patienceMin > kMaxPatienceMin)
    return QString("Patience %1 min: give 1 to %2 minutes.")
        .arg(t.patienceMin)
        .arg(kMaxPatienceMin);
  if (t.resultsDir.trimmed().isEmpty() || !oneWord(t.resultsDir))
    return QString("Results folder '%1' must be one path without spaces or quotes.")
        .arg(t.resultsDir);
  return {};
}

QString slurmRunFolder(const SlurmTarget& t, const QDateTime& now) {
  QString dir = t.resultsDir.trimmed();
  if (dir == "~") dir = ".";
  if (dir.startsWith("~/")) dir = dir.mid(2);
  while (dir.size() > 1 && dir.endsWith('/')) dir.chop(1);
  return dir + "/kwb-gui-" + now.toUTC().toString("yyyyMMdd-HHmmss-zzz");
}

QStringList slurmSubmitArguments(const SlurmTarget& t, const RunRequest& r, const QString& folder) {
  QStringList a{"slurm", "submit", "--shards", QString::number(t.shards), "--output-dir", folder};
  if (!t.partition.isEmpty()) a << "--partition" << t.partition;
  if (!t.time.isEmpty()) a << "--time" << t.time;
  if (t.gpusPerTask != 1) a << "--gpus-per-task" << QString::number(t.gpusPerTask);
  QStringList sizes;
  for (const CaseSize& s : r.sizes) sizes << QString::fromStdString(sizeLabel(s));
  a << "--kernels" << r.kernels.join(',');
  if (const QString f = r.family(); f.isEmpty())
    a << "--shapes" << sizes.join(',');
  else
    a << "--family" << f << "--sizes" << sizes.join(',');
  if (!r.suite.isEmpty()) a << "--suite" << r.suite;
  QStringList run;  // kwb run's own options, for every task
  if (r.samples > 0) run << "--samples" << QString::number(r.samples);
  if (r.coldL2) run << "--cold";
  if (r.energySeconds > 0) run << "--energy" << QString::number(r.energySeconds);
  if (r.seed) run << "--seed" << QString::number(*r.seed);
  if (!run.isEmpty()) a << "--" << run;
  return a;
}

QList<SlurmTarget> loadSlurmTargets(QSettings& s) {
  QList<SlurmTarget> out;
  const int n = s.beginReadArray("engine/slurmTargets");
  for (int i = 0; i < n; ++i) {
    s.setArrayIndex(i);
    SlurmTarget t;
    t.login.host = s.value("host").toString();
    t.login.kwbPath = s.value("kwbPath").toString();
    t.login.jumpHost = s.value("jumpHost").toString();
    t.login.sshOptions = s.value("sshOptions").toStringList();
    t.shards = s.value("shards", 4).toInt();
    t.partition = s.value("partition").toString();
    t.time = s.value("time").toString();
    t.gpusPerTask = s.value("gpusPerTask", 1).toInt();
    t.resultsDir = s.value("resultsDir", "kwb-runs").toString();
    t.patienceMin = s.value("patienceMin", 30).toInt();
    if (validateSlurmTarget(t).isEmpty()) out << t;  // a hand-edited entry that is wrong is left
  }
  s.endArray();
  return out;
}

void saveSlurmTargets(QSettings& s, const QList<SlurmTarget>& targets) {
  s.remove("engine/slurmTargets");
  s.beginWriteArray("engine/slurmTargets", int(targets.size()));
  for (int i = 0; i < targets.size(); ++i) {
    const SlurmTarget& t = targets[i];
    s.setArrayIndex(i);
    s.setValue("host", t.login.host);
    s.setValue("kwbPath", t.login.kwbPath);
    s.setValue("jumpHost", t.login.jumpHost);
    s.setValue("sshOptions", t.login.sshOptions);
    s.setValue("shards", t.shards);
    s.setValue("partition", t.partition);
    s.setValue("time", t.time);
    s.setValue("gpusPerTask", t.gpusPerTask);
    s.setValue("resultsDir", t.resultsDir);
    s.setValue("patienceMin", t.patienceMin);
  }
  s.endArray();
}

}  // namespace kwb::gui
