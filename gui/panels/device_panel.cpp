// SPDX-License-Identifier: Apache-2.0
#include "panels/device_panel.h"

#include <QVBoxLayout>

#include "model/doc_queries.h"

namespace kwb::gui {

DevicePanel::DevicePanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  m_banner = new QLabel(this);
  m_banner->setWordWrap(true);
  m_banner->setObjectName("noDeviceBanner");
  m_banner->setStyleSheet(
      "QLabel { background: #fff3cd; color: #664d03; border: 1px solid #e0c060; "
      "border-radius: 3px; padding: 4px; }");
  m_banner->hide();
  m_title = new QLabel(this);
  m_title->setStyleSheet("font-weight: bold;");
  m_title->setWordWrap(true);
  m_details = new QLabel(this);
  m_details->setWordWrap(true);
  layout->addWidget(m_banner);
  layout->addWidget(m_title);
  layout->addWidget(m_details);
}

void DevicePanel::setLiveDevice(const DeviceInfo& d) {
  m_live = true;
  m_banner->hide();
  m_title->setText(
      QString("%1 · sm_%2%3").arg(QString::fromStdString(d.name)).arg(d.ccMajor).arg(d.ccMinor));
  m_details->setText(
      QString("%1 SMs · %2 MHz · %3 GiB · L2 %4 MiB\nFP32 %5 · FP16 %6 TFLOP/s · %7 GB/s")
          .arg(d.smCount)
          .arg(d.smClockMhz)
          .arg(double(d.totalMemoryBytes) / (1 << 30), 0, 'f', 0)
          .arg(double(d.l2Bytes) / (1 << 20), 0, 'f', 0)
          .arg(d.peakFp32Tflops, 0, 'f', 1)
          .arg(d.peakFp16TensorTflops, 0, 'f', 0)
          .arg(d.peakBandwidthGBs, 0, 'f', 0));
}

void DevicePanel::setNoDevice(const RunDocument& shown, const QString& why) {
  m_live = false;
  const QString device =
      shown.device ? QString::fromStdString(shown.device->name) : QString("an unknown device");
  m_banner->setText(QString("No CUDA device — showing results recorded on %1 on %2")
                        .arg(device, recordedDate(shown)));
  m_banner->setToolTip(why);
  m_banner->show();
  m_title->setText(shown.device ? "Recorded on" : QString());
  m_details->setText(shown.device ? deviceBanner(shown) : QString());
}

void DevicePanel::setRecorded(const RunDocument& shown) {
  m_live = false;
  m_banner->setText(QString("Results recorded on %1 on %2")
                        .arg(shown.device ? QString::fromStdString(shown.device->name)
                                          : QString("an unknown device"),
                             recordedDate(shown)));
  m_banner->show();
  m_title->setText(QString());
  m_details->setText(shown.device ? deviceBanner(shown) : QString());
}

}  // namespace kwb::gui
