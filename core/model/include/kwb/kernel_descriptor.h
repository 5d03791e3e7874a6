// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <any>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kwb/kernel_info.h"
#include "kwb/shape.h"

// Opaque CUDA handles, so core headers stay free of CUDA includes.
struct CUstream_st;
struct cublasContext;

namespace kwb {

enum class Precision {
  kFp32,         // FP32 in, FP32 out
  kFp16Fp32Acc,  // FP16 in, FP32 accumulate and out
  kTf32,         // FP32 storage, TF32 tensor-core math
  kBf16Fp32Acc,  // BF16 in, FP32 accumulate and out
};
std::string_view toString(Precision p);
Precision parsePrecision(std::string_view text);  // throws InputError
// Bytes of one element of A and B as the kernel reads them: 2 for FP16 and BF16 inputs.
int inputElementBytes(Precision p);
// The cuBLAS reference of the same input precision, which a stage's speed is also held to:
// cublas.hgemm_f32acc for FP16 inputs, cublas.bgemm_f32acc for BF16; empty for FP32 and TF32
// (their reference is cublas.sgemm, which every GEMM stage is held to).
std::string_view tensorReferenceOf(Precision p);

// Everything a launcher needs. Row-major; the pipeline owns every buffer.
// FP16 copies of A and B exist for kFp16Fp32Acc kernels, BF16 copies for kBf16Fp32Acc ones;
// the others ignore them.
struct GemmArgs {
  Shape shape;
  float alpha = 1.0f;
  float beta = 0.0f;
  const float* a = nullptr;
  const float* b = nullptr;
  const void* aHalf = nullptr;  // __half*, M×K
  const void* bHalf = nullptr;  // __half*, K×N
  const void* aBf16 = nullptr;  // __nv_bfloat16*, M×K
  const void* bBf16 = nullptr;  // __nv_bfloat16*, K×N
  float* c = nullptr;
  CUstream_st* stream = nullptr;
  cublasContext* cublas = nullptr;  // set for references; bound to `stream`
};

// What a launch actually did: the tensor-core stage may run its FP32 fallback.
struct LaunchInfo {
  bool fallback = false;
  std::string_view ranKernel;  // id or short name of the code that ran
};

// Launches asynchronously on args.stream; never synchronises, never times.
// Reports launch errors by throwing CudaError (core/cuda).
using LaunchFn = LaunchInfo (*)(const GemmArgs& args);

// The 1-D families' launcher and scratch size (kwb/vector_args.h).
struct VectorArgs;
enum class ElementType;
using VectorLaunchFn = LaunchInfo (*)(const VectorArgs& args);
using ScratchBytesFn = std::size_t (*)(std::int64_t count, ElementType type);

struct KernelDescriptor {
  std::string id;           // stable, "family.stage": "sgemm.bank_free"
  std::string displayName;  // "Bank-conflict-free"
  std::string family;       // id prefix and stage numbering: "sgemm", "cublas", "reduce", "cub"
  std::string problem = "gemm";  // the problem family: "gemm", "reduce", "scan", ...
  int stage = 0;                 // order within the family; references use 0
  Precision precision = Precision::kFp32;
  int alignment = 1;       // every dimension must be a multiple of this for the fast path
  bool reference = false;  // a cuBLAS reference, not a stage of the progression
  std::string description;
  bool tunable = false;  // `kwb tune` has compile-time configurations of it
  // The FLOP/s a run of it typically reaches on a current data-centre GPU where that is far from
  // its precision's nominal rate (kwb/shard_cost.h): it only balances shards. 0: the nominal rate.
  double typicalFlopsPerS = 0;
  LaunchFn launch = nullptr;              // problem "gemm"
  VectorLaunchFn launchVector = nullptr;  // problems "reduce" and "scan"
  ScratchBytesFn scratchBytes = nullptr;  // with launchVector; null: no scratch
  // Any other family's launcher (and its scratch function, where it needs one), of a type its
  // family's driver defines: core never learns a new family's argument types. The driver reads
  // it with cuda::launcherOf<T>(k) (kwb/cuda/family_driver.h), which names the kernel when it
  // holds another type.
  std::any launcher = {};
  // Where this stage is measured slower than the one before it, and why (kwb/kernel_info.h).
  std::vector<ProgressionNote> progressionNotes = {};

  // Verification tolerances (docs/VALIDATION.md): FP32 stages rtol 1e-3 atol 1e-4; FP16 / BF16
  // / TF32 math 5e-2 / 1e-2. BF16 keeps 8 significant bits to FP16's 11, yet needs no wider
  // tolerance: the pipeline gives a BF16 stage inputs that are exact in BF16 (its FP32 A and B,
  // and so the reference, are the seeded values rounded to BF16), a product of two 8-bit
  // significands is exact in FP32's 24, and so, as with FP16, the only error left is the FP32
  // accumulation the tensor-core tolerance was set for.
  double rtol() const { return precision == Precision::kFp32 ? 1e-3 : 5e-2; }
  double atol() const { return precision == Precision::kFp32 ? 1e-4 : 1e-2; }
};

// The kernels a build knows, in family and stage order.
class KernelRegistry {
 public:
  explicit KernelRegistry(std::vector<KernelDescriptor> kernels);
  std::span<const KernelDescriptor> all() const { return m_kernels; }
  // Throws InputError naming the id and listing the known ids.
  const KernelDescriptor& find(std::string_view id) const;
  const KernelDescriptor* tryFind(std::string_view id) const;
  // Comma-separated ids, or "all", "stages", "references"; throws on an unknown id.
  std::vector<const KernelDescriptor*> select(std::string_view list) const;
  std::string knownIds() const;

 private:
  std::vector<KernelDescriptor> m_kernels;
};

}  // namespace kwb
