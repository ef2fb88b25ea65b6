/// @file steps/09_multi_gpu/resources.cuh
/// @brief What one call of step 09's transpose holds while it runs: the staging buffers, and
/// a second stream (with its events) on which the exchange runs beside the local work.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "09_multi_gpu/blocks.hpp"
#include "tp/error.hpp"

namespace tp::step09 {

/// Layout::buffers() pairs of (send, receive) buffers in one allocation from the
/// stream-ordered allocator (cudaMallocAsync): a repeated call reuses the memory when the
/// pool keeps it (cudaMemPoolAttrReleaseThreshold). Each buffer starts 256-byte aligned.
template <typename T>
class Staging {
 public:
  Staging(const Layout& layout, cudaStream_t stream)
      : send_(aligned(layout.send_elems())), pair_(send_ + aligned(layout.recv_elems())), stream_(stream) {
    const std::size_t bytes = std::size_t(layout.buffers()) * pair_ * sizeof(T);
    if (bytes > 0) TP_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&base_), bytes, stream));
  }
  ~Staging() {
    if (base_ != nullptr) cudaFreeAsync(base_, stream_);  // after the work enqueued on stream_
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  T* send(int b) const { return base_ + b * pair_; }           ///< send buffer b (0 or 1)
  T* recv(int b) const { return base_ + b * pair_ + send_; }   ///< receive buffer b

 private:
  static std::size_t aligned(std::size_t elems) {  // rounded up to a multiple of 256 bytes
    constexpr std::size_t kPer = 256 / sizeof(T);
    return (elems + kPer - 1) / kPer * kPer;
  }
  std::size_t send_, pair_;  // elements: one send buffer; one send and one receive buffer
  cudaStream_t stream_;
  T* base_ = nullptr;
};

/// The stream of the exchange, at the device's highest priority: when a transpose kernel
/// fills every SM, the block scheduler prefers NCCL's kernel for the next free slot (a hint).
/// Events order it with the caller's stream: after(stream) makes it wait for what `stream`
/// has enqueued; exchanged(k) marks chunk k's exchange, wait_exchanged(stream, k) makes
/// `stream` wait for it (two events in turn: chunk k + 1's exchange is enqueued before
/// anyone waits for chunk k's).
///
/// The two events that the caller's stream waits for keep timing (`done_flags`, by default
/// cudaEventDefault), although nobody reads their times: on 4 H100s a 4-chunk transpose took
/// longer with events created with cudaEventDisableTiming, the flag that CUDA's documentation
/// recommends for cudaStreamWaitEvent (the lab's step 09 page has the measurement).
class SideStream {
 public:
  explicit SideStream(unsigned done_flags = cudaEventDefault) {
    int least = 0, greatest = 0;
    TP_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    TP_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, greatest));
    TP_CUDA_CHECK(cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming));
    for (cudaEvent_t* e : {&done_[0], &done_[1]}) TP_CUDA_CHECK(cudaEventCreateWithFlags(e, done_flags));
  }
  ~SideStream() {  // the GPU finishes what was enqueued first
    for (cudaEvent_t e : {ready_, done_[0], done_[1]}) cudaEventDestroy(e);
    cudaStreamDestroy(stream_);
  }
  SideStream(const SideStream&) = delete;
  SideStream& operator=(const SideStream&) = delete;

  cudaStream_t get() const { return stream_; }
  void after(cudaStream_t stream) {
    TP_CUDA_CHECK(cudaEventRecord(ready_, stream));
    TP_CUDA_CHECK(cudaStreamWaitEvent(stream_, ready_, 0));
  }
  void exchanged(int k) { TP_CUDA_CHECK(cudaEventRecord(done_[k % 2], stream_)); }
  void wait_exchanged(cudaStream_t stream, int k) { TP_CUDA_CHECK(cudaStreamWaitEvent(stream, done_[k % 2], 0)); }

 private:
  cudaStream_t stream_ = nullptr;
  cudaEvent_t ready_ = nullptr, done_[2] = {nullptr, nullptr};
};

}  // namespace tp::step09
