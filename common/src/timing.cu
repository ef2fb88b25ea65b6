#include "tp/timing.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "tp/error.hpp"

namespace tp {
namespace {

// Reads every 16-byte word of `buf` once. The sum is stored only when it hits a value that
// cannot occur for the zeroed buffer, so the loads cannot be optimized away and no line of
// the buffer is ever dirtied.
__global__ void read_all(const uint4* __restrict__ buf, std::size_t n, unsigned* sink) {
  unsigned acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const uint4 v = buf[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9E3779B9u) *sink = acc;
}

// Spins one thread for `ns` nanoseconds of the GPU's global timer, touching no memory.
__global__ void spin(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

}  // namespace

void keep_busy(cudaStream_t stream, unsigned microseconds) {
  spin<<<1, 1, 0, stream>>>(1000ull * microseconds);
  TP_CHECK_LAUNCH("spin (keep_busy)");
}

Stats summarize(std::vector<double> samples_ms) {
  if (samples_ms.empty()) throw std::invalid_argument("summarize: no samples");
  std::sort(samples_ms.begin(), samples_ms.end());
  const std::size_t n = samples_ms.size();
  const double median = n % 2 ? samples_ms[n / 2] : 0.5 * (samples_ms[n / 2 - 1] + samples_ms[n / 2]);
  return {median, samples_ms.front(), samples_ms.back(), static_cast<int>(n)};
}

L2Flusher::L2Flusher(std::size_t l2_bytes)
    : buffer_((2 * std::max<std::size_t>(l2_bytes, 1 << 20) + 15) / 16 * 16), sink_(sizeof(unsigned)) {
  TP_CUDA_CHECK(cudaMemset(buffer_.data(), 0, buffer_.bytes()));
  TP_CUDA_CHECK(cudaDeviceSynchronize());
}

void L2Flusher::flush(cudaStream_t stream) {
  const std::size_t n = buffer_.bytes() / sizeof(uint4);
  read_all<<<1024, 256, 0, stream>>>(buffer_.as<const uint4>(), n, sink_.as<unsigned>());
  TP_CHECK_LAUNCH("read_all (L2 flush)");
}

Stats time_work(const Work& work, cudaStream_t stream, int reps, L2Flusher* flusher, int warmup) {
  if (reps < 1) throw std::invalid_argument("time_work: reps must be at least 1");
  for (int i = 0; i < warmup; ++i) work(stream);
  cudaEvent_t start, stop;
  TP_CUDA_CHECK(cudaEventCreate(&start));
  TP_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> samples;
  try {
    for (int i = 0; i < reps; ++i) {
      // Either way the GPU is busy while the host enqueues the events and the kernel, so the
      // start event does not fire early on an idle GPU and time the host's launch latency.
      if (flusher) {
        flusher->flush(stream);
      } else {
        keep_busy(stream, 50);
      }
      TP_CUDA_CHECK(cudaEventRecord(start, stream));
      work(stream);
      TP_CUDA_CHECK(cudaEventRecord(stop, stream));
      TP_CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      TP_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      samples.push_back(ms);
    }
  } catch (...) {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    throw;
  }
  TP_CUDA_CHECK(cudaEventDestroy(start));
  TP_CUDA_CHECK(cudaEventDestroy(stop));
  return summarize(std::move(samples));
}

}  // namespace tp
