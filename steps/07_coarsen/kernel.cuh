/// @file steps/07_coarsen/kernel.cuh
/// @brief Step 07's headline, part (c): part (b)'s wide tiles with cp.async loads
/// (wide.cuh), taken in an order that keeps the blocks in flight apart in DRAM.
///
/// What changed from part (b): only which tile a block takes.
/// - Tile order: the blocks take the tiles down the tile columns of `in`, so the blocks in
///   flight write whole rows of `out` (part b goes along the tile rows of `in`).
/// - Where the rows of `in` lie a multiple of 128 KB apart, the blocks take the tiles from
///   two far-apart regions of the order at once.
/// - Shapes and pointers that rule out 16-byte accesses (rows or cols not a multiple of V,
///   a pointer not 16-byte aligned) take step 06's padded transpose: transpose_elements().
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>

#include "07_coarsen/wide.cuh"  // parts (a) and (b): the tile, its swizzle, move_tile
#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step07 {

// [coarsen]
/// One block moves one tile at a time, grid-stride over the turns (per_region x regions of
/// them; the launcher starts one block per turn where it can). Turn u -> tile t: with two
/// regions, the even turns take tiles from the first half of the order, the odd turns from
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
    const std::size_t t = u % regions * per_region + u / regions;  // the tile of turn u
    if (t >= tiles) continue;                                      // a spare turn (the whole block)
    const std::size_t r0 = t % tiles_y * kN;  // first input row = first output column
    const std::size_t c0 = t / tiles_y * kN;  // first input column = first output row
    move_any_tile<T, /*kAsync=*/true>(tile, out, in, rows, cols, r0, c0);
  }
}
// [coarsen]

/// Whether the rows of `in` lie a multiple of 128 KB apart. The blocks in flight then read
/// addresses that agree in their low 17 bits, and one region runs slower than two (measured
/// in the lab; that DRAM serves such addresses slowly is a hypothesis). With two regions of
/// tiles, consecutive blocks work half a matrix apart: half the blocks in flight agree in
/// those bits, not all of them.
template <typename T>
constexpr bool pitch_is_128k_multiple(int cols) {
  return std::size_t(cols) * sizeof(T) % (128 * 1024) == 0;
}

// [launch]
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
  const std::size_t turns = ceil_div(tiles, std::size_t(regions)) * regions;
  const unsigned blocks = unsigned(std::min<std::size_t>(turns, INT_MAX));  // beyond: the grid-stride loop
  coarsen_kernel<T><<<blocks, kThreads, 0, stream>>>(out, in, rows, cols, tiles_y, tiles, regions);
  TP_CHECK_LAUNCH("coarsen_kernel");
}
// [launch]

}  // namespace tp::step07
