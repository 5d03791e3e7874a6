#pragma once
#include <QDialog>

#include "kwb/results.h"

namespace kwb::gui {

// Everything known about one case: status and message, verification (errors, canary,
// negative control, first mismatch, alpha/beta check), timing summary and clocks.
class CaseDetailDialog : public QDialog {
  Q_OBJECT
 public:
  explicit CaseDetailDialog(const CaseResult& c, QWidget* parent = nullptr);
  static QString describe(const CaseResult& c);  // the same text as HTML
};

}  // namespace kwb::gui
