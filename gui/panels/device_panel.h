// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QLabel>
#include <QWidget>

#include "kwb/results.h"

namespace kwb::gui {

// Top of the left panel: the live device, or the banner saying whose results are shown.
class DevicePanel : public QWidget {
  Q_OBJECT
 public:
  explicit DevicePanel(QWidget* parent = nullptr);
  void setLiveDevice(const DeviceInfo& device);
  // No GPU here (or no engine): name the device and date the shown results come from.
  void setNoDevice(const RunDocument& shown, const QString& why);
  // Device unknown yet (headless, or the probe has not answered): describe the results.
  void setRecorded(const RunDocument& shown);
  QString bannerText() const { return m_banner->isHidden() ? QString() : m_banner->text(); }
  QString titleText() const { return m_title->text(); }
  QString detailsText() const { return m_details->text(); }
  bool hasLiveDevice() const { return m_live; }

 private:
  QLabel* m_title;
  QLabel* m_details;
  QLabel* m_banner;
  bool m_live = false;
};

}  // namespace kwb::gui
