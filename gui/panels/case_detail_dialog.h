// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QDialog>

#include "kwb/results.h"
#include "model/profile_roof.h"
#include "panels/ncu_profile_panel.h"

class QSplitter;
class QTextBrowser;

namespace kwb::gui {

class ErrorHeatMap;

// Everything known about one case: status and message, verification (errors, canary,
// negative control, first mismatch, alpha/beta check), timing summary and clocks; beside them,
// for a GEMM, the heat map of where in C the errors are; under them the Nsight Compute panel.
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
  QTextBrowser* details() const { return m_text; }

 private:
  CaseResult m_case;
  ProfileRoof m_roof;
  QSplitter* m_split;
  QTextBrowser* m_text;
  ErrorHeatMap* m_heatMap;
  NcuProfilePanel* m_profile = nullptr;
};

}  // namespace kwb::gui
