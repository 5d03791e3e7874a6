// SPDX-License-Identifier: Apache-2.0
#pragma once
// A CUDA event for timing, move-only, destroyed by its destructor.
struct CUevent_st;
struct CUstream_st;

namespace kwb::cuda {

class CudaEvent {
 public:
  CudaEvent();  // throws CudaError
  ~CudaEvent();
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  CudaEvent(CudaEvent&& o) noexcept;
  CudaEvent& operator=(CudaEvent&& o) noexcept;

  CUevent_st* get() const { return m_event; }
  void record(CUstream_st* stream);
  void synchronize() const;
  // Milliseconds from `start` to this event; both must have completed.
  float elapsedMsSince(const CudaEvent& start) const;

 private:
  CUevent_st* m_event = nullptr;
};

}  // namespace kwb::cuda
