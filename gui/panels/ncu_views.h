// SPDX-License-Identifier: Apache-2.0
#pragma once
// The views of a Nsight Compute profile in the case dialog (docs/GUI.md, "The case dialog"):
// launch statistics, the warp-stall breakdown, memory traffic and the roofline placement,
// each filled from a profile's figures (kwb/ncu_profile.h); the panel only arranges them.
#include <QString>
#include <vector>

#include "kwb/ncu_profile.h"
#include "model/profile_roof.h"

class QCustomPlot;
class QTableWidget;

namespace kwb::gui {

// Said in place of figures a profile does not hold (recorded before kwb read them).
QString missingFiguresNote();

// A row per kernel: grid, block, registers per thread, shared memory per block, theoretical
// and achieved occupancy, waves per SM.
void fillLaunchTable(QTableWidget* table, const std::vector<NcuKernelFigures>& perKernel);
// A row per kernel: DRAM read and written, L2 and L1 bytes, each level's throughput; then the
// DRAM bytes of one launch of the case (every kernel of it).
void fillMemoryTable(QTableWidget* table, const std::vector<NcuKernelFigures>& perKernel,
                     const NcuPerCase& perCase);
// Horizontal bars, one per stall reason, most first: warp cycles stalled per issued
// instruction (the top `limit`).
void drawStallChart(QCustomPlot* plot, const NcuKernelFigures& k, int limit = 12);
// The memory slope and the compute roof of the case's precision, the case at its declared
// (minimum-traffic) intensity and at the intensity its measured DRAM bytes give, both at its
// achieved rate; `r` absent: a note why.
void drawProfileRoofline(QCustomPlot* plot, const std::optional<ProfileRoof>& r);

}  // namespace kwb::gui
