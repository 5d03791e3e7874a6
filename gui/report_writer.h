#pragma once
#include <QList>
#include <QString>

namespace kwb::gui {

class ResultsModel;
class PlotPage;
class ProgressionPage;

// The PDF report: a title page with the device banner and run-level checks, every plot
// (Progression at each shape), the correctness grid, a case table and the baseline speedups.
struct ReportInputs {
  const ResultsModel* model = nullptr;
  ProgressionPage* progression = nullptr;
  QList<PlotPage*> plots;  // the other plot pages, in tab order
};

// Returns an empty string, or a sentence naming the file and the problem.
QString writeReportPdf(const ReportInputs& in, const QString& path);

}  // namespace kwb::gui
