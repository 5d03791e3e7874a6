// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QWidget>

namespace kwb::gui {

// Run settings (samples auto/N, L2 hot/cold, the energy window off/seconds), Run / Cancel, progress
// with case count and ETA.
class RunPanel : public QWidget {
  Q_OBJECT
 public:
  explicit RunPanel(QWidget* parent = nullptr);
  int samples() const { return m_samples->value(); }  // 0: auto
  bool coldL2() const { return m_l2->currentIndex() == 1; }
  // kwb run --energy SECONDS: each case alone between two energy readings; 0: off.
  double energySeconds() const { return m_energy->value(); }
  void setSamples(int n) { m_samples->setValue(n); }
  void setColdL2(bool cold) { m_l2->setCurrentIndex(cold ? 1 : 0); }
  void setEnergySeconds(double s) { m_energy->setValue(s); }
  void setRunning(bool running);
  void setRunEnabled(bool enabled, const QString& why = {});
  void setProgress(int finished, int total, double etaSeconds);
  void setStatus(const QString& text, bool error = false);
  QPushButton* runButton() const { return m_run; }
  QPushButton* cancelButton() const { return m_cancel; }
  QProgressBar* progressBar() const { return m_progress; }
  QLabel* statusLabel() const { return m_status; }

 signals:
  void runRequested();
  void cancelRequested();

 private:
  QSpinBox* m_samples;
  QComboBox* m_l2;
  QDoubleSpinBox* m_energy;
  QPushButton* m_run;
  QPushButton* m_cancel;
  QProgressBar* m_progress;
  QLabel* m_status;
};

}  // namespace kwb::gui
