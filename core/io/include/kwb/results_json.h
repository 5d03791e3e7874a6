// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string_view>
#include <vector>
// nlohmann-json bindings of the results model, shared by the document and the event stream.
#include <nlohmann/json.hpp>

#include "kwb/results.h"
#include "kwb/size_json.h"

namespace kwb {

void to_json(nlohmann::json& j, const Shape& v);
void from_json(const nlohmann::json& j, Shape& v);
void to_json(nlohmann::json& j, const DeviceInfo& v);
void from_json(const nlohmann::json& j, DeviceInfo& v);
void to_json(nlohmann::json& j, const KernelInfo& v);
void from_json(const nlohmann::json& j, KernelInfo& v);
// A CUPTI kernel record of a case: {"name", "perLaunch", "medianMs"} (docs/RESULTS.md).
void to_json(nlohmann::json& j, const KernelRecord& v);
void from_json(const nlohmann::json& j, KernelRecord& v);
void to_json(nlohmann::json& j, const CaseResult& v);
void from_json(const nlohmann::json& j, CaseResult& v);
void to_json(nlohmann::json& j, const RunSettings& v);
void from_json(const nlohmann::json& j, RunSettings& v);
void to_json(nlohmann::json& j, const KnownAnswer& v);
void from_json(const nlohmann::json& j, KnownAnswer& v);
void to_json(nlohmann::json& j, const ProgressionCheck& v);
void from_json(const nlohmann::json& j, ProgressionCheck& v);
void to_json(nlohmann::json& j, const LaunchOverhead& v);
void from_json(const nlohmann::json& j, LaunchOverhead& v);
void to_json(nlohmann::json& j, const RunDocument& v);
void from_json(const nlohmann::json& j, RunDocument& v);

// A document's devices, shard and merge (schema 7; core/io/src/shard_json.cpp): `devices`, a
// shard's `shard` {index, count, planHash, plan} and a merge's `merged` {count, planHash,
// shards}. The reader checks every case's device index against the list.
void writeScaleOut(nlohmann::json& j, const RunDocument& v);
void readScaleOut(const nlohmann::json& j, RunDocument& v);

// Replaces every NaN and ±Inf in `j` by the strings "NaN", "Infinity", "-Infinity", which the
// readers take back (nlohmann would write null, losing which it was). Called before writing.
void encodeNonFinite(nlohmann::json& j);

// `kwb list --json`, read back: the registered kernels of an engine. Throws InputError naming
// `source` on malformed text.
std::vector<KernelInfo> parseKernelList(std::string_view text, std::string_view source);

}  // namespace kwb
