// SPDX-License-Identifier: Apache-2.0
#pragma once
// Shard documents and failure records taken one at a time, as they arrive from a running job
// (the GUI's Slurm target, docs/SCALE_OUT.md), and merged with kwb merge's own mergeShards after
// each one: the parts not in yet are holes in the partial document, never filled.
#include <string>
#include <string_view>
#include <vector>

#include "kwb/merge.h"

namespace kwb {

class ShardCollector {
 public:
  // A plan of `count` parts.
  explicit ShardCollector(int count);

  // Takes one input. Empty when it was merged; else the reason it was refused, naming its
  // source: another plan or number of parts, or a second document of a part already merged.
  // A document of a part whose failure record is in supersedes the record (the shard ran again);
  // a failure record of a part whose document is in is refused; a newer record replaces an older.
  std::string add(ShardInput input);
  // The same for a file's text: an unreadable or truncated file is refused with parse's reason.
  std::string addText(std::string_view text, const std::string& source);

  // The merge of everything accepted (mergeShards over `count` parts); an empty document until
  // the first input is accepted.
  const MergeOutcome& merged() const { return m_merged; }
  int count() const { return m_count; }
  // Shard `index` (1-based) has its document / its failure record in.
  bool hasDocument(int index) const;
  bool hasFailure(int index) const;
  // Every part has its document or a failure record.
  bool allIn() const;

 private:
  const ShardInput* find(int index, bool document) const;

  int m_count;
  std::vector<ShardInput> m_inputs;
  MergeOutcome m_merged;
};

}  // namespace kwb
