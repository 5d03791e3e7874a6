// SPDX-License-Identifier: Apache-2.0
#include "panels/run_panel.h"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QVBoxLayout>

namespace kwb::gui {

RunPanel::RunPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* form = new QFormLayout;
  m_samples = new QSpinBox(this);
  m_samples->setRange(0, 100000);
  m_samples->setSpecialValueText("auto");
  m_samples->setToolTip("Samples per case; auto stops once the median is stable");
  m_l2 = new QComboBox(this);
  m_l2->addItems({"hot", "cold (flush between samples)"});
  m_energy = new QDoubleSpinBox(this);
  m_energy->setRange(0.0, 60.0);
  m_energy->setDecimals(1);
  m_energy->setSingleStep(0.5);
  m_energy->setSuffix(" s");
  m_energy->setSpecialValueText("off");
  m_energy->setToolTip(
      "kwb run --energy: after its samples, each case runs alone for at least this long between "
      "two readings of the GPU's energy counter (joules per launch, W, GFLOP/J); off: none");
  form->addRow("Samples", m_samples);
  form->addRow("L2", m_l2);
  form->addRow("Energy", m_energy);
  layout->addLayout(form);
  auto* buttons = new QHBoxLayout;
  m_run = new QPushButton("Run", this);
  m_cancel = new QPushButton("Cancel", this);
  m_cancel->setEnabled(false);
  buttons->addWidget(m_run);
  buttons->addWidget(m_cancel);
  layout->addLayout(buttons);
  m_progress = new QProgressBar(this);
  m_progress->setRange(0, 1);
  m_progress->setValue(0);
  m_progress->setFormat("idle");
  layout->addWidget(m_progress);
  m_status = new QLabel(this);
  m_status->setWordWrap(true);
  layout->addWidget(m_status);
  connect(m_run, &QPushButton::clicked, this, &RunPanel::runRequested);
  connect(m_cancel, &QPushButton::clicked, this, &RunPanel::cancelRequested);
}

void RunPanel::setRunning(bool running) {
  m_run->setEnabled(!running);
  m_cancel->setEnabled(running);
}

void RunPanel::setRunEnabled(bool enabled, const QString& why) {
  m_run->setEnabled(enabled);
  m_run->setToolTip(why);
}

void RunPanel::setProgress(int finished, int total, double etaSeconds) {
  m_progress->setRange(0, std::max(1, total));
  m_progress->setValue(finished);
  QString text = QString("%1/%2").arg(finished).arg(total);
  if (etaSeconds >= 0) text += QString(" · ETA %1 s").arg(qRound(etaSeconds));
  m_progress->setFormat(text);
}

void RunPanel::setStatus(const QString& text, bool error) {
  m_status->setText(text);
  m_status->setStyleSheet(error ? "color: #b00020;" : QString());
}

}  // namespace kwb::gui
