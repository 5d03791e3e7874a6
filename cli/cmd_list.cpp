// SPDX-License-Identifier: Apache-2.0
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "kwb/family.h"
#include "kwb/kernel_info.h"
#include "kwb/results_json.h"
#include "kwb/size_json.h"
#include "output.h"

namespace kwb::cli {
namespace {

// `kwb list --families`: every registered family, as JSON declarations or one line each.
void listFamilies(bool json) {
  commandRegistry();  // registers the families of the kernel folders
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const Family& f : families()) out.push_back(static_cast<const FamilyInfo&>(f));
    std::cout << out.dump(2) << '\n';
    return;
  }
  std::vector<std::vector<std::string>> rows{
      {"id", "title", "axes", "headline", "roof", "reference"}};
  for (const Family& f : families()) {
    std::string axes;
    for (const auto& a : f.axes) axes += (axes.empty() ? "" : ", ") + a.name;
    rows.push_back({f.id, f.title, axes, std::string(metricUnit(f.headline)), f.roof, f.reference});
  }
  std::cout << formatTable(rows);
}

}  // namespace

void addListCommand(CLI::App& app, int& exitCode) {
  auto* sub = app.add_subcommand("list", "List the registered kernels and references");
  auto json = std::make_shared<bool>(false);
  auto familiesOnly = std::make_shared<bool>(false);
  sub->add_flag("--json", *json, "Print a JSON array instead of a table");
  sub->add_flag("--families", *familiesOnly,
                "List the problem families instead: each one's size axes, headline figure, roof "
                "and reference (with --json, their declarations as a results document lists "
                "them; the GUI reads presets and typed sizes of any family by them)");
  sub->callback([json, familiesOnly, &exitCode] {
    exitCode = 0;
    if (*familiesOnly) {
      listFamilies(*json);
      return;
    }
    const auto kernels = commandRegistry().all();
    if (*json) {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& k : kernels) {
        // The fields of a document's "kernels" entry (parseKernelList reads them), and more.
        nlohmann::json entry = kernelInfo(k);
        entry["alignment"] = k.alignment;
        entry["rtol"] = k.rtol();
        entry["atol"] = k.atol();
        out.push_back(std::move(entry));
      }
      std::cout << out.dump(2) << '\n';
    } else {
      // One table per problem family (docs/FAMILIES.md), with what it is measured against.
      bool first = true;
      for (const Family& f : families()) {
        std::vector<std::vector<std::string>> rows{
            {"id", "name", "stage", "precision", "align", "description"}};
        for (const auto& k : kernels)
          if (k.problem == f.id)
            rows.push_back({k.id, k.displayName, k.reference ? "ref" : std::to_string(k.stage),
                            std::string(toString(k.precision)), std::to_string(k.alignment),
                            k.description});
        if (rows.size() == 1) continue;
        std::cout << (first ? "" : "\n") << "family " << f.id << ": " << f.title << "; "
                  << figureKey(f.headline) << " against the " << f.roof << ", reference "
                  << f.reference << '\n'
                  << formatTable(rows);
        first = false;
      }
    }
    exitCode = 0;
  });
}

}  // namespace kwb::cli
