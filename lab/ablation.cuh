/// @file lab/ablation.cuh
/// @brief Step 07's first ablation, one idea per row, with the ideas that measured as noise:
/// evict-first hints and column pairs. Step 07's headline had both until commit e3624a5
/// (`git show e3624a5:steps/07_coarsen/kernel.cuh`).
///
/// Each row is a type that inherits the row above and switches on exactly one idea:
///
///     step 06 padded_32x8 -> Coarsened -> Vec16 -> EvictFirstStores -> CpAsync -> ColumnPairs
///
/// One kernel reads the switches; a switch that cannot apply to its row (cp.async or column
/// pairs without 16-byte accesses, say) is a compile error, never a silent no-op. The tiles
/// are taken in row-major order (the launch order). EvictFirstLoads measures the evict-first
/// hint on the loads alone, as EvictFirstStores does on the stores.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "07_coarsen/kernel.cuh"
#include "tile_parts.cuh"  // Pair, split_pairs

namespace tp::lab::ablation {

using coarsen::detail::Pair;
using coarsen::detail::split_pairs;
using step07::kSide;
using step07::kThreads;
using step07::rows_16_aligned;
using step07::slot;
using step07::transpose_elements;

/// Row 1: step 06's kernel with 256 x 256-byte tiles and 256 threads: more bytes per thread,
/// one element per access, step 06's element swizzle.
struct Coarsened {
  static constexpr bool kVec16 = false;             ///< 16-byte loads and stores, the chunk swizzle
  static constexpr bool kEvictFirstStores = false;  ///< st.global.cs on the stores
  static constexpr bool kEvictFirstLoads = false;   ///< ld.global.cs on the loads (through registers)
  static constexpr bool kCpAsync = false;           ///< loads by cp.async, straight to shared memory
  static constexpr bool kPairs = false;             ///< the store phase reads column pairs
};
/// Row 2: + 16-byte loads and stores (the stores packed in registers), the 16-byte swizzle.
struct Vec16 : Coarsened { static constexpr bool kVec16 = true; };
/// Row 3: + the evict-first hint on the stores.
struct EvictFirstStores : Vec16 { static constexpr bool kEvictFirstStores = true; };
/// Row 4: + cp.async loads instead of loads through registers.
struct CpAsync : EvictFirstStores { static constexpr bool kCpAsync = true; };
/// Row 5: + column pairs in the store phase.
struct ColumnPairs : CpAsync { static constexpr bool kPairs = true; };
/// Beside the ablation: Vec16 + the evict-first hint on the loads alone.
struct EvictFirstLoads : Vec16 { static constexpr bool kEvictFirstLoads = true; };

/// One tile of the row's kernel: step 07's move_tile() with the row's switches.
template <typename T, typename Row, bool kEdge>
__device__ __forceinline__ void move_tile(T* tile, T* __restrict__ out, const T* __restrict__ in, int rows,
                                          int cols, std::size_t r0, std::size_t c0) {
  static_assert(Row::kVec16 || !(Row::kEvictFirstStores || Row::kEvictFirstLoads || Row::kCpAsync || Row::kPairs),
                "this idea needs 16-byte accesses (Vec16)");
  static_assert(!(Row::kCpAsync && Row::kEvictFirstLoads), "cp.async loads do not pass through registers");
  constexpr int kV = 16 / sizeof(T), kN = kSide<T>;
  constexpr int kE = Row::kVec16 ? kV : 1;        // elements per global access
  constexpr int kPerRow = kN / kE;                 // accesses per tile row
  constexpr int kLoads = kN * kPerRow / kThreads;  // accesses per thread and phase
  using Access = std::conditional_t<Row::kVec16, uint4, T>;
  auto at = [&](int r, int c) -> T& {  // tile element (r, c): the chunk swizzle, or step 06's c ^ r
    return tile[r * kN + (Row::kVec16 ? slot<T>(r, c) : c ^ (r & 31))];
  };
  auto outside = [&](std::size_t r, std::size_t c) { return kEdge && (r >= std::size_t(rows) || c >= std::size_t(cols)); };

  // Load phase: consecutive threads take consecutive accesses along a tile row.
  [[maybe_unused]] Access held[kLoads];  // loads through registers: all issued before the first shared store
#pragma unroll
  for (int i = 0; i < kLoads; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int r = idx / kPerRow, c = idx % kPerRow * kE;  // tile row, first tile column
    if (outside(r0 + r, c0 + c)) continue;
    const T* p = in + (r0 + r) * cols + c0 + c;
    if constexpr (Row::kCpAsync) cp_async16(&at(r, c), p);
    else if constexpr (Row::kEvictFirstLoads) held[i] = __ldcs(reinterpret_cast<const uint4*>(p));
    else held[i] = *reinterpret_cast<const Access*>(p);
  }
  if constexpr (Row::kCpAsync) {
    cp_async_wait_all();
  } else {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const int idx = threadIdx.x + i * kThreads;
      const int r = idx / kPerRow, c = idx % kPerRow * kE;
      if (!outside(r0 + r, c0 + c)) *reinterpret_cast<Access*>(&at(r, c)) = held[i];
    }
  }
  __syncthreads();

  // Store phase: output row c0 + j, output columns r0 + q kE ..: tile column j, tile rows
  // q kE .. q kE + kE - 1. Elements: a warp takes 32 consecutive elements of one output row.
  // 16 bytes: chunk q = idx % 16 of output row j = idx / 16 (a warp: 256 bytes of 2 rows);
  // with column pairs, of output rows j = 2 (idx / 16) and j + 1 (256 bytes of 4 rows).
  auto put = [&](T* p, uint4 v) {
    if constexpr (Row::kEvictFirstStores) store16_evict_first(p, v);
    else store16(p, v);
  };
  constexpr int kRowsPerThread = Row::kPairs ? 2 : 1;  // output rows a store access covers
#pragma unroll 2
  for (int i = 0; i < kLoads / kRowsPerThread; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int q = idx % kPerRow, j = kRowsPerThread * (idx / kPerRow);
    if (outside(r0 + q * kE, c0 + j)) continue;  // input row r0 + q kE, input column c0 + j
    T* p = out + (c0 + j) * rows + r0 + q * kE;
    if constexpr (!Row::kVec16) {
      *p = at(q, j);
    } else if constexpr (!Row::kPairs) {
      T v[kV];  // one element from each of V tile rows, packed into 16 bytes
#pragma unroll
      for (int k = 0; k < kV; ++k) v[k] = at(q * kV + k, j);
      uint4 packed;
      memcpy(&packed, v, sizeof(packed));
      put(p, packed);
    } else {
      Pair<T> w[kV];  // one (column j, column j + 1) word per tile row
#pragma unroll
      for (int k = 0; k < kV; ++k) w[k] = *reinterpret_cast<const Pair<T>*>(&at(q * kV + k, j));
      uint4 first, second;
      split_pairs<T>(w, first, second);
      put(p, first);
      put(p + rows, second);
    }
  }
  __syncthreads();
}

/// The row's kernel: one block moves one tile at a time, in row-major tile order.
template <typename T, typename Row>
__global__ void __launch_bounds__(kThreads)
    ablation_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols, std::size_t tiles_x,
                    std::size_t tiles) {
  constexpr int kN = kSide<T>;
  __shared__ uint4 smem[kN * kN * sizeof(T) / 16];
  T* tile = reinterpret_cast<T*>(smem);
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::size_t r0 = t / tiles_x * kN, c0 = t % tiles_x * kN;  // row-major tile order
    if (r0 + kN <= std::size_t(rows) && c0 + kN <= std::size_t(cols)) {
      move_tile<T, Row, false>(tile, out, in, rows, cols, r0, c0);
    } else {
      move_tile<T, Row, true>(tile, out, in, rows, cols, r0, c0);
    }
  }
}

/// The transpose of ablation row `Row` (same API as tp::step07::transpose). Rows with
/// 16-byte accesses take step 07's element path where those cannot run.
template <typename Row, typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  if (Row::kVec16 && !rows_16_aligned(out, in, rows, cols)) return transpose_elements(out, in, rows, cols, stream);
  const std::size_t tiles_x = ceil_div(std::size_t(cols), std::size_t(kSide<T>));
  const std::size_t tiles = tiles_x * ceil_div(std::size_t(rows), std::size_t(kSide<T>));
  const unsigned blocks = unsigned(std::min<std::size_t>(tiles, INT_MAX));
  ablation_kernel<T, Row><<<blocks, kThreads, 0, stream>>>(out, in, rows, cols, tiles_x, tiles);
  TP_CHECK_LAUNCH("ablation_kernel");
}

}  // namespace tp::lab::ablation
