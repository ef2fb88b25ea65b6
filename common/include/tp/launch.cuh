/// @file launch.cuh
/// @brief Small launch-configuration helpers for kernels (CUDA code only).
#pragma once

#include <cuda_runtime.h>

#include "tp/error.hpp"

namespace tp {

/// How many blocks of `threads` threads of `kernel` fit on the whole GPU at once: the grid
/// size of a grid-stride kernel that keeps every SM full and launches nothing more.
template <typename KernelFn>
int resident_blocks(KernelFn kernel, int threads, std::size_t shared_bytes = 0) {
  int device = 0, sms = 0, per_sm = 0;
  TP_CUDA_CHECK(cudaGetDevice(&device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  TP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
  return sms * per_sm;
}

/// Ceiling of a / b for positive integers.
template <typename A, typename B>
constexpr A ceil_div(A a, B b) {
  return (a + static_cast<A>(b) - 1) / static_cast<A>(b);
}

}  // namespace tp
