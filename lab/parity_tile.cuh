/// @file lab/parity_tile.cuh
/// @brief The lab's parity tile for 8-byte types: 16-byte loads and stores on shapes whose
/// rows are not a multiple of 16 bytes, with no shifts and no rows loaded twice.
///
/// A row of `double` starts either on a 16-byte boundary or 8 bytes past one (its *parity*).
/// Where cols is odd, the rows of `in` alternate; where rows is odd, the rows of `out` do. In
/// a row of parity p, tile columns p, p + 2, ... start aligned 16-byte pairs of elements, so a
/// tile of 64 columns is 32 aligned pairs (p = 0), or 31 pairs and the first and the last
/// column alone (p = 1). Lane s of a warp takes tile columns 2s - p and the next, counted mod
/// 64: one 16-byte access, but for lane 0 of a row of parity 1, which takes the last column and
/// the first, two 8-byte ones. Whole elements are never split, so no shifts are needed, and the
/// tile reads no element of another tile: what the shifted path (shifted_tiles.cuh) must do for
/// the 2- and 4-byte types, whose chunks cross elements of two tiles.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "tp/error.hpp"
#include "tp/launch.cuh"  // ceil_div

namespace tp::lab::parity {

/// A tile side, in elements, and threads per block.
template <int kSide>
struct Shape {
  static_assert(kSide == 32 || kSide == 64, "a warp takes one row of 64 or two of 32");
  static constexpr int kPairs = kSide / 2;                     ///< pairs of a tile row (lanes per row)
  static constexpr int kThreads = 256;                         ///< threads per block
  static constexpr int kPerThread = kSide * kPairs / kThreads;  ///< pairs per thread, each phase
};

using Word = unsigned long long;  ///< one 8-byte element, whatever its type

/// 1 where p lies 8 bytes past a 16-byte boundary, 0 on one.
__device__ __forceinline__ int parity(const Word* p) { return int(reinterpret_cast<std::uintptr_t>(p) / 8 % 2); }

/// The first of the two elements that pair s takes of a run of kSide (a tile row, or a tile
/// column of `out`) whose first element has parity p: 2s - p, counted mod kSide.
template <int kSide>
__device__ __forceinline__ int first_of_pair(int s, int p) {
  return (2 * s - p) & (kSide - 1);
}

/// Elements a and (a + 1) mod kSide of `run`, those at `count` or beyond left 0 (outside the
/// matrix): one 16-byte load where they are neighbours, both inside; else 8-byte ones.
template <int kSide>
__device__ __forceinline__ ulonglong2 load_pair(const Word* run, int a, int count) {
  const int b = (a + 1) & (kSide - 1);
  if (b == a + 1 && b < count) return *reinterpret_cast<const ulonglong2*>(run + a);
  ulonglong2 v{0, 0};
  if (a < count) v.x = run[a];
  if (b < count) v.y = run[b];
  return v;
}

/// Stores v to elements a and (a + 1) mod kSide of `run`, but those at `count` or beyond.
template <int kSide>
__device__ __forceinline__ void store_pair(Word* run, int a, ulonglong2 v, int count) {
  const int b = (a + 1) & (kSide - 1);
  if (b == a + 1 && b < count) {
    *reinterpret_cast<ulonglong2*>(run + a) = v;
    return;
  }
  if (a < count) run[a] = v.x;
  if (b < count) run[b] = v.y;
}

/// Tile element (r, c) in shared memory: column c ^ (r / 2) % 16 of row r. The store phase
/// reads one tile column at rows 2s - p and 2s - p + 1 (s = 0 .. 15 in a half warp), whose
/// r / 2 then differ: conflict-free. (The load phase's 8-byte stores take two turns of the
/// banks where one would do.)
template <int kSide>
__device__ __forceinline__ int slot(int r, int c) {
  return r * kSide + (c ^ ((r >> 1) & 15));
}

/// One tile per block: block (x, y) moves input rows x kSide ... and columns y kSide ...; x
/// varies fastest (the column order). Load phase: pair s of tile row r (thread idx: r = idx /
/// kPairs, s = idx % kPairs) goes to shared memory, all loads issued first. Store phase: pair s
/// of tile column j, i.e. of output row j, goes to `out`.
template <typename T, int kSide>
__global__ void __launch_bounds__(Shape<kSide>::kThreads)
    parity_kernel(T* __restrict__ out, const T* __restrict__ in, unsigned rows, unsigned cols) {
  static_assert(sizeof(T) == 8, "8-byte elements: two make an aligned 16-byte pair");
  using S = Shape<kSide>;
  __shared__ Word tile[kSide * kSide];
  const Word* src = reinterpret_cast<const Word*>(in);
  Word* dst = reinterpret_cast<Word*>(out);
  const std::size_t r0 = std::size_t(blockIdx.x) * kSide, c0 = std::size_t(blockIdx.y) * kSide;
  const int tile_rows = min(kSide, int(rows - blockIdx.x * kSide));  // the tile's rows inside the matrix
  const int tile_cols = min(kSide, int(cols - blockIdx.y * kSide));  // and its columns

  ulonglong2 pair[S::kPerThread];
#pragma unroll
  for (int i = 0; i < S::kPerThread; ++i) {
    const int idx = threadIdx.x + i * S::kThreads, r = idx / S::kPairs;
    const Word* run = src + (r0 + r) * cols + c0;  // tile row r
    pair[i] = load_pair<kSide>(run, first_of_pair<kSide>(idx % S::kPairs, parity(run)), r < tile_rows ? tile_cols : 0);
  }
#pragma unroll
  for (int i = 0; i < S::kPerThread; ++i) {
    const int idx = threadIdx.x + i * S::kThreads, r = idx / S::kPairs;
    const int a = first_of_pair<kSide>(idx % S::kPairs, parity(src + (r0 + r) * cols + c0));
    tile[slot<kSide>(r, a)] = pair[i].x;
    tile[slot<kSide>(r, (a + 1) & (kSide - 1))] = pair[i].y;
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < S::kPerThread; ++i) {
    const int idx = threadIdx.x + i * S::kThreads, j = idx / S::kPairs;
    if (j >= tile_cols) continue;
    Word* run = dst + (c0 + j) * rows + r0;  // output row c0 + j, from column r0
    const int a = first_of_pair<kSide>(idx % S::kPairs, parity(run));
    const ulonglong2 v{tile[slot<kSide>(a, j)], tile[slot<kSide>((a + 1) & (kSide - 1), j)]};
    store_pair<kSide>(run, a, v, tile_rows);
  }
}

/// Whether parity_kernel takes this matrix: 8-byte elements on 8-byte boundaries, and a grid
/// within its limits (at most 65535 tile columns).
template <int kSide, typename T>
bool fits(const T* out, const T* in, int rows, int cols) {
  auto on_element = [](const T* p) { return reinterpret_cast<std::uintptr_t>(p) % 8 == 0; };
  return sizeof(T) == 8 && rows > 0 && cols > 0 && on_element(out) && on_element(in) &&
         ceil_div(unsigned(cols), unsigned(kSide)) <= kMaxGridY;
}

/// Out-of-place transpose with parity_kernel where it fits(); `fallback(out, in, rows, cols,
/// stream)` for the other matrices and types.
template <int kSide, typename T, typename Fallback>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream, Fallback fallback) {
  check_shape(rows, cols);
  if constexpr (sizeof(T) != 8) {
    return fallback(out, in, rows, cols, stream);
  } else {
    if (!fits<kSide>(out, in, rows, cols)) return fallback(out, in, rows, cols, stream);
    const dim3 grid(ceil_div(unsigned(rows), unsigned(kSide)), ceil_div(unsigned(cols), unsigned(kSide)));
    parity_kernel<T, kSide><<<grid, Shape<kSide>::kThreads, 0, stream>>>(out, in, unsigned(rows), unsigned(cols));
    TP_CHECK_LAUNCH("parity_kernel");
  }
}

}  // namespace tp::lab::parity
