/// @file lab/inplace_rect_cluster.cuh
/// @brief A lab variant of step 08's column passes (steps/08_inplace/rect.cuh): one panel per
/// thread-block cluster of kC blocks (kC SMs), kC times as wide as one block's panel.
///
/// Step 08's column pass is bound by the width of its panels: one SM's shared memory holds 16
/// bytes of each of 8192 to 14000 rows, and the L2 serves 16-byte pieces slowly. Here the kC
/// blocks of a cluster split the panel's rows, each holding rows [k s, (k + 1) s) of the
/// whole panel (s = m / kC), so each row is read and written kC x 16 bytes at a time. A row's
/// element may come from any row of the panel: the gather reads it from the shared memory of
/// the block that holds that row (distributed shared memory, compute capability 9.0).
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>

#include "08_inplace/rect.cuh"

namespace tp::lab::rect_cluster {

using step08::rect::Columns;
using step08::rect::Fast;
using step08::rect::Plan;

constexpr int kBlock = 512;  // threads per block
constexpr int kU = 8;        // chunks per thread in flight

/// Elements between two columns of a block's slab in shared memory: the slab's rows, padded
/// so that the columns of one 16-byte chunk fall on different banks.
__host__ __device__ inline long long slab_pitch(long long m, int clusters_size) {
  return (m + clusters_size - 1) / clusters_size + 8;
}

template <typename T, int kC>
__global__ void __launch_bounds__(kBlock) permute_columns_cluster(T* data, Fast f, Columns pass) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  constexpr int kK = 16 / sizeof(T);  // elements per 16-byte chunk
  constexpr int kW = kC * kK;         // the panel's width in elements
  cg::cluster_group cluster = cg::this_cluster();
  const long long rank = cluster.block_rank();
  extern __shared__ uint4 smem[];
  __shared__ long long shift[kW];
  T* buf = reinterpret_cast<T*>(smem);  // element w of local row lr at buf[w pitch + lr]
  const long long m = f.p.m, n = f.p.n;
  const long long slab = (m + kC - 1) / kC, pitch = slab_pitch(m, kC);
  const long long r_begin = rank * slab < m ? rank * slab : m, r_end = r_begin + slab < m ? r_begin + slab : m;
  const long long items = (r_end - r_begin) * kC;  // (row, chunk) pairs of this block
  const long long clusters = gridDim.x / kC;
  for (long long q = blockIdx.x / kC; q < n / kW; q += clusters) {
    const long long col0 = q * kW;
    for (long long i0 = threadIdx.x; i0 < items; i0 += kU * kBlock) {
      step08::rect::load_then_use<kU, uint4>(
          i0, kBlock, items,
          [&](long long i) { return *reinterpret_cast<const uint4*>(data + (r_begin + i / kC) * n + col0 + i % kC * kK); },
          [&](long long i, uint4 chunk) {
            T e[kK];
            memcpy(e, &chunk, sizeof(uint4));
#pragma unroll
            for (int x = 0; x < kK; ++x) buf[(i % kC * kK + x) * pitch + i / kC] = e[x];
          });
    }
    for (int w = threadIdx.x; w < kW; w += kBlock) shift[w] = step08::rect::column_shift(f.p, pass, col0 + w);
    cluster.sync();  // every block of the cluster has read its rows of the panel
    for (long long i = threadIdx.x; i < items; i += kBlock) {
      const long long r = r_begin + i / kC, ch = i % kC;
      const long long base = pass == Columns::prerotate ? r : step08::rect::row_permutation(f, r);
      T v[kK];
#pragma unroll
      for (int x = 0; x < kK; ++x) {
        const long long w = ch * kK + x;
        long long src = base + shift[w];
        if (src >= m) src -= m;
        const long long owner = src / slab;
        const T* theirs = cluster.map_shared_rank(buf, static_cast<unsigned>(owner));
        v[x] = theirs[w * pitch + (src - owner * slab)];
      }
      uint4 out;
      memcpy(&out, v, sizeof(out));
      *reinterpret_cast<uint4*>(data + r * n + col0 + ch * kK) = out;
    }
    cluster.sync();  // no block reads another's slab of this panel any more
  }
#endif
}

/// Runs a column pass on clusters of kC blocks. Returns false (and runs nothing) where it
/// cannot: before compute capability 9.0, rows not a multiple of kC 16-byte chunks, an
/// unaligned pointer, or a slab that does not fit in shared memory.
template <typename T, int kC>
bool launch(T* data, const Plan& p, Columns pass, cudaStream_t stream) {
  int device = 0, major = 0;
  TP_CUDA_CHECK(cudaGetDevice(&device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  constexpr long long kW = kC * 16 / sizeof(T);
  const std::size_t bytes = std::size_t(kW) * slab_pitch(p.m, kC) * sizeof(T);
  if (major < 9 || p.n % kW != 0 || reinterpret_cast<std::uintptr_t>(data) % 16 != 0 ||
      bytes > shared_memory_limit()) {
    return false;
  }
  auto kernel = permute_columns_cluster<T, kC>;
  allow_shared_memory(kernel, bytes);
  cudaLaunchAttribute cluster;
  cudaLaunchConfig_t config = cluster_launch_config(cluster, kC, kC, kBlock, bytes, stream);
  int clusters = 0;
  TP_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  const long long panels = p.n / kW;
  config.gridDim = dim3(unsigned(kC * std::max(1LL, std::min<long long>(panels, clusters))));
  TP_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, data, Fast(p), pass));
  TP_CHECK_LAUNCH("permute_columns_cluster");
  return true;
}

}  // namespace tp::lab::rect_cluster
