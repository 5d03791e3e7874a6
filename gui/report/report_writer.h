// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QList>
#include <QPageSize>
#include <QString>
#include <functional>

class QCustomPlot;
class QPaintDevice;

namespace kwb::gui {

class ResultsModel;
class PlotPage;
class ProgressionPage;
class TimingPage;

// Letter where the system measures in inches (US), else A4.
QPageSize defaultReportPageSize();

// The PDF report: a title page with the device banner, run-level checks and the best result
// per kernel; every plot (Progression and Timing at each shape); the correctness grid with its
// key; the case table; the baseline speedups with verdicts and their geometric mean.
struct ReportInputs {
  const ResultsModel* model = nullptr;
  ProgressionPage* progression = nullptr;
  TimingPage* timing = nullptr;
  QList<PlotPage*> plots;  // the other plot pages, in tab order
  QPageSize pageSize = defaultReportPageSize();
  std::function<void(QCustomPlot*, QPaintDevice*)> afterPlot;  // tests measure each plot
};

// Returns an empty string, or a sentence naming the file (and `option`, "--report", when given)
// and the problem.
QString writeReportPdf(const ReportInputs& in, const QString& path, const QString& option = {});

}  // namespace kwb::gui
