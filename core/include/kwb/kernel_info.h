#pragma once
// What a results document says about each kernel it ran, so a reader needs no copy of the
// registry to name, order or group them (docs/RESULTS.md, "kernels").
#include <string>
#include <string_view>
#include <vector>

namespace kwb {

struct KernelDescriptor;

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

  friend bool operator==(const KernelInfo&, const KernelInfo&) = default;
};

// The document's view of a registered kernel.
KernelInfo kernelInfo(const KernelDescriptor& d);

// The entry of a kernel id found in a document that has no "kernels" list: from the table of
// the ids older versions of kwb wrote (core/src/kernel_compat.cpp), else derived from the id
// (the id as its name, the family from its prefix). A tuning configuration's id,
// "sgemm.warp_tiled[cfg]", gets its kernel's entry under its own id.
KernelInfo legacyKernelInfo(std::string_view id);

// The kernel id without a tuning configuration's "[...]" suffix.
std::string_view baseKernelId(std::string_view id);

// `kwb list --json`, read back: the registered kernels of an engine. Throws InputError naming
// `source` on malformed text.
std::vector<KernelInfo> parseKernelList(std::string_view text, std::string_view source);

}  // namespace kwb
