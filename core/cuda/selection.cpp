// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/selection.h"

#include <algorithm>
#include <string_view>

#include "kwb/error.h"
#include "kwb/preset.h"

namespace kwb::cuda {
namespace {

std::vector<ElementType> parseTypes(std::string_view text) {
  std::vector<ElementType> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    const ElementType t = parseElementType(text.substr(start, comma - start));
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

// The sizes given on the command line over the suite's (or in place of one).
void applySizes(const Selection& sel, ResolvedSelection& out) {
  if (out.family->oneDimensional) {
    if (!sel.shapes.empty())
      throw InputError("--shapes is for the gemm family; the " + out.family->id +
                       " family takes --sizes (element counts)");
    if (!sel.sizes.empty()) out.counts = parseCountList(sel.sizes);
    if (!sel.types.empty()) out.types = parseTypes(sel.types);
    if (out.types.empty()) out.types = {ElementType::kFloat32, ElementType::kInt32};
  } else {
    if (!sel.sizes.empty() || !sel.types.empty())
      throw InputError("--sizes and --types are for the 1-D families (reduce, scan); suite '" +
                       out.suiteName + "' is of the gemm family");
    if (!sel.shapes.empty()) out.shapes = parseShapeList(sel.shapes);
  }
}

// The kernels of `kernelList` in the family; one of another family named by id is an error.
void selectKernels(const KernelRegistry& registry, const std::string& kernelList,
                   ResolvedSelection& out) {
  for (const KernelDescriptor* k : registry.select(kernelList)) {
    if (k->problem == out.family->id)
      out.kernels.push_back(k);
    else if (kernelList != "all" && kernelList != "stages" && kernelList != "references")
      throw InputError("kernel " + k->id + " is of the " + k->problem + " family, not " +
                       out.family->id + " (give --family " + k->problem + ")");
  }
  if (out.kernels.empty())
    throw InputError("no " + out.family->id + " kernels selected by '" + kernelList +
                     "' (kwb list shows the kernels of each family)");
}

}  // namespace

ResolvedSelection resolveSelection(const Selection& sel, const KernelRegistry& registry,
                                   const std::string& defaultSuite,
                                   const std::filesystem::path& presetsDir) {
  ResolvedSelection out;
  const Family* named = sel.family.empty() ? nullptr : &findFamily(sel.family);
  const bool oneD = named && named->oneDimensional;
  if (oneD && !sel.shapes.empty())
    throw InputError("--shapes is for the gemm family; the " + named->id +
                     " family takes --sizes (element counts)");
  if (!oneD && named && !sel.sizes.empty())
    throw InputError("--sizes is for the 1-D families (reduce, scan); gemm takes --shapes");
  std::string kernelList = "all";
  const bool sizesGiven = oneD ? !sel.sizes.empty() : !sel.shapes.empty();
  if (!sel.suite.empty() || !sizesGiven) {
    const std::string suiteName = !sel.suite.empty() ? sel.suite
                                  : oneD             ? named->id + "-benchmark"
                                                     : defaultSuite;
    const Suite suite = loadSuite(suiteName, presetsDir);
    if (named && suite.family != named->id)
      throw InputError("suite '" + suite.name + "' is of the " + suite.family + " family, not " +
                       named->id);
    out.suiteName = suite.name;
    out.family = &findFamily(suite.family);
    out.shapes = suite.shapes;
    out.counts = suite.counts;
    out.types = suite.types;
    kernelList = suite.kernels;
  }
  if (!out.family) out.family = named ? named : &findFamily("gemm");
  applySizes(sel, out);
  if (!sel.kernels.empty()) kernelList = sel.kernels;
  selectKernels(registry, kernelList, out);
  return out;
}

std::vector<CaseSize> ResolvedSelection::sizes() const {
  if (family->oneDimensional) return vectorSizes(family->id, counts, types);
  return {shapes.begin(), shapes.end()};  // each a size of the gemm family
}

std::vector<PlanCase> orderedPlan(const ResolvedSelection& sel) {
  return orderPlan(sel.kernels, sel.sizes());
}

}  // namespace kwb::cuda
