/// @file steps/08_inplace/exercise.cuh
/// @brief Exercise 08: the tile pairs of an in-place transpose: which pair a block takes, and
/// why it must read both tiles before it writes either.
///
/// The kernel below is a short in-place transpose: 32 x 32-element tiles padded to 33
/// columns, 32 x 8 threads, one block per tile pair (i, j), i <= j. Left out of step 08's
/// kernel: the 16-byte accesses, cp.async, the cache hints, the swizzle and the two regions.
/// Fill in the two TODOs: (1) pair_of(), from a pair's number to its tiles; (2) the load of
/// the pair's second tile before the barrier.
///
/// The solution is this step's own kernel.cuh: tp::step08::pair_of, and in
/// tp::step08::inplace_kernel the second load_tile() before the barrier. Read it only after
/// trying.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 08 --output-on-failure
///     build/bin/08_inplace --exercise --predict P    # P: your prediction, % of cudaMemcpy
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step08::exercise {

constexpr int kTile = 32;  // tile side, elements
constexpr int kRows = 8;   // threads per block: kTile x kRows, each moving kTile / kRows elements per tile

/// Tile pair p -> tile (i, j), i <= j: the pairs are numbered column by column through the
/// upper triangle of the tiles, diagonal included: p = j (j + 1) / 2 + i, so pairs 0, 1, 2,
/// 3, 4, 5 are tiles (0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2).
__host__ __device__ inline void pair_of(std::size_t p, std::size_t& i, std::size_t& j) {
  // TODO(1): set i and j, i <= j, such that p = j (j + 1) / 2 + i.
  //   Hint 1: tile column j holds j + 1 pairs (tiles (0, j) .. (j, j)), so the columns
  //           before column j hold j (j + 1) / 2 pairs together. Find the column first, then
  //           the place in it.
  //   Hint 2: j is the largest column whose pairs-before count does not pass p; i is what
  //           is left of p. A loop over the columns finds j, but every thread runs it for
  //           every pair (up to 256 steps at n = 8192): measure it. Step 08 solves the
  //           quadratic instead, then corrects the rounding.
  (void)p;  // delete this line and the two below when the TODO is done
  i = 0;
  j = 0;
}

template <typename T>
__global__ void inplace_kernel(T* data, int n, std::size_t pairs) {
  __shared__ T tile[2][kTile][kTile + 1];  // the pair's two tiles, padded against bank conflicts
  for (std::size_t p = blockIdx.x; p < pairs; p += gridDim.x) {
    std::size_t ti, tj;
    pair_of(p, ti, tj);  // this block owns tile (ti, tj) and tile (tj, ti)
    const bool diagonal = ti == tj;
    // Load phase: tile (ti, tj) into tile[0]; tile (tj, ti) into tile[1].
    for (int k = 0; k < kTile; k += kRows) {
      const std::size_t r = ti * kTile + threadIdx.y + k, c = tj * kTile + threadIdx.x;
      if (r < std::size_t(n) && c < std::size_t(n)) tile[0][threadIdx.y + k][threadIdx.x] = data[r * n + c];
      // TODO(2): unless the pair is diagonal, load element (threadIdx.y + k, threadIdx.x) of
      //          the pair's other tile, (tj, ti), into tile[1].
      //   Hint 1: after the barrier this block writes over BOTH tiles of its pair, each with
      //           the other's transpose. Whatever it has not read by then is lost.
      //   Hint 2: the line above, with the tile's coordinates swapped (tile row tj, tile
      //           column ti) and buffer 1, with the same edge checks. A diagonal tile is its
      //           own pair: it was loaded once already.
    }
    __syncthreads();  // both tiles are read before either is overwritten
    // Store phase: tile[0] transposed goes where tile (tj, ti) was, tile[1] transposed where
    // tile (ti, tj) was. Element (x, y) of a tile is element (y, x) of its transpose.
    for (int k = 0; k < kTile; k += kRows) {
      const int y = threadIdx.y + k, x = threadIdx.x;
      const std::size_t r = tj * kTile + y, c = ti * kTile + x;  // in tile (tj, ti)
      if (r < std::size_t(n) && c < std::size_t(n)) data[r * n + c] = tile[0][x][y];
      const std::size_t r2 = ti * kTile + y, c2 = tj * kTile + x;  // in tile (ti, tj)
      if (!diagonal && r2 < std::size_t(n) && c2 < std::size_t(n)) data[r2 * n + c2] = tile[1][x][y];
    }
    __syncthreads();  // the tiles are free for the next pair
  }
}

/// In-place transpose of the n x n matrix `data` (square only; n < 0 throws).
template <typename T>
void transpose_inplace(T* data, int n, cudaStream_t stream = 0) {
  check_shape(n, n);
  if (n == 0) return;
  const std::size_t tiles = ceil_div(std::size_t(n), std::size_t(kTile));
  const std::size_t pairs = tiles * (tiles + 1) / 2;
  const unsigned blocks = unsigned(std::min<std::size_t>(pairs, INT_MAX));
  inplace_kernel<<<blocks, dim3(kTile, kRows), 0, stream>>>(data, n, pairs);
  TP_CHECK_LAUNCH("exercise inplace_kernel");
}

}  // namespace tp::step08::exercise
