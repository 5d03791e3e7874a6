// SPDX-License-Identifier: Apache-2.0
// A compiled user kernel as a KernelDescriptor: LaunchFn is a plain function pointer, so each
// loaded kernel gets a slot in a fixed table and a launcher instantiated for that slot.
// Driver calls go through cudaGetDriverEntryPointByVersion, so kwb does not link libcuda
// (kwb compile must start on a machine without a driver).
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <array>
#include <memory>
#include <mutex>
#include <utility>

#include "kwb/cuda/check.h"
#include "kwb/cuda/user_kernel.h"

namespace kwb::cuda {
namespace {

constexpr int kSlots = 8;

struct Driver {
  CUresult (*moduleLoadData)(CUmodule*, const void*) = nullptr;
  CUresult (*moduleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*funcSetAttribute)(CUfunction, CUfunction_attribute, int) = nullptr;
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, CUstream, void**, void**) = nullptr;
  CUresult (*getErrorString)(CUresult, const char**) = nullptr;
};

template <class F>
void entry(const char* name, F& fn) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q{};
  KWB_CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || !p)
    throw CudaError(std::string("driver entry point ") + name + " not found", 0, false);
  fn = reinterpret_cast<F>(p);
}

const Driver& driver() {
  static const Driver d = [] {
    Driver r;
    entry("cuModuleLoadData", r.moduleLoadData);
    entry("cuModuleGetFunction", r.moduleGetFunction);
    entry("cuFuncSetAttribute", r.funcSetAttribute);
    entry("cuLaunchKernel", r.launchKernel);
    entry("cuGetErrorString", r.getErrorString);
    return r;
  }();
  return d;
}

void check(CUresult r, const char* what, const std::string& id) {
  if (r == CUDA_SUCCESS) return;
  const char* text = "unknown";
  driver().getErrorString(r, &text);
  // Same codes as the runtime's for the sticky faults (700 illegal address, 719 launch failure).
  throw CudaError(id + ": " + what + ": " + text + " (CUresult " + std::to_string(int(r)) + ")",
                  int(r), isStickyError(static_cast<cudaError_t>(r)));
}

struct Slot {
  CompiledUserKernel kernel;
  std::string id;
  CUfunction fn = nullptr;
  // How a failed driver call names the kernel: its id and the user's file.
  std::string who() const { return id + " (" + kernel.source.path + ")"; }
};
std::array<std::unique_ptr<Slot>, kSlots> g_slots;
std::mutex g_mutex;

// The grid: the author's expression with this shape's M, N, K, else ceil(N/tileN) × ceil(M/tileM).
std::array<unsigned, 3> gridFor(const UserLaunchSpec& sp, int m, int n, int k) {
  if (!sp.grid)
    return {unsigned((n + sp.tile->x - 1) / sp.tile->x),
            unsigned((m + sp.tile->y - 1) / sp.tile->y), 1};
  try {
    const auto g = evaluateDims(*sp.grid, {{{"M", m}, {"N", n}, {"K", k}}, &sp.defines});
    return {unsigned(g[0]), unsigned(g[1]), unsigned(g[2])};
  } catch (const InputError& e) {  // this shape's case is an error; the run goes on
    throw CudaError(e.what(), int(cudaErrorInvalidConfiguration), false);
  }
}

LaunchInfo launchUser(int slot, const GemmArgs& g) {
  Slot& s = *g_slots[std::size_t(slot)];
  const Driver& d = driver();
  if (!s.fn) {
    KWB_CUDA_CHECK(cudaFree(nullptr));  // the runtime's primary context is current
    CUmodule mod = nullptr;
    const std::string& image = s.kernel.image.empty() ? s.kernel.ptx : s.kernel.image;
    check(d.moduleLoadData(&mod, image.data()), "cuModuleLoadData", s.who());
    check(d.moduleGetFunction(&s.fn, mod, s.kernel.ptxEntry.c_str()), "cuModuleGetFunction",
          s.who());
    if (*s.kernel.spec.smemBytes > 48 * 1024)
      check(d.funcSetAttribute(s.fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               *s.kernel.spec.smemBytes),
            "cuFuncSetAttribute(max dynamic shared memory)", s.who());
  }
  const UserLaunchSpec& sp = s.kernel.spec;
  int m = int(g.shape.m), n = int(g.shape.n), k = int(g.shape.k);
  float alpha = g.alpha, beta = g.beta;
  const bool half = sp.precision == Precision::kFp16Fp32Acc;
  const void* a = half ? g.aHalf : static_cast<const void*>(g.a);
  const void* b = half ? g.bHalf : static_cast<const void*>(g.b);
  float* c = g.c;
  void* params[] = {&m, &n, &k, &alpha, &a, &b, &beta, &c};
  const auto grid = gridFor(sp, m, n, k);
  check(
      d.launchKernel(s.fn, grid[0], grid[1], grid[2], unsigned(sp.block->x), unsigned(sp.block->y),
                     1, unsigned(*sp.smemBytes), g.stream, params, nullptr),
      "cuLaunchKernel", s.who());
  return {false, {}};
}

template <int I>
LaunchInfo launchSlot(const GemmArgs& g) {
  return launchUser(I, g);
}

template <std::size_t... I>
constexpr std::array<LaunchFn, kSlots> launchers(std::index_sequence<I...>) {
  return {&launchSlot<int(I)>...};
}
constexpr auto kLaunchers = launchers(std::make_index_sequence<kSlots>());

}  // namespace

KernelDescriptor makeUserKernel(const CompiledUserKernel& k, const std::string& idSuffix) {
  std::lock_guard lock(g_mutex);
  const std::string id = "user." + k.source.stem + idSuffix;
  std::size_t i = 0;
  while (i < kSlots && g_slots[i] && g_slots[i]->id != id) ++i;
  if (i == kSlots) throw InputError("at most " + std::to_string(kSlots) + " user kernels per run");
  g_slots[i] = std::make_unique<Slot>(Slot{k, id, nullptr});
  KernelDescriptor d;
  d.id = id;
  d.displayName = k.source.stem + " (user)";
  d.family = "user";
  d.stage = 0;
  d.precision = *k.spec.precision;
  d.description = k.source.path + " entry " + *k.spec.entry + " block " +
                  std::to_string(k.spec.block->x) + "x" + std::to_string(k.spec.block->y) +
                  (k.spec.grid ? " grid " + k.spec.grid->text
                               : " tile " + std::to_string(k.spec.tile->x) + "x" +
                                     std::to_string(k.spec.tile->y)) +
                  " source " + k.hash;
  d.launch = kLaunchers[i];
  return d;
}

const CompiledUserKernel* findUserKernel(const std::string& id) {
  std::lock_guard lock(g_mutex);
  for (const auto& s : g_slots)
    if (s && s->id == id) return &s->kernel;
  return nullptr;
}

}  // namespace kwb::cuda
