// SPDX-License-Identifier: Apache-2.0
#include "kwb/conformance.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "kwb/error.h"

namespace kwb {

namespace {

// The plan's starting local range, before the device limits reduce it.
constexpr int kPlanExtent = 1023;

std::string str(std::int64_t v) { return std::to_string(v); }

std::string joined(const std::set<std::int32_t>& values) {
  std::string out;
  for (auto v : values) out += (out.empty() ? "" : ", ") + str(v);
  return "{" + out + "}";
}

std::string at(const SubgroupRecord& r) {
  return "block " + str(r.blockLinearId) + " thread " + str(r.threadLinearId);
}

// Every field written, and by the thread the entry belongs to.
bool fieldsWritten(const SubgroupRecord& r) {
  for (std::int32_t v : {r.groupId, r.groupLinearId, r.groupRange, r.groupLinearRange, r.localId,
                         r.localLinearId, r.localRange, r.localLinearRange, r.maxLocalRange,
                         r.leader, r.blockLinearId, r.threadLinearId})
    if (v == kUnwritten) return false;
  return true;
}

class Check {
 public:
  Check(std::string id, std::string description) {
    m_c.id = std::move(id);
    m_c.description = std::move(description);
  }
  void fail(const std::string& offender) {
    m_c.passed = false;
    ++m_c.failures;
    if (m_c.offenders.size() < kMaxOffenders) m_c.offenders.push_back(offender);
  }
  void notJudged(std::int64_t n = 1) { m_c.notJudged += n; }
  ConformanceCheck done() { return std::move(m_c); }

 private:
  ConformanceCheck m_c;
};

using GroupKey = std::pair<std::int32_t, std::int32_t>;  // block linear id, group id

}  // namespace

std::array<int, 3> conformanceBlockShape(const std::array<int, 3>& maxBlockDim,
                                         int maxThreadsPerBlock) {
  for (int i = 0; i < 3; ++i)
    if (maxBlockDim[std::size_t(i)] < 1)
      throw InputError("device limit maxBlockDim[" + str(i) +
                       "] = " + str(maxBlockDim[std::size_t(i)]) + " is below 1");
  if (maxThreadsPerBlock < 1)
    throw InputError("device limit maxThreadsPerBlock = " + str(maxThreadsPerBlock) +
                     " is below 1");
  std::array<int, 3> b{kPlanExtent, kPlanExtent, kPlanExtent};
  // Halving 2^k − 1 gives 2^(k−1) − 1: every extent stays odd, so the product does too.
  for (std::size_t i = 0; i < 3; ++i)
    while (b[i] > maxBlockDim[i]) b[i] /= 2;
  const auto threads = [&b] { return std::int64_t(b[0]) * b[1] * b[2]; };
  while (threads() > maxThreadsPerBlock) {
    std::size_t largest = 2;
    for (std::size_t i = 2; i-- > 0;)
      if (b[i] > b[largest]) largest = i;
    b[largest] /= 2;
  }
  return b;
}

SubgroupLaunch conformanceLaunch(const std::array<int, 3>& maxBlockDim, int maxThreadsPerBlock) {
  SubgroupLaunch l;
  l.block = conformanceBlockShape(maxBlockDim, maxThreadsPerBlock);
  l.grid = {2, 2, 2};
  return l;
}

bool SubgroupRun::passed() const {
  return error.empty() && !checks.empty() &&
         std::all_of(checks.begin(), checks.end(), [](const auto& c) { return c.passed; });
}

bool ConformanceReport::passed() const {
  return !runs.empty() &&
         std::all_of(runs.begin(), runs.end(), [](const auto& r) { return r.passed(); });
}

const ConformanceCheck* findCheck(const SubgroupRun& run, const std::string& id) {
  for (const auto& c : run.checks)
    if (c.id == id) return &c;
  return nullptr;
}

namespace {

// The entries written whole, by the thread they belong to. The others fail `all_written` and
// their blocks go to `incomplete`: the checks over sets do not judge those blocks, so one
// missing entry is reported once, not again as a missing id.
std::vector<const SubgroupRecord*> writtenEntries(const std::vector<SubgroupRecord>& records,
                                                  std::int64_t perBlock, Check& written,
                                                  std::set<std::int64_t>& incomplete) {
  std::vector<const SubgroupRecord*> valid;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    const std::int64_t block = std::int64_t(i) / perBlock;
    const std::int64_t thread = std::int64_t(i) % perBlock;
    const std::string slot =
        "entry " + str(std::int64_t(i)) + " (block " + str(block) + " thread " + str(thread) + ")";
    if (!fieldsWritten(r)) {
      written.fail(slot + ": unwritten");
      incomplete.insert(block);
    } else if (r.blockLinearId != block || r.threadLinearId != thread) {
      written.fail(slot + ": written by " + at(r));
      incomplete.insert(block);
    } else {
      valid.push_back(&r);
    }
  }
  return valid;
}

// The per-item bullets: group id, local id, local range, group range, leader.
std::vector<ConformanceCheck> itemChecks(const std::vector<const SubgroupRecord*>& valid) {
  Check groupId("group_id",
                "group id (meta_group_rank) equals the group linear id (from the hardware lane "
                "id) and lies in [0, group range)");
  Check localId("local_id",
                "local id (thread_rank) equals the local linear id (rank among live lanes) and "
                "lies in [0, local range)");
  Check localRange("local_range",
                   "local range (live lanes, match_any) equals the local linear range (live "
                   "lanes, ballot) and is at most the max local range");
  Check groupRange("group_range",
                   "group range (meta_group_size) equals the group linear range (tiles counted "
                   "on the device)");
  Check leader("leader", "leader (lowest live lane) is set if and only if the local id is 0");
  for (const auto* p : valid) {
    const auto& r = *p;
    if (r.groupId != r.groupLinearId || r.groupId < 0 || r.groupId >= r.groupRange)
      groupId.fail(at(r) + ": group id " + str(r.groupId) + ", linear " + str(r.groupLinearId) +
                   ", range " + str(r.groupRange));
    if (r.localId != r.localLinearId || r.localId < 0 || r.localId >= r.localRange)
      localId.fail(at(r) + ": local id " + str(r.localId) + ", linear " + str(r.localLinearId) +
                   ", range " + str(r.localRange));
    if (r.localRange != r.localLinearRange || r.localRange > r.maxLocalRange)
      localRange.fail(at(r) + ": local range " + str(r.localRange) + ", linear " +
                      str(r.localLinearRange) + ", max " + str(r.maxLocalRange));
    if (r.groupRange != r.groupLinearRange)
      groupRange.fail(at(r) + ": group range " + str(r.groupRange) + ", linear " +
                      str(r.groupLinearRange));
    if ((r.leader != 0 && r.leader != 1) || (r.leader == 1) != (r.localId == 0))
      leader.fail(at(r) + ": leader " + str(r.leader) + " with local id " + str(r.localId));
  }
  return {groupId.done(), localId.done(), localRange.done(), groupRange.done(), leader.done()};
}

ConformanceCheck maxLocalCheck(const std::vector<const SubgroupRecord*>& valid, int tileSize,
                               int warpSize) {
  Check maxLocal("max_local_range",
                 "max local range (num_threads) is the same for every item and equals the tile "
                 "size, a divisor of the warp size");
  if (tileSize < 1 || warpSize < 1 || tileSize > warpSize || warpSize % tileSize != 0)
    maxLocal.fail("tile size " + str(tileSize) + " is not a sub-group size of a " + str(warpSize) +
                  "-thread warp");
  for (const auto* p : valid)
    if (p->maxLocalRange != tileSize)
      maxLocal.fail(at(*p) + ": max local range " + str(p->maxLocalRange) + ", tile size " +
                    str(tileSize));
  return maxLocal.done();
}

// Per block: the group ranges its items report. Per group: the local ranges and ids.
struct Tally {
  std::map<std::int32_t, std::set<std::int32_t>> blockRanges;
  std::map<std::int32_t, std::set<std::int32_t>> blockGroupIds;
  std::map<GroupKey, std::set<std::int32_t>> groupSizes;
  std::map<GroupKey, std::map<std::int32_t, int>> groupLocalIds;
  std::map<GroupKey, bool> groupIncomplete;
  std::set<std::int64_t> incompleteBlocks;  // an entry of the block was not written right
  std::int64_t perBlock = 0;
  std::int64_t blocks = 0;
};

Tally tally(const std::vector<const SubgroupRecord*>& valid) {
  Tally t;
  for (const auto* p : valid) {
    const auto& r = *p;
    const GroupKey key{r.blockLinearId, r.groupId};
    t.blockRanges[r.blockLinearId].insert(r.groupRange);
    t.blockGroupIds[r.blockLinearId].insert(r.groupId);
    t.groupSizes[key].insert(r.localRange);
    ++t.groupLocalIds[key][r.localId];
    t.groupIncomplete[key] = t.groupIncomplete[key] || r.localRange < r.maxLocalRange;
  }
  return t;
}

ConformanceCheck groupCountCheck(const Tally& t) {
  Check groupCount("group_count_per_block",
                   "all items of a block report the same group range (number of tiles)");
  for (const auto& [block, ranges] : t.blockRanges)
    if (ranges.size() != 1)
      groupCount.fail("block " + str(block) + ": group ranges " + joined(ranges));
  return groupCount.done();
}

ConformanceCheck groupIdsCheck(Tally& t) {
  Check groupIds("group_ids_present",
                 "in every block each group id 0 .. group range - 1 occurs at least once");
  for (std::int32_t block = 0; block < t.blocks; ++block) {
    const auto& ranges = t.blockRanges[block];
    if (t.incompleteBlocks.count(block) != 0 || ranges.size() != 1) {
      groupIds.notJudged();
      continue;
    }
    const std::int32_t count = *ranges.begin();
    if (count > t.perBlock) {
      groupIds.fail("block " + str(block) + ": group range " + str(count) + " exceeds its " +
                    str(t.perBlock) + " threads");
      continue;
    }
    const auto& seen = t.blockGroupIds[block];
    for (std::int32_t g = 0; g < count; ++g)
      if (seen.count(g) == 0)
        groupIds.fail("block " + str(block) + ": group id " + str(g) + " missing (group range " +
                      str(count) + ")");
  }
  return groupIds.done();
}

ConformanceCheck groupSizeCheck(const Tally& t) {
  Check groupSize("group_size_per_group",
                  "all items of a group (block, group id) report the same local range");
  for (const auto& [key, sizes] : t.groupSizes)
    if (sizes.size() != 1)
      groupSize.fail("block " + str(key.first) + " group " + str(key.second) + ": local ranges " +
                     joined(sizes));
  return groupSize.done();
}

ConformanceCheck localIdsCheck(Tally& t) {
  Check localIds("local_ids_once",
                 "in every group each local id 0 .. local range - 1 occurs exactly once");
  for (const auto& [key, ids] : t.groupLocalIds) {
    const auto& sizes = t.groupSizes[key];
    if (t.incompleteBlocks.count(key.first) != 0 || sizes.size() != 1) {
      localIds.notJudged();
      continue;
    }
    const std::int32_t size = *sizes.begin();
    const std::string group = "block " + str(key.first) + " group " + str(key.second);
    if (size > t.perBlock) {
      localIds.fail(group + ": local range " + str(size) + " exceeds the " + str(t.perBlock) +
                    " threads of a block");
      continue;
    }
    for (std::int32_t k = 0; k < size; ++k) {
      const auto it = ids.find(k);
      const int n = it == ids.end() ? 0 : it->second;
      if (n != 1)
        localIds.fail(group + ": local id " + str(k) + " occurs " + str(n) +
                      " times (local range " + str(size) + ")");
    }
  }
  return localIds.done();
}

}  // namespace

SubgroupRun checkSubgroupRecords(const std::vector<SubgroupRecord>& records,
                                 const SubgroupLaunch& launch, int tileSize, int warpSize) {
  const std::int64_t perBlock = launch.threadsPerBlock();
  if (perBlock < 1 || launch.blocks() < 1)
    throw InputError("conformance launch has an empty block or grid");
  if (std::int64_t(records.size()) != launch.items())
    throw InputError("conformance list holds " + str(std::int64_t(records.size())) +
                     " entries; the launch has " + str(launch.items()) + " threads");

  SubgroupRun run;
  run.tileSize = tileSize;
  run.launch = launch;
  run.items = launch.items();

  Check written("all_written",
                "every entry of the list was written, by the thread it belongs to (the list "
                "starts as -1 in every field)");
  std::set<std::int64_t> incomplete;
  const auto valid = writtenEntries(records, perBlock, written, incomplete);
  Tally t = tally(valid);
  t.incompleteBlocks = std::move(incomplete);
  t.perBlock = perBlock;
  t.blocks = launch.blocks();
  run.tiles = std::int64_t(t.groupIncomplete.size());
  for (const auto& [key, partial] : t.groupIncomplete) run.incompleteTiles += partial ? 1 : 0;

  // The plan's order: the per-item bullets, then the bullets over the whole list.
  run.checks = itemChecks(valid);
  run.checks.push_back(maxLocalCheck(valid, tileSize, warpSize));
  run.checks.push_back(written.done());
  run.checks.push_back(groupCountCheck(t));
  run.checks.push_back(groupIdsCheck(t));
  run.checks.push_back(groupSizeCheck(t));
  run.checks.push_back(localIdsCheck(t));
  return run;
}

}  // namespace kwb
