// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QGroupBox>
#include <QStringList>
#include <optional>

#include "kwb/ncu_profile.h"
#include "kwb/results.h"
#include "model/profile_roof.h"

class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;
class QTabWidget;

namespace kwb::gui {

class EngineDriver;

// Where profiling runs: the engine (`kwb`) and the folder the report is kept in (beside the
// open results file).
struct ProfileContext {
  QString engine;
  QString resultsDir;
  std::string gitRevision;  // of the open results: a profile of another revision is stale
};

// Why a profile does not belong to this case of these results (its kernel, size (family and
// axes), configuration or kwb revision differs, or it does not say), one clause each; empty
// when it does.
QStringList profileMismatches(const NcuProfile& p, const CaseResult& c,
                              const std::string& gitRevision);

// "Profile with Nsight Compute" for one case, in the case dialog: runs `kwb profile` (ncu
// --set full), keeps the report beside the results, and shows its figures in tabs: key figures
// per launch, launch statistics, the warp-stall breakdown, memory traffic, and the roofline
// placement by the measured DRAM bytes (panels/ncu_views.h). A profile made earlier for the
// same case is shown when the dialog opens.
class NcuProfilePanel : public QGroupBox {
  Q_OBJECT
 public:
  // `roof`: the case's work, rate and roofs (model/profile_roof.h), placed by a profile's bytes.
  NcuProfilePanel(const CaseResult& c, const ProfileContext& ctx, const ProfileRoof& roof = {},
                  QWidget* parent = nullptr);
  ~NcuProfilePanel() override;

  void startProfile();
  QString profileJsonPath() const;
  const std::optional<NcuProfile>& profile() const { return m_profile; }
  bool canProfile() const;
  QString statusText() const;
  QTableWidget* table() const { return m_table; }
  QTabWidget* tabs() const { return m_tabs; }
  QTableWidget* launchTable() const { return m_launch; }
  QTableWidget* memoryTable() const { return m_memory; }
  QCustomPlot* stallPlot() const { return m_stallPlot; }
  QComboBox* stallKernel() const { return m_stallKernel; }
  QCustomPlot* rooflinePlot() const { return m_roofPlot; }
  QLabel* rooflineText() const { return m_roofText; }
  // The profile shown does not match this case, configuration and revision: shown greyed under
  // a red "Stale profile" line, never as this case's figures.
  bool isStale() const { return !m_stale.isEmpty(); }

 signals:
  void finished(bool ok);

 private:
  void onFinished(int exitCode, const QByteArray& out, const QString& err);
  void show(const NcuProfile& p);
  void loadEarlierProfile();
  void buildTabs();
  void showDepth(const NcuProfile& p);

  CaseResult m_case;
  ProfileContext m_ctx;
  std::optional<std::string> m_ncu;
  std::optional<NcuProfile> m_profile;
  QStringList m_stale;
  EngineDriver* m_engine;
  bool m_running = false;
  QPushButton* m_run;
  QPushButton* m_open;
  QLabel* m_status;
  QTableWidget* m_table;
  ProfileRoof m_roof;
  std::vector<NcuKernelFigures> m_perKernel;
  QTabWidget* m_tabs = nullptr;
  QTableWidget* m_launch = nullptr;
  QTableWidget* m_memory = nullptr;
  QComboBox* m_stallKernel = nullptr;
  QCustomPlot* m_stallPlot = nullptr;
  QCustomPlot* m_roofPlot = nullptr;
  QLabel* m_roofText = nullptr;
};

}  // namespace kwb::gui
