// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "plots/plot_page.h"

namespace kwb::gui {

// Log-log roofline: GFLOP/s against arithmetic intensity (FLOP per byte of the minimum
// traffic). Roofs from the recorded device (FP32, TF32 tensor, FP16 tensor) in grey line
// styles and GFLOP/s, the memory slope on its own; a colour per kernel, a marker per shape,
// FP32 fallbacks hollow. A document of memory-bound families only (reduce, scan, histogram,
// sort: every case at one small intensity, so a roofline would stack them at one x) draws the
// memory roofline instead: GB/s against the bytes each case moves (log), under the peak and the
// measured copy bandwidth, with the L2 capacity marked (a smaller working set may be served
// from L2).
class RooflinePage : public PlotPage {
  Q_OBJECT
 public:
  explicit RooflinePage(ResultsModel* model, QWidget* parent = nullptr);
  int roofCount() const { return m_roofs; }
  QCPGraph* memorySlope() const { return m_slope; }
  // The measured device-to-device copy bandwidth as a second slope (null when not recorded).
  QCPGraph* copySlope() const { return m_copySlope; }
  // Whether the last rebuild drew the memory roofline (GB/s against bytes moved).
  bool bandwidthView() const { return m_bandwidthView; }

 protected:
  void rebuild() override;

 private:
  struct Build;  // one rebuild's shapes and the intensities and rates reached
  // A kernel's points: a graph per marker (shape) and fill, with the medians' CIs.
  void addKernel(Build& b, const QString& id, const QColor& color);
  void addPoint(Build& b, QCPGraph* g, const CaseResult& c, const QString& id,
                std::pair<QVector<double>, QVector<double>>& errors);
  // The memory slope, the measured copy's and the compute roofs of the recorded device.
  void addRoofs(Build& b, const DeviceInfo& d);
  void addCopySlope(Build& b, double copy, double bw, double topPeak);
  void addRoof(Build& b, const QString& name, double peakGflops, double bw, Qt::PenStyle style);
  void addMarkerKeys(const Build& b, bool anyPoint);
  // The memory roofline of a memory-bound document.
  void rebuildBandwidth(const RunDocument& doc);
  void addBandwidthRoofs(const RunDocument& doc, double xMin, double xMax, double& yMax);

  int m_roofs = 0;
  bool m_bandwidthView = false;
  QCPGraph* m_slope = nullptr;
  QCPGraph* m_copySlope = nullptr;
};

}  // namespace kwb::gui
