/// @file timing.hpp
/// @brief Cold-L2 timing with CUDA events: flush, warm up, repeat, report median/min/max.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>

#include "tp/buffer.hpp"

namespace tp {

/// Summary of repeated timings, in milliseconds.
struct Stats {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  int reps = 0;
};

/// Median, min and max of a list of samples (milliseconds). Throws for an empty list.
Stats summarize(std::vector<double> samples_ms);

/// Evicts the L2 cache by reading a buffer twice its size. A read, not a memset: a memset
/// would leave dirty lines that get written back during the next timed kernel.
class L2Flusher {
 public:
  /// `l2_bytes`: the GPU's L2 size (DeviceInfo::l2_bytes).
  explicit L2Flusher(std::size_t l2_bytes);
  /// Enqueues the flush on `stream`.
  void flush(cudaStream_t stream);
  std::size_t bytes() const { return buffer_.bytes(); }

 private:
  DeviceBuffer buffer_;
  DeviceBuffer sink_;
};

/// Keeps the GPU busy for about `microseconds` without touching memory. Enqueued before a
/// start event, it makes the event wait for the GPU instead of firing at once on an idle GPU,
/// which would add the host's launch latency to a short kernel's time.
void keep_busy(cudaStream_t stream, unsigned microseconds);

/// Work to be timed: enqueues one repetition on the given stream.
using Work = std::function<void(cudaStream_t)>;

/// Times `work`: `warmup` untimed runs, then `reps` runs, each preceded by an L2 flush
/// (or, when `flusher` is null, by keep_busy: warm L2) and bracketed by CUDA events on `stream`.
Stats time_work(const Work& work, cudaStream_t stream, int reps, L2Flusher* flusher,
                int warmup = 3);

}  // namespace tp
