// SPDX-License-Identifier: Apache-2.0
#include "model/merge_agreement.h"

#include <map>
#include <string>

#include "kwb/case_size.h"

namespace kwb::gui {
namespace {

// Every case of a merged document by kernel and size, true where it ran (kwb merge leaves a hole,
// "not run: ...", skipped, for a case its shard did not bring). A tuning sweep's are its results.
std::map<std::string, bool> presence(const RunDocument& d) {
  std::map<std::string, bool> out;
  const auto add = [&](const CaseResult& c) {
    const bool hole = c.status == CaseStatus::kSkipped && c.message.rfind("not run: ", 0) == 0;
    out[c.kernel + " " + sizeLabel(c.size)] = !hole;
  };
  for (const CaseResult& c : d.cases) add(c);
  if (d.tuning)
    for (const CaseResult& c : d.tuning->results) add(c);
  return out;
}

QString shardStates(const RunDocument& ours, const RunDocument& theirs) {
  if (ours.merged->count != theirs.merged->count)
    return QString("it has %1 shards, the GUI's merge %2")
        .arg(theirs.merged->count)
        .arg(ours.merged->count);
  for (std::size_t i = 0; i < ours.merged->shards.size(); ++i) {
    const std::string here = ours.merged->shards[i].state;
    const std::string there =
        i < theirs.merged->shards.size() ? theirs.merged->shards[i].state : "absent";
    if (here != there)
      return QString("shard %1/%2 is %3 there and %4 in the GUI's merge")
          .arg(i + 1)
          .arg(ours.merged->count)
          .arg(QString::fromStdString(there), QString::fromStdString(here));
  }
  return {};
}

}  // namespace

QString mergeDisagreement(const RunDocument& ours, const RunDocument& theirs) {
  if (!theirs.merged) return "it is not a merged document";
  if (!ours.merged) return "the GUI has merged nothing to compare it with";
  if (QString s = shardStates(ours, theirs); !s.isEmpty()) return s;
  std::map<std::string, bool> here = presence(ours), there = presence(theirs);
  for (const auto& [key, ran] : there) here.try_emplace(key, false);  // every key of either
  int onlyHere = 0, onlyThere = 0;
  QString example;
  for (const auto& [key, ranHere] : here) {
    const auto it = there.find(key);
    const bool ranThere = it != there.end() && it->second;
    if (ranHere == ranThere) continue;
    (ranHere ? onlyHere : onlyThere) += 1;
    if (example.isEmpty())
      example = QString::fromStdString(key) + (ranHere ? " ran in the GUI's merge, not there"
                                                       : " ran there, not in the GUI's merge");
  }
  if (onlyHere + onlyThere == 0) return {};
  return QString("%1 case(s) ran only in the GUI's merge and %2 only there (%3)")
      .arg(onlyHere)
      .arg(onlyThere)
      .arg(example);
}

}  // namespace kwb::gui
