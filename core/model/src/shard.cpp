// SPDX-License-Identifier: Apache-2.0
#include "kwb/shard.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "kwb/error.h"

namespace kwb {
namespace {

bool parseInt(std::string_view t, int& out) {
  const char* end = t.data() + t.size();
  const auto [ptr, ec] = std::from_chars(t.data(), end, out);
  return !t.empty() && ec == std::errc() && ptr == end;
}

}  // namespace

ShardSpec parseShard(std::string_view text) {
  const std::string shown(text.substr(0, 40));
  const std::string rule = "a shard is I/N with 1 <= I <= N <= " + std::to_string(kMaxShards) +
                           " (--shard 1/4 .. --shard 4/4)";
  const std::size_t slash = text.find('/');
  ShardSpec s;
  if (slash == std::string_view::npos || !parseInt(text.substr(0, slash), s.index) ||
      !parseInt(text.substr(slash + 1), s.count))
    throw InputError("--shard '" + shown + "' is not I/N: " + rule);
  if (s.count < 1 || s.count > kMaxShards || s.index < 1 || s.index > s.count)
    throw InputError("--shard '" + shown + "' is out of range: " + rule);
  return s;
}

std::string toString(const ShardSpec& s) {
  return std::to_string(s.index) + "/" + std::to_string(s.count);
}

bool MergeInfo::complete() const {
  return std::all_of(shards.begin(), shards.end(),
                     [](const MergedShard& s) { return s.state == "merged"; });
}

std::string planHash(std::string_view canonicalText) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char ch : canonicalText) {
    h ^= std::uint8_t(ch);
    h *= 0x100000001b3ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::vector<int> partitionByCost(const std::vector<double>& groupCosts, int count) {
  if (count < 1) throw InputError("a plan needs at least one shard");
  const auto cost = [&](std::size_t i) {
    const double c = groupCosts[i];
    return std::isfinite(c) && c > 0 ? c : 0.0;
  };
  std::vector<std::size_t> order(groupCosts.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Costliest first; equal costs in plan order, so the result never depends on the sort.
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return cost(a) > cost(b); });
  std::vector<double> load(std::size_t(count), 0.0);
  std::vector<int> groups(std::size_t(count), 0);
  std::vector<int> part(groupCosts.size(), 0);
  for (const std::size_t g : order) {
    // The least cost so far; of equal costs the fewest groups, then the lowest part.
    std::size_t least = 0;
    for (std::size_t p = 1; p < load.size(); ++p)
      if (load[p] < load[least] || (load[p] == load[least] && groups[p] < groups[least])) least = p;
    part[g] = int(least);
    load[least] += cost(g);
    ++groups[least];
  }
  return part;
}

}  // namespace kwb
