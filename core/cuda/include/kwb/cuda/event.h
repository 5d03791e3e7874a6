#pragma once
// A CUDA event for timing, move-only, destroyed by its destructor.
struct CUevent_st;
struct CUstream_st;

namespace kwb::cuda {

class Event {
 public:
  Event();  // throws CudaError
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& o) noexcept;
  Event& operator=(Event&& o) noexcept;

  CUevent_st* get() const { return m_event; }
  void record(CUstream_st* stream);
  void synchronize() const;
  // Milliseconds from `start` to this event; both must have completed.
  float elapsedMsSince(const Event& start) const;

 private:
  CUevent_st* m_event = nullptr;
};

}  // namespace kwb::cuda
