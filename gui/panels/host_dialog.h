// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QDialog>

#include "engine/engine_location.h"

class QLabel;
class QLineEdit;

namespace kwb::gui {

// Edits one GPU server of the Run on list: the ssh destination, where kwb is on it, a jump
// host and more ssh options. OK stays refused while validateLocation() objects.
class HostDialog : public QDialog {
  Q_OBJECT
 public:
  explicit HostDialog(const EngineLocation& where, QWidget* parent = nullptr);
  EngineLocation location() const;

  void accept() override;

 private:
  QLineEdit* m_host;
  QLineEdit* m_kwbPath;
  QLineEdit* m_jump;
  QLineEdit* m_options;
  QLabel* m_error;
};

}  // namespace kwb::gui
