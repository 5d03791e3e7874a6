// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/selection.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "kwb/error.h"
#include "kwb/preset.h"
#include "kwb/run_sizes.h"

namespace kwb::cuda {
namespace {

// The families typed with --sizes, for a message: "reduce, scan".
std::string sizedFamilies() {
  std::string out;
  for (const Family& f : families())
    if (!takesShapes(f)) out += (out.empty() ? "" : ", ") + f.id;
  return out;
}

bool anySizeOption(const Selection& sel) {
  return !sel.sizes.empty() || !sel.types.empty() || !sel.axes.empty();
}

// --shapes for a family sized by --sizes, or --sizes, --types or --axis for one of shapes.
void checkOptionsFit(const Selection& sel, const Family& f, const std::string& suite) {
  if (!takesShapes(f) && !sel.shapes.empty())
    throw InputError("--shapes is for the gemm family; the " + f.id + " family takes --sizes (" +
                     sizeGrammar(f) + ")");
  if (!takesShapes(f) || !anySizeOption(sel)) return;
  const std::string options =
      "--sizes, --types and --axis are for the families sized by them (" + sizedFamilies() + "); ";
  if (suite.empty()) throw InputError(options + f.id + " takes --shapes");
  throw InputError(options + "suite '" + suite + "' is of the " + f.id + " family");
}

// The command line's values of each axis (--axis, and --types for the axis "type").
std::vector<AxisValues> commandLineAxes(const Selection& sel) {
  std::vector<AxisValues> out;
  if (!sel.types.empty()) out.push_back({"type", splitList(sel.types)});
  for (const std::string& a : sel.axes) out.push_back(parseAxisValues(a));
  return out;
}

// The sizes given on the command line over the suite's (or in place of one): --shapes, or
// --sizes in place of the suite's sizes and each --axis in place of the suite's values of it.
void applySizes(const Selection& sel, const Suite* suite, ResolvedSelection& out) {
  checkOptionsFit(sel, *out.family, out.suiteName);
  if (takesShapes(*out.family)) {
    if (!sel.shapes.empty()) {
      const std::vector<Shape> shapes = parseShapeList(sel.shapes);
      out.sizeList.assign(shapes.begin(), shapes.end());
    }
    return;
  }
  if (sel.sizes.empty() && sel.axes.empty() && sel.types.empty()) return;
  const std::vector<AxisValues> given = commandLineAxes(sel);
  std::vector<AxisValues> axes;  // the suite's, less those the command line gives
  for (const AxisValues& a : suite ? suite->axes : std::vector<AxisValues>{})
    if (std::none_of(given.begin(), given.end(),
                     [&](const AxisValues& g) { return g.name == a.name; }))
      axes.push_back(a);
  axes.insert(axes.end(), given.begin(), given.end());  // twice on the command line: refused
  std::vector<std::string> texts = suite ? suite->sizeTexts : std::vector<std::string>{};
  if (!sel.sizes.empty()) texts = splitList(sel.sizes);
  out.sizeList = runSizes(*out.family, texts, axes);
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
  if (named) checkOptionsFit(sel, *named, "");
  std::string kernelList = "all";
  const bool shapes = !named || takesShapes(*named);
  const bool sizesGiven = shapes ? !sel.shapes.empty() : !sel.sizes.empty();
  std::optional<Suite> suite;
  if (!sel.suite.empty() || !sizesGiven) {
    const std::string suiteName = !sel.suite.empty() ? sel.suite
                                  : !shapes          ? named->id + "-benchmark"
                                                     : defaultSuite;
    suite = loadSuite(suiteName, presetsDir);
    if (named && suite->family != named->id)
      throw InputError("suite '" + suite->name + "' is of the " + suite->family + " family, not " +
                       named->id);
    out.suiteName = suite->name;
    out.family = &findFamily(suite->family);
    out.sizeList = suite->sizes;
    if (takesShapes(*out.family)) out.sizeList.assign(suite->shapes.begin(), suite->shapes.end());
    kernelList = suite->kernels;
  }
  if (!out.family) out.family = named ? named : &findFamily("gemm");
  applySizes(sel, suite ? &*suite : nullptr, out);
  if (!sel.kernels.empty()) kernelList = sel.kernels;
  selectKernels(registry, kernelList, out);
  return out;
}

std::vector<PlanCase> orderedPlan(const ResolvedSelection& sel) {
  return orderPlan(sel.kernels, sel.sizes());
}

}  // namespace kwb::cuda
