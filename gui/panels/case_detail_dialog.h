// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QDialog>

#include "kwb/results.h"
#include "panels/ncu_profile_panel.h"

namespace kwb::gui {

class ErrorHeatMap;

// Everything known about one case: status and message, verification (errors, canary,
// negative control, first mismatch, alpha/beta check), timing summary and clocks; beside them
// the heat map of where in C the errors are.
class CaseDetailDialog : public QDialog {
  Q_OBJECT
 public:
  // `doc` is the case's document: its family's declaration names the headline figure.
  CaseDetailDialog(const CaseResult& c, const RunDocument& doc, QWidget* parent = nullptr);
  static QString describe(const CaseResult& c, const RunDocument& doc);  // the text as HTML
  ErrorHeatMap* heatMap() const { return m_heatMap; }
  // Adds "Profile with Nsight Compute" below the facts (a profile made earlier is shown).
  NcuProfilePanel* enableProfiling(const ProfileContext& ctx);
  NcuProfilePanel* profilePanel() const { return m_profile; }

 private:
  CaseResult m_case;
  ErrorHeatMap* m_heatMap;
  NcuProfilePanel* m_profile = nullptr;
};

}  // namespace kwb::gui
