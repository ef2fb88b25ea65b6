/// @file steps/06_padded/exercise.cuh
/// @brief Exercise 06: remove step 05's bank conflicts with a swizzle instead of padding.
///
/// The kernel below is step 06's tiled_kernel with the swizzled layout: a 32 x 32 tile, 32 x 8
/// threads and an UNPADDED `T tile[32][32]`, in which both phases find element (r, c) of the
/// tile at column slot(r, c) of shared row r. It is complete; only slot() is yours. As
/// shipped, slot() returns c: the results are correct, but every column read of the store
/// phase is a bank conflict, as in step 05. Make slot() move the elements within each row so
/// that the 32 elements of any tile COLUMN are spread over the banks.
///
/// The solution is this step's own kernel.cuh: tp::step06::slot with Layout::swizzled. Read
/// it only after trying.
///
/// Check your work (the tests fail until the TODO is done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 06 --output-on-failure
///     build/bin/06_padded --exercise --predict P    # P: your prediction, % of cudaMemcpy
///
/// A conflicted kernel is still correct, so the tests that decide run on the CPU: slot() must
/// permute every row, and the store phase's column reads must take the fewest wavefronts
/// that the bank model (tests/exercises/banks.hpp) allows, for 2-, 4- and 8-byte elements.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step06::exercise {

constexpr int kTile = 32;              // the tile is kTile x kTile elements; a warp covers one tile row
constexpr int kBlockRows = 8;          // warps per block: each thread moves kTile / kBlockRows = 4 elements

/// Shared-memory column of tile element (r, c), r and c in [0, 32). For 4-byte T a tile row
/// is 128 bytes, one word per bank, so element (r, c) ends up in bank slot(r, c).
__host__ __device__ constexpr int slot(int r, int c) {
  // TODO: return a column that depends on r as well as c, so that
  //       - within a row r, the columns c = 0 .. 31 go to 32 different slots (nothing is
  //         overwritten, and the load phase's row writes stay conflict-free), and
  //       - within a column c, the rows r = 0 .. 31 go to 32 different slots (the store
  //         phase's warp reads rows 0 .. 31 of one column at once: 32 different banks).
  //   Hint 1: you need a function of (r, c) that is a permutation of 0 .. 31 in c for every
  //           fixed r, and a permutation in r for every fixed c. Step 06's padding gets
  //           there by shifting row r by r banks; the swizzle keeps rows 32 wide and mixes
  //           the bits of r into c instead.
  //   Hint 2: think of r and c as 5-bit numbers. A bitwise operator does it: it acts on each
  //           bit on its own (no carry, so the result stays in 0 .. 31), and applied twice
  //           with the same r it gives c back, so it permutes every row and every column.
  (void)r;  // delete this line when the TODO is done
  return c;
}

template <typename T>
__global__ void tiled_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  __shared__ T tile[kTile][kTile];  // unpadded: element (r, c) of the tile is at tile[r][slot(r, c)]

  const unsigned c0 = blockIdx.x * kTile;  // first input column of the tile
  const unsigned tiles_y = (unsigned(rows) + kTile - 1) / kTile;
  for (unsigned ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {  // grid-stride over tile rows
    const unsigned r0 = ty * kTile;                               // first input row of the tile

    // Load: lane x reads in[r0 + k][c0 + x], coalesced, into tile row k.
    const unsigned c = c0 + threadIdx.x;
    for (int k = threadIdx.y; k < kTile; k += kBlockRows) {
      if (r0 + k < unsigned(rows) && c < unsigned(cols)) {
        tile[k][slot(k, threadIdx.x)] = in[std::size_t(r0 + k) * cols + c];
      }
    }
    __syncthreads();

    // Store: lane x writes out[c0 + k][r0 + x], coalesced, from tile column k: tile row x,
    // a different bank for every lane once slot() is right.
    const unsigned oc = r0 + threadIdx.x;  // output column = input row
    for (int k = threadIdx.y; k < kTile; k += kBlockRows) {
      if (c0 + k < unsigned(cols) && oc < unsigned(rows)) {
        out[std::size_t(c0 + k) * rows + oc] = tile[threadIdx.x][slot(threadIdx.x, k)];
      }
    }
    __syncthreads();  // everyone is done reading before the next iteration overwrites the tile
  }
}

/// Same API as tp::step06::transpose.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  const dim3 block(kTile, kBlockRows);
  const dim3 grid(ceil_div(unsigned(cols), kTile),                        // x: tile columns
                  std::min(ceil_div(unsigned(rows), kTile), kMaxGridY));  // y: tile rows; beyond, the loop
  tiled_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("exercise::tiled_kernel");
}

}  // namespace tp::step06::exercise
