// SPDX-License-Identifier: Apache-2.0
#pragma once
// The problem families an engine declares (`kwb list --families --json`). The GUI links no
// kernels, so on its own it knows only the families every reader knows (gemm, reduce, scan);
// registering the engine's declarations in this process's catalog (kwb::registerFamily) lets
// presets and typed sizes of the engine's other families parse as the engine parses them.
#include <QByteArray>
#include <vector>

#include "kwb/family_info.h"

namespace kwb::gui {

// Parses the answer and registers each family (its declaration; the work of a case stays the
// engine's). Throws InputError naming what is wrong with the answer; registers nothing then.
std::vector<FamilyInfo> registerEngineFamilies(const QByteArray& listFamiliesJson);

}  // namespace kwb::gui
