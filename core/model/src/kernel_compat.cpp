// SPDX-License-Identifier: Apache-2.0
// Kernel entries for results documents written before documents listed their kernels
// (schema 1 and 2). The ids below are every id those versions of kwb registered; their
// names, stages and descriptions are the ones the registry gave them then. Newer documents
// carry their own entries and never come here.
#include <array>

#include "kwb/kernel_info.h"
#include "kwb/run_document.h"

namespace kwb {
namespace {

struct LegacyEntry {
  const char* id;
  const char* name;
  int stage;
  const char* precision;
  const char* description;
};

constexpr std::array kLegacy = {
    LegacyEntry{"sgemm.naive", "Naive", 1, "fp32",
                "One thread per element of C, operands from global memory"},
    LegacyEntry{"sgemm.tiled", "Shared-memory tiled", 2, "fp32",
                "64x64x32 shared-memory tiles, 4x4 register micro-tiles (A loads conflict)"},
    LegacyEntry{"sgemm.bank_free", "Bank-conflict-free", 3, "fp32",
                "sgemm.tiled with A's shared tile padded to a 36-word pitch"},
    LegacyEntry{"sgemm.double_buffer", "Double-buffered", 4, "fp32",
                "sgemm.bank_free with two shared stages filled by cp.async"},
    LegacyEntry{"sgemm.tensor_core", "Tensor core (WMMA)", 5, "fp16-fp32acc",
                "WMMA 16x16x16, FP16 in, FP32 accumulate"},
    LegacyEntry{"sgemm.register_blocked", "Register blocked", 6, "fp32",
                "128x128x8 block tile, 8x8 outputs per thread in registers"},
    LegacyEntry{"sgemm.warp_tiled", "Warp tiled", 7, "fp32",
                "128x128x16 block tile, 4 warps of 64x64, double-buffered shared memory"},
    LegacyEntry{"sgemm.mma_multistage", "mma.sync multistage", 8, "fp16-fp32acc",
                "mma.sync m16n8k16 FP16 in / FP32 accumulate, 4-stage cp.async pipeline"},
    LegacyEntry{"sgemm.wgmma", "wgmma + TMA (Hopper)", 9, "fp16-fp32acc",
                "Hopper wgmma FP16 in / FP32 accumulate, TMA-fed 4-stage ring"},
    LegacyEntry{"cublas.sgemm", "cuBLAS SGEMM", 0, "fp32", "cublasSgemm, FP32"},
    LegacyEntry{"cublas.hgemm_f32acc", "cuBLAS FP16 (FP32 acc)", 0, "fp16-fp32acc",
                "cublasGemmEx, FP16 in, FP32 accumulate and out: the tensor-core roof"},
    LegacyEntry{"cublas.tf32", "cuBLAS TF32", 0, "tf32",
                "cublasGemmEx, FP32 storage, CUBLAS_COMPUTE_32F_FAST_TF32"},
};

// Tunable in those versions: `kwb tune` swept these two.
bool legacyTunable(std::string_view id) {
  return id == "sgemm.warp_tiled" || id == "sgemm.mma_multistage";
}

}  // namespace

std::string_view baseKernelId(std::string_view id) {
  if (const auto open = id.find('['); open != id.npos && id.ends_with(']'))
    return id.substr(0, open);
  return id;
}

KernelInfo legacyKernelInfo(std::string_view id) {
  const std::string_view base = baseKernelId(id);
  KernelInfo k;
  k.id = std::string(id);
  for (const auto& e : kLegacy)
    if (base == e.id) {
      k.name = e.name;
      k.family = std::string(base.substr(0, base.find('.')));
      k.stage = e.stage;
      k.precision = e.precision;
      k.reference = k.family == "cublas";
      k.description = e.description;
      k.tunable = legacyTunable(base);
      if (base != id) k.name.append(1, ' ').append(id.substr(base.size()));
      return k;
    }
  // Unknown: nothing but the id is known.
  k.name = std::string(id);
  const auto dot = base.find('.');
  k.family = std::string(dot == base.npos ? base : base.substr(0, dot));
  return k;
}

const KernelInfo* RunDocument::kernelInfo(std::string_view id) const {
  for (const std::string_view want : {id, baseKernelId(id)})
    for (const auto& k : kernels)
      if (k.id == want) return &k;
  return nullptr;
}

void listKernelIfMissing(RunDocument& doc, std::string_view id, std::string_view precision) {
  if (doc.kernelInfo(id)) return;
  KernelInfo k = legacyKernelInfo(baseKernelId(id));
  if (k.precision.empty()) k.precision = std::string(precision);
  doc.kernels.push_back(std::move(k));
}

void listMissingKernels(RunDocument& doc) {
  for (const auto& c : doc.cases) listKernelIfMissing(doc, c.kernel, toString(c.precision));
  if (doc.tuning) listKernelIfMissing(doc, doc.tuning->kernel);
}

}  // namespace kwb
