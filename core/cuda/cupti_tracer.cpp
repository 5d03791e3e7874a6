// SPDX-License-Identifier: Apache-2.0
#include "kwb/cuda/cupti_tracer.h"

#include <cuda_runtime_api.h>
#include <cupti.h>
#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <utility>

namespace kwb::cuda {
namespace {

constexpr std::size_t kBufferBytes = 4u << 20;

// A launch is whatever it enqueues: a reduction that clears its output with cudaMemsetAsync
// before its kernel spends that memset's GPU time too, so CUPTI's sum counts it.
constexpr std::pair<CUpti_ActivityKind, const char*> kRecordedKinds[] = {
    {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "cuptiActivityEnable(CONCURRENT_KERNEL)"},
    {CUPTI_ACTIVITY_KIND_MEMSET, "cuptiActivityEnable(MEMSET)"},
    {CUPTI_ACTIVITY_KIND_MEMCPY, "cuptiActivityEnable(MEMCPY)"},
};

std::mutex g_mutex;
std::vector<KernelActivity> g_records;  // completed records not yet taken
bool g_active = false;                  // one tracer at a time
bool g_callbacksRegistered = false;

std::string demangle(const char* name) {
  if (name == nullptr) return "?";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name, nullptr, nullptr, &status),
                                             std::free);
  return shortKernelName(status == 0 && out ? out.get() : name);
}

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* maxRecords) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *maxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t validSize) {
  std::vector<KernelActivity> got;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS) {
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      case CUPTI_ACTIVITY_KIND_KERNEL: {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        got.push_back({demangle(k->name), k->start, k->end, k->contextId, k->streamId});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        got.push_back({std::string(kMemsetName), m->start, m->end, m->contextId, m->streamId});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        got.push_back({std::string(kMemcpyName), m->start, m->end, m->contextId, m->streamId});
        break;
      }
      default:
        break;
    }
  }
  std::free(buffer);
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (g_active) g_records.insert(g_records.end(), got.begin(), got.end());
}

std::string resultText(CUptiResult r) {
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  return text ? text : "CUPTI error " + std::to_string(int(r));
}

void check(CUptiResult r, const char* what) {
  if (r != CUPTI_SUCCESS) throw CuptiUnavailable(std::string(what) + ": " + resultText(r));
}

bool isTimerKernel(const std::string& name) {
  return name.find("kwb::cuda::") != std::string::npos &&
         name.find("blockingKernel") != std::string::npos;
}

}  // namespace

StreamIdentity cuptiStreamIdentity(CUstream_st* stream) {
  // The stream's context through the driver's entry point (kwb links the runtime only).
  using GetCtx = CUresult (*)(CUstream, CUcontext*);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion("cuStreamGetCtx", &fn, 12000, cudaEnableDefault, &found) !=
          cudaSuccess ||
      fn == nullptr)
    throw CuptiUnavailable("cuStreamGetCtx is not available");
  CUcontext ctx = nullptr;
  if (reinterpret_cast<GetCtx>(fn)(stream, &ctx) != CUDA_SUCCESS)
    throw CuptiUnavailable("cuStreamGetCtx failed");
  StreamIdentity id;
  check(cuptiGetContextId(ctx, &id.contextId), "cuptiGetContextId");
  check(cuptiGetStreamIdEx(nullptr, stream, 0, &id.streamId), "cuptiGetStreamIdEx");
  return id;
}

std::vector<std::string> recordsOutside(const std::vector<KernelActivity>& records,
                                        StreamIdentity timed) {
  std::vector<std::string> out;
  for (const KernelActivity& k : records) {
    std::string where;
    if (k.contextId != timed.contextId)
      where = k.name + " (context " + std::to_string(k.contextId) + ")";
    else if (k.streamId != timed.streamId)
      where = k.name + " (stream " + std::to_string(k.streamId) + ")";
    if (!where.empty() && std::find(out.begin(), out.end(), where) == out.end())
      out.push_back(std::move(where));
  }
  return out;
}

std::string shortKernelName(const std::string& demangled) {
  std::string s = demangled;
  if (s.rfind("void ", 0) == 0) s.erase(0, 5);
  // Cut at the parameter list: the first '(' outside template brackets that does not open
  // "(anonymous namespace)".
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    if (s[i] == '>' && depth > 0) --depth;
    if (s[i] == '(' && depth == 0 && s.compare(i, 21, "(anonymous namespace)") != 0)
      return s.substr(0, i);
  }
  return s;
}

CuptiTracer::CuptiTracer() {
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    if (g_active) throw CuptiUnavailable("another CUPTI tracer is recording in this process");
    g_active = true;
    g_records.clear();
  }
  try {
    if (!g_callbacksRegistered) {
      check(cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted),
            "cuptiActivityRegisterCallbacks");
      g_callbacksRegistered = true;
    }
    for (const auto& [kind, name] : kRecordedKinds) check(cuptiActivityEnable(kind), name);
  } catch (...) {
    const std::lock_guard<std::mutex> lock(g_mutex);
    g_active = false;
    throw;
  }
}

CuptiTracer::~CuptiTracer() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  for (const auto& kindAndName : kRecordedKinds) cuptiActivityDisable(kindAndName.first);
  const std::lock_guard<std::mutex> lock(g_mutex);
  g_records.clear();
  g_active = false;
}

std::vector<KernelActivity> CuptiTracer::take() {
  check(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
  std::vector<KernelActivity> out;
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    out.swap(g_records);
  }
  out.erase(std::remove_if(out.begin(), out.end(),
                           [](const KernelActivity& k) { return isTimerKernel(k.name); }),
            out.end());
  std::sort(out.begin(), out.end(),
            [](const KernelActivity& a, const KernelActivity& b) { return a.startNs < b.startNs; });
  return out;
}

}  // namespace kwb::cuda
