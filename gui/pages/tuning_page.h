// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <QMap>
#include <QPoint>

#include "plots/plot_page.h"

namespace kwb::gui {

// A tuning sweep (`kwb tune`) as a heat map: a row per configuration, its parameters and its
// GFLOP/s across, the row coloured by GFLOP/s. Configurations that failed or were not timed
// are hatched red; the fastest one is outlined. A sweep of several shapes has a row per
// configuration and shape, named "512³ · configuration", and outlines each shape's choice.
class TuningPage : public PlotPage {
  Q_OBJECT
 public:
  explicit TuningPage(ResultsModel* model, QWidget* parent = nullptr);
  QCPColorMap* colorMap() const { return m_map; }
  QCPColorScale* colorScale() const { return m_scale; }
  // The GFLOP/s cell of a configuration by its row's name (x, y in the map's cells), or (-1, -1).
  QPoint cellOf(const QString& config) const { return m_cells.value(config, QPoint(-1, -1)); }
  int failedMarks() const { return m_failedMarks; }
  QString bestConfig() const { return m_best; }

 protected:
  void rebuild() override;

 private:
  // Row y of the map: its cells' colour and text, a failed row's hatch, the best one's outline
  // and the tooltips; returns the row's tick label.
  QString addRow(const TuneGrid& grid, const QStringList& params, int y, bool manyShapes,
                 const QCPRange& range);

  QCPColorMap* m_map = nullptr;
  QCPColorScale* m_scale = nullptr;
  QMap<QString, QPoint> m_cells;
  int m_failedMarks = 0;
  QString m_best;
};

}  // namespace kwb::gui
