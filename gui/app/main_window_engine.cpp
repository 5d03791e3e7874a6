// SPDX-License-Identifier: Apache-2.0
// MainWindow: the engine's probes (`kwb list`, `kwb device`) and runs, all through
// EngineDriver and RunController (construction is in main_window.cpp).
#include <QFileInfo>

#include "app/main_window.h"
#include "engine/app_paths.h"
#include "engine/engine_families.h"
#include "engine/remote_failure.h"
#include "kwb/error.h"
#include "kwb/exit_codes.h"
#include "kwb/results_json.h"
#include "kwb/shape.h"
#include "model/case_size.h"
#include "model/doc_queries.h"
#include "pages/log_page.h"
#include "panels/device_panel.h"
#include "panels/kernel_list_widget.h"
#include "panels/run_on_combo.h"
#include "panels/run_panel.h"
#include "panels/shape_list_widget.h"

namespace kwb::gui {
namespace {

// Why a one-shot probe of the engine gave no answer: the remote transport's failure, else the
// command's exit code and standard error.
QString probeFailure(const EngineDriver& probe, const QString& command, int code,
                     const QString& err) {
  if (QString remote = probe.remoteFailure(); !remote.isEmpty()) return remote;
  return QString("`%1` exited with code %2%3.")
      .arg(command)
      .arg(code)
      .arg(err.isEmpty() ? QString() : " (" + err + ")");
}

}  // namespace

void MainWindow::connectController() {
  // Live runs: the controller's DocumentBuilder builds the run's document, and the model reads
  // it in place; each case it adds is announced to the pages as it arrives.
  connect(m_controller, &RunController::runStarted, this, [this] {
    m_model->followLive(m_controller->document(), "live run", m_controller);
    m_run->setRunning(true);
    m_run->setStatus("Starting the engine…");
    showMessage({}, false);
  });
  connect(m_controller, &RunController::headerChanged, m_model, &ResultsModel::liveHeaderChanged);
  connect(m_controller, &RunController::caseStarted, this,
          [this](const QString& kernel, const CaseSize& size) {
            const QString gpus = m_controller->gpuProgress();
            m_run->setStatus(
                gpus.isEmpty() ? QString("Running %1 at %2").arg(kernel, sizeName(size)) : gpus);
          });
  connect(m_controller, &RunController::caseFinished, m_model, &ResultsModel::liveCasesAdded);
  connect(m_controller, &RunController::progress, this, [this](int done, int total) {
    m_run->setProgress(done, total, m_controller->etaSeconds());
    if (const QString gpus = m_controller->gpuProgress(); !gpus.isEmpty()) m_run->setStatus(gpus);
  });
  connect(m_controller, &RunController::logLine, m_log, &LogPage::append);
  connect(m_controller, &RunController::runFinished, this,
          [this](const RunDocument& doc, bool ok, const QString& message) {
            m_model->setDocument(doc, "unsaved run", false);
            m_run->setRunning(false);
            m_run->setProgress(int(doc.cases.size()), m_controller->totalCases(), -1);
            m_run->setStatus(message, !ok);
            if (!ok) showMessage(message, true);
          });
}

void MainWindow::probeEngine() {
  const QString engine = m_controller->engine();
  const EngineLocation where = m_controller->location();
  if (where.isLocal() && (engine.isEmpty() || !QFileInfo(engine).isExecutable())) {
    m_engineMissing = true;
    m_device->setNoDevice(m_model->document(), "engine not found");
    m_run->setRunEnabled(false, "The engine kwb was not found.");
    showMessage(
        QString("The engine kwb was not found (%1). Showing recorded results; set its path "
                "in Run ▸ Engine… to run kernels.")
            .arg(engine.isEmpty() ? QString("looked beside kwb-gui, in the build tree and on PATH")
                                  : QString("'%1' is not an executable file").arg(engine)),
        true);
    return;
  }
  m_engineMissing = false;
  // Answers of an earlier location's probes must not land in this one's panels.
  for (EngineDriver* old : {m_listProbe, m_deviceProbe, m_familyProbe})
    if (old) old->disconnect(this);
  delete m_listProbe;
  m_listProbe = new EngineDriver(this);
  m_listProbe->setLocation(where);
  connect(m_listProbe, &EngineDriver::queryFinished, this,
          [this](int code, const QByteArray& out, const QString& err) {
            if (code != 0) {
              m_log->append("warning", probeFailure(*m_listProbe, "kwb list --json", code, err) +
                                           " Using the kernels of the open results.");
              return;
            }
            try {
              m_model->setEngineCatalog(KernelLookup::fromListJson(out));
            } catch (const InputError& e) {
              m_log->append("error", QString::fromStdString(e.what()));
            }
          });
  m_listProbe->query(engine, {"list", "--json"});
  delete m_familyProbe;
  m_familyProbe = new EngineDriver(this);
  m_familyProbe->setLocation(where);
  connect(m_familyProbe, &EngineDriver::queryFinished, this, &MainWindow::onFamilyProbeFinished);
  m_familyProbe->query(engine, {"list", "--families", "--json"});
  if (const auto cluster = m_runOn->currentCluster()) {
    // The login node has no GPU to probe: the cluster's nodes have them.
    m_noDevice = false;
    m_device->setNoDevice(m_model->document(), "the GPUs are the " + cluster->label() + "'s");
    m_run->setRunEnabled(true);
    return;
  }
  delete m_deviceProbe;
  m_deviceProbe = new EngineDriver(this);
  m_deviceProbe->setLocation(where);
  connect(m_deviceProbe, &EngineDriver::queryFinished, this, &MainWindow::onDeviceProbeFinished);
  m_deviceProbe->query(engine, {"device", "--json"});
}

// The engine's families: presets and typed sizes of them parse from now on.
void MainWindow::onFamilyProbeFinished(int exitCode, const QByteArray& out, const QString& err) {
  if (exitCode != 0) {
    m_log->append("warning",
                  probeFailure(*m_familyProbe, "kwb list --families --json", exitCode, err) +
                      " Presets of families other than gemm, reduce and scan are not offered.");
    return;
  }
  std::vector<FamilyInfo> declared;
  try {
    declared = registerEngineFamilies(out);
  } catch (const InputError& e) {
    m_log->append("error", QString::fromStdString(e.what()));
    return;
  }
  m_shapes->addFamilies(declared);
  QStringList ids, waiting;
  for (const FamilyInfo& f : declared) ids << QString::fromStdString(f.id);
  const int added = m_shapes->addPresets(loadPresets(nullptr, &waiting));
  m_log->append("info", QString("The engine declares the families %1; %2 more preset%3 offered.")
                            .arg(ids.join(", "))
                            .arg(added)
                            .arg(added == 1 ? "" : "s"));
  if (!waiting.isEmpty())
    m_log->append("warning", "Presets of families the engine does not declare, left out: " +
                                 waiting.join(", ") + ".");
}

void MainWindow::onDeviceProbeFinished(int exitCode, const QByteArray& out, const QString& err) {
  const EngineLocation where = m_controller->location();
  if (const QString remote = m_deviceProbe->remoteFailure(); !remote.isEmpty()) {
    m_noDevice = true;
    m_device->setNoDevice(m_model->document(), remote);
    m_run->setRunEnabled(false, remote);
    m_log->append("error", remote);
    showMessage(remote, true);
    return;
  }
  if (exitCode == 0) {
    try {
      const auto j = nlohmann::json::parse(out.toStdString());
      m_device->setLiveDevice(j.get<DeviceInfo>());
      m_noDevice = false;
      m_run->setRunEnabled(true);
      m_log->append("info", QString("CUDA device found%1: %2")
                                .arg(where.isLocal() ? QString() : " on " + where.label(),
                                     QString::fromStdString(j.value("name", ""))));
      return;
    } catch (const std::exception& e) {
      m_log->append("error",
                    QString("`kwb device --json` printed something unreadable: %1").arg(e.what()));
    }
  }
  m_noDevice = true;
  m_device->setNoDevice(m_model->document(), err);
  m_run->setRunEnabled(false, "No CUDA device: " + err);
  m_log->append("warning",
                exitCode == kExitNoDevice
                    ? "No CUDA device: " + err
                    : QString("`kwb device` failed (exit %1): %2").arg(exitCode).arg(err));
}

QStringList MainWindow::familiesOf(const QStringList& kernels) const {
  QStringList out;
  for (const QString& id : kernels)
    out << QString::fromStdString(m_model->catalog().info(id).problem);
  return out;
}

void MainWindow::startRun() {
  if (m_controller->isRunning() || m_slurm->isRunning()) return;
  RunRequest r;
  r.kernels = m_kernels->checkedIds();
  r.sizes = m_shapes->checkedShapes();
  r.samples = m_run->samples();
  r.coldL2 = m_run->coldL2();
  r.energySeconds = m_run->energySeconds();
  r.suite = m_shapes->suiteName();
  if (r.kernels.isEmpty() || r.sizes.isEmpty()) {
    m_run->setStatus("Choose at least one kernel and one shape.", true);
    return;
  }
  // One run is one problem family: the checked shapes say which, and the checked kernels of
  // other families sit this run out.
  const QStringList kernelFamilies = familiesOf(r.kernels);
  QString error;
  const QString family = runFamily(r.sizes, kernelFamilies, &error);
  if (family.isEmpty()) {
    m_run->setStatus(error, true);
    return;
  }
  QStringList ofFamily;
  for (int i = 0; i < r.kernels.size(); ++i)
    if (kernelFamilies[i] == family) ofFamily << r.kernels[i];
  if (ofFamily.isEmpty()) {
    m_run->setStatus("None of the checked kernels is of the " + family +
                         " family these shapes are of: check one in the kernel list.",
                     true);
    return;
  }
  r.kernels = ofFamily;
  r.sizes = inFamily(r.sizes, family);  // a size typed by hand before any family was known
  runRequest(r);
}

void MainWindow::cancelRun() {
  if (m_slurm->isRunning()) {
    m_run->setStatus("Cancelling the Slurm job…");
    m_slurm->cancel();
    return;
  }
  if (!m_controller->isRunning()) return;
  m_run->setStatus("Cancelling…");
  m_controller->cancel();
}

}  // namespace kwb::gui
