// SPDX-License-Identifier: Apache-2.0
#include "sampler.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "kwb/cuda/check.h"
#include "kwb/cuda/measure.h"

namespace kwb::cuda {

Sampler::Sampler(const std::function<void()>& enqueue, CUstream_st* stream, L2Flusher* flusher)
    : m_enqueue(enqueue), m_stream(stream), m_flusher(flusher) {}

Sampler::~Sampler() {
  if (m_graph) cudaGraphExecDestroy(m_graph);
}

std::optional<std::string> Sampler::captureGraph(int launches) {
  if (m_graph) cudaGraphExecDestroy(m_graph);
  m_graph = nullptr;
  // Thread-local mode: a launcher that allocates or synchronises fails the capture instead
  // of corrupting it; the case is then timed in isolated mode.
  KWB_CUDA_CHECK(cudaStreamBeginCapture(m_stream, cudaStreamCaptureModeThreadLocal));
  std::string failure;
  try {
    for (int i = 0; i < launches; ++i) m_enqueue();
  } catch (const std::exception& e) {
    failure = e.what();
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(m_stream, &graph);
  if (failure.empty() && end != cudaSuccess)
    failure = std::string("cudaStreamEndCapture: ") + cudaGetErrorName(end);
  if (failure.empty()) {
    const cudaError_t inst = cudaGraphInstantiate(&m_graph, graph, 0);
    if (inst != cudaSuccess) {
      failure = std::string("cudaGraphInstantiate: ") + cudaGetErrorName(inst);
      m_graph = nullptr;
    }
  }
  if (graph) cudaGraphDestroy(graph);
  if (!failure.empty()) {
    cudaGetLastError();  // capture errors are not sticky; clear them for the next launch
    return "the launches could not be captured in a CUDA graph (" + failure + ")";
  }
  m_graphLaunches = launches;
  return std::nullopt;
}

Sample Sampler::take(TimerMode mode, int launches, bool coldL2) {
  return mode == TimerMode::kHost ? hostSample(launches, coldL2)
                                  : gpuSample(mode, launches, coldL2);
}

std::int64_t Sampler::runAlone(std::int64_t launches) {
  std::int64_t ran = 0;
  if (m_graph && m_graphLaunches > 0) {
    for (; ran < launches; ran += m_graphLaunches)
      KWB_CUDA_CHECK(cudaGraphLaunch(m_graph, m_stream));
  } else {
    for (; ran < launches; ++ran) m_enqueue();
    KWB_CUDA_CHECK(cudaGetLastError());
  }
  KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  return ran;
}

Sample Sampler::gpuSample(TimerMode mode, int launches, bool coldL2) {
  const bool graph = mode == TimerMode::kBackToBack;
  if (graph) launches = m_graphLaunches;
  flushL2(coldL2);
  m_blocker.block(m_stream);
  try {
    m_start.record(m_stream);
    if (graph)
      KWB_CUDA_CHECK(cudaGraphLaunch(m_graph, m_stream));
    else
      for (int i = 0; i < launches; ++i) m_enqueue();
    m_stop.record(m_stream);
  } catch (...) {
    m_blocker.release();
    throw;
  }
  m_blocker.release();
  m_stop.synchronize();
  if (m_blocker.timedOut())
    throw CudaError(
        "the launch waited on the host while the blocking kernel held the stream (it gave up "
        "after its time-out): the launcher synchronises, so GPU time cannot be isolated; time "
        "it with --timer host",
        0, false);
  Sample s;
  s.smClockMhz = m_blocker.smClockMhz();
  s.ms = double(m_stop.elapsedMsSince(m_start)) / launches;
  if (mode == TimerMode::kCupti && !m_tracer) throw CuptiUnavailable("no CUPTI tracer attached");
  takeKernels(s, launches);
  if (mode == TimerMode::kCupti) s.ms = s.kernelMs;
  return s;
}

Sample Sampler::hostSample(int launches, bool coldL2) {
  flushL2(coldL2);
  // The blocking kernel, released before it starts, reads the SM clock for the throttle check.
  m_blocker.probe(m_stream);
  KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  Sample s;
  s.smClockMhz = m_blocker.smClockMhz();
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  for (int i = 0; i < launches; ++i) m_enqueue();
  KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  s.ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count() / launches;
  takeKernels(s, launches);
  return s;
}

void Sampler::flushL2(bool coldL2) {
  if (!coldL2 || !m_flusher) return;
  m_flusher->flush(m_stream);
  if (!m_tracer) return;
  // CUPTI records the flush's memset too: wait for it and drop its record, so the sample's
  // records are the launches' alone. The L2 stays cold: nothing runs in between.
  KWB_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  m_tracer->take();
}

void Sampler::takeKernels(Sample& s, int launches) {
  if (!m_tracer) return;
  s.kernels = m_tracer->take();
  double sum = 0;
  std::uint64_t first = UINT64_MAX, last = 0;
  for (const auto& k : s.kernels) {
    sum += k.durationMs();
    first = std::min(first, k.startNs);
    last = std::max(last, k.endNs);
  }
  s.kernelMs = sum / launches;
  if (last > first) s.kernelSpanMs = double(last - first) * 1e-6 / launches;
}

}  // namespace kwb::cuda
