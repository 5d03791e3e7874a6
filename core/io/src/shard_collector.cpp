// SPDX-License-Identifier: Apache-2.0
#include "kwb/shard_collector.h"

#include <algorithm>

#include "kwb/error.h"

namespace kwb {
namespace {

std::string partText(int index, int count) {
  return "shard " + std::to_string(index) + "/" + std::to_string(count);
}

}  // namespace

ShardCollector::ShardCollector(int count) : m_count(count) {}

const ShardInput* ShardCollector::find(int index, bool document) const {
  for (const ShardInput& in : m_inputs)
    if (in.spec().index == index && in.document.has_value() == document) return &in;
  return nullptr;
}

bool ShardCollector::hasDocument(int index) const { return find(index, true) != nullptr; }
bool ShardCollector::hasFailure(int index) const { return find(index, false) != nullptr; }

bool ShardCollector::allIn() const {
  for (int i = 1; i <= m_count; ++i)
    if (!hasDocument(i) && !hasFailure(i)) return false;
  return true;
}

std::string ShardCollector::add(ShardInput input) {
  const ShardSpec s = input.spec();
  if (s.count != m_count || s.index < 1 || s.index > s.count)
    return "'" + input.source + "' is " + partText(s.index, s.count) + ", not one of the job's " +
           std::to_string(m_count) + " parts: refused";
  if (const ShardInput* doc = find(s.index, true))
    return "'" + input.source + "' is refused: " + partText(s.index, m_count) +
           " is already merged from '" + doc->source + "'" +
           (input.document ? " (a duplicated shard)" : " (its document outlives the failure)");
  std::vector<ShardInput> next = m_inputs;
  // A part's record is replaced by its document, or by a newer record.
  next.erase(std::remove_if(next.begin(), next.end(),
                            [&](const ShardInput& in) { return in.spec().index == s.index; }),
             next.end());
  next.push_back(std::move(input));
  try {
    MergeOutcome merged = mergeShards(next, m_count);
    m_inputs = std::move(next);
    m_merged = std::move(merged);
  } catch (const InputError& e) {
    return std::string(e.what()) + ": '" + next.back().source + "' is refused";
  }
  return {};
}

std::string ShardCollector::addText(std::string_view text, const std::string& source) {
  try {
    return add(parseShardInput(text, source));
  } catch (const InputError& e) {
    return e.what();
  }
}

}  // namespace kwb
