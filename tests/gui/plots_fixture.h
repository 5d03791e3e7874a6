// SPDX-License-Identifier: Apache-2.0
#pragma once
// The fixture and helpers the plot tests share: the bundled run open in a shown window.
#include <gtest/gtest.h>

#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QMessageBox>
#include <QMouseEvent>
#include <QProcess>
#include <QTemporaryDir>

#include "app/main_window.h"
#include "gui_test_support.h"
#include "model/doc_queries.h"
#include "pages/correctness_page.h"
#include "pages/progression_page.h"
#include "pages/roofline_page.h"
#include "pages/scaling_page.h"
#include "pages/timing_page.h"
#include "pages/tuning_page.h"
#include "panels/kernel_list_widget.h"
#include "report/report_painter.h"
#include "report/report_writer.h"

namespace kwb::gui::test {

struct Plots : ::testing::Test {
  void SetUp() override { load(test::sampleRun()); }
  void load(const QString& path) {
    doc = readDocument(path.toStdString());
    WindowOptions o = test::quietWindow();
    w = std::make_unique<MainWindow>(o);
    ASSERT_EQ(w->openResults(path), "");
    w->resize(1500, 950);
    w->show();
    QApplication::processEvents();
    w->rebuildAllNow();
  }
  void open(const RunDocument& d) {
    doc = d;
    w->model()->setDocument(d, "test.json");
    w->rebuildAllNow();
  }
  RunDocument doc;
  std::unique_ptr<MainWindow> w;
};

inline const Shape kOdd{511, 513, 1025};  // the tensor-core stages fall back to FP32 here

// Labels of the ticks inside an axis' range after a replot.
inline QStringList visibleTicks(QCPAxis* axis) {
  axis->parentPlot()->replot();
  QStringList out;
  const QVector<double> ticks = axis->tickVector();
  const QVector<QString> labels = axis->tickVectorLabels();
  for (int i = 0; i < ticks.size() && i < labels.size(); ++i)
    if (axis->range().contains(ticks[i]) && !labels[i].isEmpty()) out << labels[i];
  return out;
}

inline QList<QCPItemText*> texts(QCustomPlot* plot) {
  QList<QCPItemText*> out;
  for (int i = 0; i < plot->itemCount(); ++i)
    if (auto* t = qobject_cast<QCPItemText*>(plot->item(i))) out << t;
  return out;
}

inline void click(QWidget* widget, QPointF at) {
  QMouseEvent press(QEvent::MouseButtonPress, at, widget->mapToGlobal(at), Qt::LeftButton,
                    Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(widget, &press);
  QMouseEvent release(QEvent::MouseButtonRelease, at, widget->mapToGlobal(at), Qt::LeftButton,
                      Qt::NoButton, Qt::NoModifier);
  QApplication::sendEvent(widget, &release);
}

// A document of `shapes` distinct shapes, three kernels each, from the bundled run's cases.
inline RunDocument manyShapes(const RunDocument& sample, int shapes) {
  RunDocument d = sample;
  d.cases.clear();
  d.progression = {};
  std::vector<CaseResult> templates;
  for (const char* id : {"cublas.sgemm", "sgemm.tiled", "sgemm.tensor_core"})
    for (const auto& c : sample.cases)
      if (c.kernel == id) {
        templates.push_back(c);
        templates.back().samplesMs.resize(20);
        if (templates.back().verification) {
          templates.back().verification->compare.grid = {};
          templates.back().verification->alphaBeta.reset();
        }
        break;
      }
  for (int i = 0; i < shapes; ++i)
    for (CaseResult c : templates) {
      c.size = kwb::gemmSize({256 + i, 384 + (i * 7) % 512, 640 + (i * 13) % 1024});
      d.cases.push_back(c);
    }
  return d;
}

}  // namespace kwb::gui::test
