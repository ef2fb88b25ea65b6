/// @file steps/09_multi_gpu/neighbours.cuh
/// @brief Two stand-ins for the local work, run beside NCCL's all-to-all to ask what the two
/// compete for (09_multi_gpu --neighbours): one holds every SM and touches no memory, the
/// other streams DRAM from an eighth of the SMs.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "tp/error.hpp"

namespace tp::step09::neighbours {

constexpr int kThreads = 256;       // per block, as the local work's kernels
constexpr double kBlockUs = 20.0;   // how long one spinning block lives: short, as a tile's work is

/// Spins for `cycles` SM clock cycles and exits: no memory traffic.
__global__ void spin_kernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

/// Keeps every SM full of short spinning blocks (as many resident as fit) for about `ms`.
inline void hold_sms(double ms, cudaStream_t stream) {
  int device = 0, khz = 0, sms = 0, per_sm = 0;
  TP_CUDA_CHECK(cudaGetDevice(&device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, spin_kernel, kThreads, 0));
  const long long cycles = static_cast<long long>(kBlockUs * khz / 1000);  // kHz x 1000 x us / 1e6
  const long long waves = static_cast<long long>(std::ceil(ms * 1000 / kBlockUs));
  const long long blocks = std::max(1LL, waves * sms * per_sm);
  spin_kernel<<<unsigned(std::min(blocks, 2147483647LL)), kThreads, 0, stream>>>(cycles);
  TP_CHECK_LAUNCH("spin_kernel");
}

/// Copies n 16-byte words from src to dst, four loads in flight per thread, grid-stride.
__global__ void stream_kernel(uint4* __restrict__ dst, const uint4* __restrict__ src, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += 4 * stride) {
    uint4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      if (i + u * stride < n) v[u] = src[i + u * stride];
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      if (i + u * stride < n) dst[i + u * stride] = v[u];
    }
  }
}

/// Copies `bytes` (a multiple of 16, both pointers 16-byte aligned) from src to dst `passes`
/// times, with blocks of 1024 threads on an eighth of the SMs: DRAM busy, most SMs free.
inline void stream_from_few_sms(void* dst, const void* src, std::size_t bytes, int passes, cudaStream_t stream) {
  int device = 0, sms = 0;
  TP_CUDA_CHECK(cudaGetDevice(&device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  for (int p = 0; p < passes; ++p) {
    stream_kernel<<<std::max(1, sms / 8), 1024, 0, stream>>>(static_cast<uint4*>(dst), static_cast<const uint4*>(src),
                                                            bytes / 16);
    TP_CHECK_LAUNCH("stream_kernel");
  }
}

}  // namespace tp::step09::neighbours
