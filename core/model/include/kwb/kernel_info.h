// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a results document says about each kernel it ran, so a reader needs no copy of the
// registry to name, order or group them (docs/RESULTS.md, "kernels").
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

struct KernelDescriptor;

// Where a stage is known to be slower than the stage before it, and why: a trade the stage
// makes on purpose (a deterministic sum) or a limit measured and written down (too few warps
// to hide its load latency at small shapes). A progression violation on a case the note covers
// is reported with the note as its explanation; it is never dropped.
struct ProgressionNote {
  std::string why;
  double maxFlops = 0.0;       // covers cases of at most this many FLOPs (GEMM 2mnk); 0: any size
  bool unalignedOnly = false;  // covers only GEMM shapes whose K or N is not a multiple of 4
  std::int64_t maxCount = 0;   // 1-D families: covers counts up to this many elements; 0: any
  // Any family: covers only sizes whose number axis `axis` is at least `axisMin` ("bins", 257),
  // and only sizes that have the word `word` on some axis ("f32", "zipf"); empty: any.
  std::string axis = {};
  std::int64_t axisMin = 0;
  std::string word = {};

  friend bool operator==(const ProgressionNote&, const ProgressionNote&) = default;
};

struct KernelInfo {
  std::string id;                // "sgemm.bank_free"
  std::string name;              // "Bank-conflict-free"
  std::string family;            // "sgemm", "cublas"
  int stage = 0;                 // order within the family; references use 0
  std::string precision;         // "fp32", "fp16-fp32acc", "tf32" (text: a newer kind still reads)
  bool reference = false;        // a cuBLAS reference, not a stage of the progression
  std::string description;       // one line
  bool tunable = false;          // `kwb tune` has configurations of it
  std::string problem = "gemm";  // the problem family: "gemm", "reduce", "scan"
  std::vector<ProgressionNote> progressionNotes = {};  // known, explained slowdowns

  friend bool operator==(const KernelInfo&, const KernelInfo&) = default;
};

// The document's view of a registered kernel.
KernelInfo kernelInfo(const KernelDescriptor& d);

// The entry of a kernel id found in a document that has no "kernels" list: from the table of
// the ids older versions of kwb wrote (core/model/src/kernel_compat.cpp), else derived from the id
// (the id as its name, the family from its prefix). A tuning configuration's id,
// "sgemm.warp_tiled[cfg]", gets its kernel's entry under its own id.
KernelInfo legacyKernelInfo(std::string_view id);

// The kernel id without a tuning configuration's "[...]" suffix.
std::string_view baseKernelId(std::string_view id);

}  // namespace kwb
