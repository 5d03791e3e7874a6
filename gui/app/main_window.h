// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QAction>
#include <QFileSystemWatcher>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QTabWidget>
#include <functional>

#include "engine/ab_runner.h"
#include "engine/engine_driver.h"
#include "engine/run_controller.h"
#include "engine/slurm_run.h"
#include "engine/source_snapshots.h"
#include "engine/user_kernel_watcher.h"
#include "app/theme.h"
#include "model/kernel_change.h"
#include "model/results_model.h"

class QActionGroup;

namespace kwb::gui {

class BaselinePage;
class CaseDetailDialog;
struct ProfileContext;
class CorrectnessPage;
class DevicePanel;
class KernelListWidget;
class LogPage;
class PlotPage;
class ProgressionPage;
class RooflinePage;
class RunOnCombo;
class RunPanel;
class ScalingPage;
class ShapeListWidget;
class TimingPage;
class TuningPage;
class UserKernelPanel;

struct WindowOptions {
  QString engineOverride;       // --engine
  QString remote;               // --remote: run on this ssh host (a saved one keeps its settings)
  bool probeEngine = true;      // ask `kwb list` / `kwb device` at start (off when headless)
  bool persistSettings = true;  // off when headless and in tests
};

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(const WindowOptions& options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Return an empty string, or a sentence naming the file and the problem.
  QString openResults(const QString& path);
  QString openBaseline(const QString& path);
  QString addCompareRun(const QString& path);  // one more run drawn over this one
  QString saveResults(const QString& path);
  QString exportReport(const QString& path) { return exportReport(path, {}); }
  QString exportReport(const QString& path, const QString& option);  // option: "--report"
  QString exportCurrentPlot(const QString& path);                    // .png or .svg by suffix
  QString exportText(const QString& path);                           // .csv or .md by suffix
  // Opens the newest bundled sample; false when none is there.
  bool openBundledSample();
  // Starts `kwb list` and `kwb device` without blocking; the panels update when they answer.
  void probeEngine();
  bool selectTab(const QString& name);  // case-insensitive tab title
  QStringList tabNames() const;
  void rebuildAllNow();  // tests and headless: no waiting for coalesced refreshes
  // Settings ▸ Theme: applies it to the widgets and redraws the plots in it; kept in the saved
  // settings ("window/theme") where settings persist.
  void setTheme(Theme t);
  Theme theme() const { return m_theme; }

  void startRun();                // from the left panel's choices
  void runRequest(RunRequest r);  // a user kernel's case in r.kernels adds --source

  // Bring your own kernel (docs/BRING_YOUR_OWN.md, "In the GUI"): lists user.<stem>, watches
  // the file, and every save recompiles it and runs the last request again. Returns an empty
  // string, or a sentence naming the file and the problem.
  QString openKernelSource(const QString& path);
  QString userKernelSource() const { return m_userWatcher->source(); }
  UserKernelWatcher* userKernelWatcher() const { return m_userWatcher; }
  UserKernelPanel* userKernelPanel() const { return m_userPanel; }
  // `kwb ab` of this save against the last good one, started when a good run of it ends.
  AbRunner* abRunner() const { return m_ab; }
  void cancelRun();

  ResultsModel* model() const { return m_model; }
  RunController* controller() const { return m_controller; }
  // Runs on a Slurm cluster chosen in Run on (main_window_slurm.cpp).
  SlurmRun* slurmRun() const { return m_slurm; }
  QTabWidget* tabs() const { return m_tabs; }
  ProgressionPage* progressionPage() const { return m_progression; }
  ScalingPage* scalingPage() const { return m_scaling; }
  TimingPage* timingPage() const { return m_timing; }
  RooflinePage* rooflinePage() const { return m_roofline; }
  CorrectnessPage* correctnessPage() const { return m_correctness; }
  TuningPage* tuningPage() const { return m_tuning; }
  BaselinePage* baselinePage() const { return m_baseline; }
  LogPage* logPage() const { return m_log; }
  DevicePanel* devicePanel() const { return m_device; }
  KernelListWidget* kernelList() const { return m_kernels; }
  ShapeListWidget* shapeList() const { return m_shapes; }
  RunPanel* runPanel() const { return m_run; }
  RunOnCombo* runOnCombo() const { return m_runOn; }
  QString messageText() const { return m_message->text(); }
  // An error the user must see: a dialog (window-modal, not blocking) and the message bar.
  void showOpenError(const QString& text);
  // The detail dialog of one case of the open document (nullptr when it has no such case),
  // with "Profile with Nsight Compute"; the caller shows it.
  CaseDetailDialog* caseDialog(const std::string& kernel, const CaseSize& size);
  // The case at `size` read as a size of the kernel's family ("2^20 f32"); null if the
  // document has no such case. Throws InputError naming text that is no size of the family.
  CaseDetailDialog* caseDialog(const std::string& kernel, const QString& size);

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;
  void closeEvent(QCloseEvent* e) override;

 private:
  QStringList familiesOf(const QStringList& kernels) const;  // each kernel's problem family
  void buildTabs();                                          // the pages, in tab order
  void buildCentralWidget();    // the left panel and the tabs beside it, the status bar
  void connectModel();          // title, tabs, kernel list and messages follow the model
  void chooseEngineLocation();  // the saved choice or --remote, and later changes of it
  void buildMenus();
  void buildFileMenu();
  // A file dialog (open or save) starting in the last folder used; `then` acts on the chosen
  // path and returns an error to show, or an empty string.
  void askForFile(const QString& title, const QString& filter, bool save,
                  const std::function<QString(const QString&)>& then);
  QWidget* buildLeftPanel();
  // An export's target checked as kwb checks its outputs (kwb/output_files.h): never the open
  // results or the baseline, never a device, FIFO, socket or folder. Empty when it may be written.
  QString checkExport(const QString& path) const;
  void showMessage(const QString& text, bool error);
  void addRecent(const QString& path);
  void rebuildRecentMenu();
  void updateTitleAndStatus();
  void loadSettings();
  void saveSettings();
  void connectController();  // live runs: the controller feeds the model and the run panel
  void connectUserKernel();  // a user kernel's saves, compile errors and change vs last run
  void connectSlurm();       // a Slurm job's shards feed the model and the run panel
  // Submits `r` to the Slurm cluster chosen in Run on; false when none is chosen.
  bool runOnCluster(const RunRequest& r);
  void onUserKernelSaved();
  void onUserRunFinished(const RunDocument& doc, bool ok);
  // After a good run of the user kernel: `kwb ab` of its copy against the last good one's.
  void startUserAb(const RunDocument& doc, bool ok, bool hadPrevious);
  void onDeviceProbeFinished(int exitCode, const QByteArray& out, const QString& err);
  void onFamilyProbeFinished(int exitCode, const QByteArray& out, const QString& err);
  // Profiles are kept beside the open results file (or in the app's data folder for a live run).
  ProfileContext profileContext() const;
  PlotPage* currentPlotPage() const;
  // The Tuning tab shows only for a document holding a sweep; a document of a sweep or a
  // conformance suite alone opens on its tab.
  void showDocumentTabs();

  WindowOptions m_options;
  ResultsModel* m_model;
  RunController* m_controller;
  SlurmRun* m_slurm;
  QTabWidget* m_tabs;
  QLabel* m_message;
  QLabel* m_summary;
  ProgressionPage* m_progression;
  ScalingPage* m_scaling;
  TimingPage* m_timing;
  RooflinePage* m_roofline;
  CorrectnessPage* m_correctness;
  TuningPage* m_tuning;
  BaselinePage* m_baseline;
  LogPage* m_log;
  DevicePanel* m_device;
  KernelListWidget* m_kernels;
  ShapeListWidget* m_shapes;
  RunPanel* m_run;
  RunOnCombo* m_runOn;
  QMenu* m_recentMenu = nullptr;
  QActionGroup* m_themeActions = nullptr;
  Theme m_theme = Theme::kSystem;
  QStringList m_recent;
  // The open file: a change on disk (a run writing it again) reloads it.
  QFileSystemWatcher m_watcher;
  void watchSource();
  void reloadChangedSource(const QString& path);
  EngineDriver* m_listProbe = nullptr;    // `kwb list --json`
  EngineDriver* m_deviceProbe = nullptr;  // `kwb device --json`
  EngineDriver* m_familyProbe = nullptr;  // `kwb list --families --json`
  QAction* m_allGpus = nullptr;           // Run ▸ Every GPU of the host: runs pass --devices all
  bool m_engineMissing = false;
  bool m_noDevice = false;
  // The user kernel: its panel, the request that last ran it, what was shown before a run
  // (a failed compile puts it back), the last good run (the next run's baseline), the copies of
  // the file as its runs compiled it, and kwb ab of the last two good ones.
  UserKernelWatcher* m_userWatcher;
  UserKernelPanel* m_userPanel;
  AbRunner* m_ab;
  SourceSnapshots m_snapshots;
  QList<KernelChange> m_userChanges;  // the last good run against the one before, separately
  std::optional<RunRequest> m_userRequest;
  bool m_runHasSource = false;
  bool m_rerunPending = false;
  QStringList m_runStderr;
  struct Shown {
    RunDocument doc;
    QString source;
    std::optional<RunDocument> baseline;
    QString baselineSource;
  } m_beforeRun;
  std::optional<RunDocument> m_lastGoodUserRun;
};

}  // namespace kwb::gui
