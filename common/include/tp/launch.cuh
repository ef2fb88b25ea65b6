/// @file launch.cuh
/// @brief Small launch-configuration helpers for kernels (CUDA code only).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "tp/error.hpp"

namespace tp {

/// The largest gridDim.y a launch may ask for. A kernel whose rows (or tiles) would need more
/// blocks along y launches this many and loops over the rest.
constexpr unsigned kMaxGridY = 65535;

/// The number of SMs of the current device.
inline int sm_count() {
  int device = 0, sms = 0;
  TP_CUDA_CHECK(cudaGetDevice(&device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

/// What the SMs of a GPU hold at once, as far as threads and the block limit go (registers
/// and shared memory aside): the unit of choices that count waves of blocks, so that a choice
/// made from one GPU's measurements scales to another GPU's SMs.
struct Residency {
  int sms = 0;             ///< streaming multiprocessors (132 on an H100 SXM or H200)
  int threads_per_sm = 0;  ///< resident threads per SM (2048 on an A100, H100, H200; 1536 on RTX 30/40)
  int blocks_per_sm = 0;   ///< resident blocks per SM (32 on an A100, H100, H200; 16 on RTX 30/40)

  /// Blocks of `threads` threads that the whole GPU holds at once: one wave.
  std::size_t wave(int threads) const {
    const int per_sm = threads_per_sm / threads < blocks_per_sm ? threads_per_sm / threads : blocks_per_sm;
    return std::size_t(sms) * std::size_t(per_sm);
  }
};

/// The Residency of the current device.
inline Residency residency() {
  int device = 0;
  Residency r;
  TP_CUDA_CHECK(cudaGetDevice(&device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&r.sms, cudaDevAttrMultiProcessorCount, device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&r.threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&r.blocks_per_sm, cudaDevAttrMaxBlocksPerMultiprocessor, device));
  return r;
}

/// How many blocks of `threads` threads of `kernel` fit on the whole GPU at once: the grid
/// size of a grid-stride kernel that keeps every SM full and launches nothing more.
template <typename KernelFn>
int resident_blocks(KernelFn kernel, int threads, std::size_t shared_bytes = 0) {
  int per_sm = 0;
  TP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
  return sm_count() * per_sm;
}

/// The most shared memory one block of the current device may have, opted in (227 KB on
/// H100 and H200).
inline std::size_t shared_memory_limit() {
  int device = 0, limit = 0;
  TP_CUDA_CHECK(cudaGetDevice(&device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return std::size_t(limit);
}

/// Lets `kernel` launch with `bytes` of dynamic shared memory: above the default 48 KB a
/// kernel must opt in, up to the device's limit. Throws std::invalid_argument, with both
/// numbers, when `bytes` is above that limit.
template <typename KernelFn>
void allow_shared_memory(KernelFn kernel, std::size_t bytes) {
  if (bytes <= 48 * 1024) return;
  const std::size_t limit = shared_memory_limit();
  if (bytes > limit) {
    throw std::invalid_argument("a block of this kernel needs " + std::to_string(bytes) +
                                " bytes of shared memory; the GPU allows " + std::to_string(limit));
  }
  TP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
}

/// A launch configuration for cudaLaunchKernelEx: `blocks` blocks of `threads` threads, in
/// clusters of `cluster_blocks` blocks along x (compute capability 9.0 and newer), with
/// `shared_bytes` of dynamic shared memory. The configuration points at `cluster`, which
/// holds the cluster's dimensions: it must live until the launch.
inline cudaLaunchConfig_t cluster_launch_config(cudaLaunchAttribute& cluster, unsigned cluster_blocks,
                                                unsigned blocks, unsigned threads, std::size_t shared_bytes,
                                                cudaStream_t stream) {
  cluster = {};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = cluster_blocks;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = &cluster;
  config.numAttrs = 1;
  return config;
}

/// Ceiling of a / b for positive integers.
template <typename A, typename B>
constexpr A ceil_div(A a, B b) {
  return (a + static_cast<A>(b) - 1) / static_cast<A>(b);
}

}  // namespace tp
