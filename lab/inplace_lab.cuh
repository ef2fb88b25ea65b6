/// @file lab/inplace_lab.cuh
/// @brief The lab's in-place research kernel: step 08's kernel with its variants as template
/// parameters (grid, store width, regions, tile and block size), for the tuning program.
///
/// What step 08 does, and what the variants change:
/// - There is one buffer. Element (r, c) and element (c, r) swap places, so tile (i, j) and
///   tile (j, i) swap places: ONE block takes the PAIR, reads both tiles into shared memory,
///   and only then writes each one, transposed, where the other was. No other block touches
///   these two tiles, so no block can read what another has already overwritten.
/// - A diagonal tile (i, i) is its own pair: the block reads it, then writes it back
///   transposed, in place.
/// - The grid covers only the pairs: tile pair p (0 <= p < m (m + 1) / 2, for m x m tiles)
///   is tile (i, j) with i <= j and p = j (j + 1) / 2 + i. A square grid of m x m blocks in
///   which the blocks below the diagonal return at once would launch twice the blocks, half
///   of them idle (`Grid::square`, measured in the chapter).
/// - The blocks take the pairs from two interleaved regions (coarsen::detail::interleaved):
///   the blocks in flight work in two far-apart groups of tile columns. In one region, at a
///   row pitch of exactly 128 KB, all their column-side accesses line up and the kernel runs
///   slower (measured: the lab chapter, "Regions"; that DRAM is what slows is a hypothesis).
/// - Everything step 07 learned stays: tiles of 256 x 256 bytes, 16-byte loads by cp.async
///   straight into shared memory, 16-byte evict-first stores packed in registers, 256 bytes
///   of an output row per warp, the 16-byte swizzle. Two tiles per block: twice step 07's
///   shared memory.
/// - Shapes with n not a multiple of V = 16 / sizeof(T), or an unaligned pointer, take an
///   element path with 32 x 32-element tiles and step 06's XOR swizzle.
///
/// Only square matrices: the in-place transpose of a rectangle moves elements along cycles
/// of a permutation, not between tile pairs (see the chapter's look ahead).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "08_inplace/kernel.cuh"  // pair_of
#include "tile_parts.cuh"  // slot, store_chunk, store16, pack16, interleaved
#include "tp/async.cuh"
#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::lab::inplace {

/// How the blocks are laid over the tile pairs of an m x m-tile matrix.
enum class Grid {
  square,     ///< m x m blocks, one per tile; the blocks below the diagonal return at once
  columns,    ///< m (m + 1) / 2 blocks, one per pair, numbered column by column (pair_of)
  diagonals,  ///< m (m + 1) / 2 blocks, one per pair, numbered diagonal by diagonal
};

namespace detail {

using step08::pair_of;  // tile pair p -> its tile (i, j), numbered column by column

// [diagonal]
/// Tile pair p -> its tile (i, j = i + d) when the pairs of m x m tiles are numbered diagonal
/// by diagonal: diagonal d (j - i = d) holds m - d pairs, and the diagonals before it hold
/// first(d) = d m - d (d - 1) / 2. The blocks that run at once then take tiles of many tile
/// rows AND many tile columns, where column numbering gives them one tile column.
__host__ __device__ inline void pair_on_diagonal(std::size_t p, std::size_t m, std::size_t& i, std::size_t& j) {
  auto first = [m](std::size_t d) { return d * m - d * (d - 1) / 2; };  // pairs before diagonal d
  const double b = 2.0 * double(m) + 1.0;
  std::size_t d = std::size_t((b - sqrt(b * b - 8.0 * double(p))) / 2.0);  // first(d) <= p, up to rounding
  while (d > 0 && first(d) > p) --d;
  while (d + 1 < m && first(d + 1) <= p) ++d;
  i = p - first(d);
  j = i + d;
}
// [diagonal]

}  // namespace detail

// [inplace]
/// One block swaps one tile pair at a time (grid-stride over the pairs, taken from kRegions
/// interleaved regions: coarsen::detail::interleaved). kTile: tile side in elements. kWide:
/// the 16-byte path (n a multiple of V, 16-byte aligned data).
/// Shared memory (dynamic): two kTile x kTile tiles.
template <typename T, int kTile, int kThreads, bool kWide, Grid kGrid, int kStoreBytes, unsigned kRegions>
__global__ void __launch_bounds__(kThreads)
    inplace_kernel(T* data, int n, std::size_t tiles_per_side, std::size_t blocks_needed) {
  constexpr int kV = 16 / sizeof(T);                         // elements per 16-byte chunk
  constexpr int kE = kWide ? kV : 1;                         // elements per global access
  constexpr int kAccesses = kTile * kTile / kE / kThreads;   // per thread, per tile and phase
  static_assert(kAccesses >= 1 && kTile * kTile % (kE * kThreads) == 0, "whole accesses per thread");

  extern __shared__ uint4 smem[];  // two tiles; uint4: 16-byte aligned rows
  auto at = [&](int buffer, int r, int c) -> T& {  // element (r, c) of a tile, swizzled
    return reinterpret_cast<T*>(smem)[(buffer * kTile + r) * kTile + coarsen::detail::slot<T, kTile, kWide>(r, c)];
  };

  // Tile (ti, tj) -> shared buffer. Consecutive threads take consecutive accesses along a row.
  auto load_tile = [&](int buffer, std::size_t ti, std::size_t tj) {
    const std::size_t r0 = ti * kTile, c0 = tj * kTile;  // the tile's corner
#pragma unroll
    for (int a = 0; a < kAccesses; ++a) {
      const int idx = threadIdx.x + a * kThreads;
      const int r = idx / (kTile / kE), c = idx % (kTile / kE) * kE;  // tile row, first column
      if (r0 + r >= std::size_t(n) || c0 + c >= std::size_t(n)) continue;
      const T* p = data + (r0 + r) * n + c0 + c;
      if constexpr (kWide) tp::cp_async16(&at(buffer, r, c), p);
      else at(buffer, r, c) = *p;
    }
  };

  // Shared buffer (the tile that was at (ti, tj)) -> tile (tj, ti), transposed: output row
  // c0 + j gets tile column j. 16-byte path: a warp writes kStoreBytes of each of
  // 512 / kStoreBytes output rows (step 07's store phase); element path: 32 consecutive
  // elements of one output row.
  auto store_tile_transposed = [&](int buffer, std::size_t ti, std::size_t tj) {
    const std::size_t r0 = ti * kTile, c0 = tj * kTile;
#pragma unroll 2
    for (int a = 0; a < kAccesses; ++a) {
      const int idx = threadIdx.x + a * kThreads;
      int q, j;  // chunk (or element) q of output row j, counted from the tile's corner
      if constexpr (kWide) {
        coarsen::detail::store_chunk<kTile / kV, kStoreBytes / 16>(idx, q, j);
      } else {
        q = idx % kTile;
        j = idx / kTile;
      }
      if (c0 + j >= std::size_t(n) || r0 + q * kE >= std::size_t(n)) continue;
      T* p = data + (c0 + j) * n + r0 + q * kE;
      if constexpr (kWide) {
        // Column j of kV tile rows, as step 07 stores it.
        coarsen::detail::store16<true>(p, coarsen::detail::pack16<T>([&](int k) { return at(buffer, q * kV + k, j); }));
      } else {
        *p = at(buffer, q, j);
      }
    }
  };

  for (std::size_t u = blockIdx.x; u < coarsen::detail::interleaved_slots(blocks_needed, kRegions); u += gridDim.x) {
    const std::size_t b = coarsen::detail::interleaved(u, blocks_needed, kRegions);  // = u in one region
    if (b >= blocks_needed) continue;  // a spare slot (the whole block skips it)
    std::size_t ti, tj;  // this block's pair: tile (ti, tj) and tile (tj, ti), ti <= tj
    if constexpr (kGrid == Grid::columns) {
      detail::pair_of(b, ti, tj);
    } else if constexpr (kGrid == Grid::diagonals) {
      detail::pair_on_diagonal(b, tiles_per_side, ti, tj);
    } else {
      ti = b / tiles_per_side;  // the square grid: one block per tile,
      tj = b % tiles_per_side;
      if (ti > tj) continue;  // and the blocks below the diagonal have nothing to do
    }
    const bool diagonal = ti == tj;
    // Read BOTH tiles before writing either: the pair's writes land on each other's reads.
    load_tile(0, ti, tj);
    if (!diagonal) load_tile(1, tj, ti);
    if constexpr (kWide) tp::cp_async_wait_all();
    __syncthreads();
    store_tile_transposed(0, ti, tj);                  // (ti, tj)^T -> (tj, ti)
    if (!diagonal) store_tile_transposed(1, tj, ti);   // (tj, ti)^T -> (ti, tj)
    __syncthreads();  // the buffers are free for the next pair
  }
}
// [inplace]

/// The step's in-place transpose with a chosen tile (bytes of a tile row, 16-byte path),
/// block size, grid (see Grid), store width (bytes of an output row that a warp writes in
/// one 16-byte store: 128 or 256, see coarsen::detail::store_chunk) and number of
/// interleaved regions of pairs (1: the grid's own order).
// [launch]
template <int kBytes, int kThreads, Grid kGrid, int kStoreBytes, unsigned kRegions, typename T>
void transpose_inplace_with(T* data, int n, cudaStream_t stream = 0) {
  check_shape(n, n);
  if (n == 0) return;
  constexpr int kV = 16 / sizeof(T);
  const bool wide = n % kV == 0 && reinterpret_cast<std::uintptr_t>(data) % 16 == 0;
  auto launch = [&](auto kernel, int tile) {
    const std::size_t tiles = ceil_div(std::size_t(n), std::size_t(tile));  // per side
    const std::size_t needed = kGrid == Grid::square ? tiles * tiles : tiles * (tiles + 1) / 2;
    const std::size_t shared = 2 * std::size_t(tile) * tile * sizeof(T);  // two tiles
    allow_shared_memory(kernel, shared);
    const unsigned blocks = unsigned(std::min<std::size_t>(coarsen::detail::interleaved_slots(needed, kRegions), INT_MAX));
    kernel<<<blocks, kThreads, shared, stream>>>(data, n, tiles, needed);
    TP_CHECK_LAUNCH("inplace_kernel");
  };
  constexpr int kWideTile = kBytes / sizeof(T);  // 64 float, 128 half, 32 double for 256 bytes
  if (wide) launch(inplace_kernel<T, kWideTile, kThreads, true, kGrid, kStoreBytes, kRegions>, kWideTile);
  else launch(inplace_kernel<T, 32, kThreads, false, kGrid, kStoreBytes, kRegions>, 32);
}
// [launch]

}  // namespace tp::lab::inplace
