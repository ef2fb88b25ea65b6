/// @file steps/07_coarsen/previous.cuh
/// @brief TEMPORARY, for one measurement: step 07's headline before it lost column pairs and
/// evict-first stores. Step 07: step 06's tiled transpose, coarsened and widened until it moves bytes
/// almost as fast as cudaMemcpy.
///
/// What changed from step 06 (same skeleton: tile, slot, load phase, barrier, store phase):
/// - A tile is 256 bytes on each side (kSide = 256 / sizeof(T) elements: 64 floats, 128
///   halves, 32 doubles) and a block of 256 threads moves it: 16 bytes x kSide / 16 per
///   thread and phase instead of one element per pass.
/// - Every global access is 16 bytes (V = 16 / sizeof(T) elements). Loads: cp.async copies
///   16 bytes of an input row straight into shared memory, all of a thread's copies in
///   flight at once. Stores: V elements of a tile column, packed into 16 bytes in
///   registers, with the evict-first hint.
/// - The swizzle works on 16-byte chunks: chunk c / V of tile row r is kept at chunk
///   (c / V) XOR ((r / V) mod 8), so a row's chunks stay whole for the 16-byte copies and
///   the column reads of the store phase spread over the banks.
/// - Column pairs: a thread of the store phase reads two adjacent tile columns at once (one
///   2-element word per tile row) and writes two output rows. A warp writes 256 bytes of
///   each of 4 output rows.
/// - Tile order: the blocks take the tiles down the tile columns of `in`, so the blocks in
///   flight write whole rows of `out`. Where the rows of `in` lie a multiple of 128 KB apart,
///   the blocks take the tiles from two far-apart regions of the matrix at once.
/// - Shapes and pointers that rule out 16-byte accesses (rows or cols not a multiple of V,
///   a pointer not 16-byte aligned) take step 06's padded transpose: transpose_elements().
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "07_coarsen/kernel.cuh"
#include "tp/async.cuh"
#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step07::previous {

using step07::kThreads;
using step07::kChunks;
using step07::kSide;
using step07::slot;
using step07::rows_16_aligned;
using step07::transpose_elements;
using step07::pitch_is_128k_multiple;


// [split]
/// Two adjacent elements of a tile row, read as one word: tile columns j and j + 1.
template <typename T>
using Pair = std::conditional_t<sizeof(T) == 2, unsigned, std::conditional_t<sizeof(T) == 4, uint2, uint4>>;

/// V words of column pairs (word k from tile row k of a chunk) -> chunk `first` (the low
/// elements: tile column j) and chunk `second` (the high elements: tile column j + 1).
template <typename T>
__device__ __forceinline__ void split_pairs(const Pair<T>* w, uint4& first, uint4& second) {
  if constexpr (sizeof(T) == 2) {  // 8 words of 2 halves: PRMT picks the low or the high halves
    unsigned lo[4], hi[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      lo[k] = __byte_perm(w[2 * k], w[2 * k + 1], 0x5410);  // low half of each word
      hi[k] = __byte_perm(w[2 * k], w[2 * k + 1], 0x7632);  // high half of each word
    }
    first = make_uint4(lo[0], lo[1], lo[2], lo[3]);
    second = make_uint4(hi[0], hi[1], hi[2], hi[3]);
  } else if constexpr (sizeof(T) == 4) {  // 4 words of 2 floats
    first = make_uint4(w[0].x, w[1].x, w[2].x, w[3].x);
    second = make_uint4(w[0].y, w[1].y, w[2].y, w[3].y);
  } else {  // 2 words of 2 doubles (a double is .x.y or .z.w)
    first = make_uint4(w[0].x, w[0].y, w[1].x, w[1].y);
    second = make_uint4(w[0].z, w[0].w, w[1].z, w[1].w);
  }
}
// [split]

// [tile]
/// Moves the tile whose corner is in[r0][c0] to out[c0][r0]. kEdge: the tile crosses the
/// last row or column of the matrix, so every access is checked (all other tiles skip it).
template <typename T, bool kEdge>
__device__ __forceinline__ void move_tile(T* tile, T* __restrict__ out, const T* __restrict__ in, int rows,
                                          int cols, std::size_t r0, std::size_t c0) {
  constexpr int kV = 16 / sizeof(T), kN = kSide<T>;
  constexpr int kLoads = kN * kChunks / kThreads;  // chunks per thread: 4 float, 8 half, 2 double

  // Load phase: thread idx copies chunk idx % 16 of tile row idx / 16 (coalesced: 16
  // threads cover one 256-byte tile row), straight into shared memory.
#pragma unroll
  for (int i = 0; i < kLoads; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int r = idx / kChunks, c = idx % kChunks * kV;  // tile row, first tile column of the chunk
    if (kEdge && (r0 + r >= std::size_t(rows) || c0 + c >= std::size_t(cols))) continue;
    cp_async16(&tile[r * kN + slot<T>(r, c)], in + (r0 + r) * cols + c0 + c);  // in[r0 + r][c0 + c ..]
  }
  cp_async_wait_all();  // this thread's copies have landed
  __syncthreads();      // and everyone else's

  // Store phase: thread idx writes chunk q = idx % 16 of output rows j and j + 1 (j = 2 (idx
  // / 16)): output columns r0 + q V .. r0 + q V + V - 1, i.e. tile rows q V .. q V + V - 1
  // of tile columns j and j + 1. A warp writes 256 bytes of each of 4 output rows.
  // Unrolled by 2 only: a full unroll would hold all the words of every chunk in registers.
#pragma unroll 2
  for (int i = 0; i < kLoads / 2; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int q = idx % kChunks, j = 2 * (idx / kChunks);  // chunk, first of the two output rows
    if (kEdge && (c0 + j >= std::size_t(cols) || r0 + q * kV >= std::size_t(rows))) continue;
    Pair<T> w[kV];  // one word per tile row: (column j, column j + 1)
#pragma unroll
    for (int k = 0; k < kV; ++k) {
      const int r = q * kV + k;  // tile row = output column r0 + r
      w[k] = *reinterpret_cast<const Pair<T>*>(&tile[r * kN + slot<T>(r, j)]);
    }
    uint4 first, second;  // output row c0 + j and output row c0 + j + 1, 16 bytes each
    split_pairs<T>(w, first, second);
    T* p = out + (c0 + j) * rows + r0 + q * kV;  // out[c0 + j][r0 + q V ..], 16-byte aligned
    store16_evict_first(p, first);
    store16_evict_first(p + rows, second);  // cols is even: row c0 + j + 1 exists
  }
  __syncthreads();  // the tile is free for the next one
}
// [tile]

// [coarsen]
/// One block moves one tile at a time (grid-stride over `slots`). Slot u -> tile t: with two
/// regions, the even slots take tiles from the first half of the order, the odd slots from
/// the second half. Tile t -> tile row t % tiles_y, tile column t / tiles_y: down the tile
/// columns of `in`, i.e. along the tile rows of `out`.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    coarsen_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols, std::size_t tiles_y,
                   std::size_t tiles, unsigned regions) {
  constexpr int kN = kSide<T>;
  __shared__ uint4 smem[kN * kN * sizeof(T) / 16];  // uint4: 16-byte aligned rows
  T* tile = reinterpret_cast<T*>(smem);              // kN x kN elements, swizzled

  const std::size_t per_region = (tiles + regions - 1) / regions;
  for (std::size_t u = blockIdx.x; u < per_region * regions; u += gridDim.x) {
    const std::size_t t = u % regions * per_region + u / regions;  // the tile of slot u
    if (t >= tiles) continue;                                      // a spare slot (the whole block)
    const std::size_t r0 = t % tiles_y * kN;  // first input row = first output column
    const std::size_t c0 = t / tiles_y * kN;  // first input column = first output row
    if (r0 + kN <= std::size_t(rows) && c0 + kN <= std::size_t(cols)) {
      move_tile<T, false>(tile, out, in, rows, cols, r0, c0);
    } else {
      move_tile<T, true>(tile, out, in, rows, cols, r0, c0);
    }
  }
}
// [coarsen]

/// Out-of-place transpose: `in` is rows x cols, row-major; `out` is cols x rows, row-major
/// (the two must not overlap).
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  if (!rows_16_aligned(out, in, rows, cols)) return transpose_elements(out, in, rows, cols, stream);
  const std::size_t tiles_y = ceil_div(std::size_t(rows), std::size_t(kSide<T>));
  const std::size_t tiles = tiles_y * ceil_div(std::size_t(cols), std::size_t(kSide<T>));
  const unsigned regions = pitch_is_128k_multiple<T>(cols) ? 2 : 1;
  const std::size_t slots = ceil_div(tiles, std::size_t(regions)) * regions;
  const unsigned blocks = unsigned(std::min<std::size_t>(slots, INT_MAX));  // beyond: the grid-stride loop
  coarsen_kernel<T><<<blocks, kThreads, 0, stream>>>(out, in, rows, cols, tiles_y, tiles, regions);
  TP_CHECK_LAUNCH("previous::coarsen_kernel");
}
// [launch]

}  // namespace tp::step07::previous
