/// @file steps/06_padded/exercise.cuh
/// @brief Exercise 06: remove step 05's bank conflicts with an XOR swizzle instead of padding.
///
/// The kernel below is step 06's tiled_kernel with a 32 x 32 tile, 32 x 8 threads and an
/// UNPADDED `T tile[32][32]`, in which both phases find element (r, c) of the tile at column
/// slot(r, c) of shared row r. It is complete; only slot() is yours. As shipped, slot()
/// returns c: the results are correct, but every column read of the store phase is a 32-way
/// bank conflict, exactly as in step 05. Make slot() permute each row so that the 32 elements
/// of any tile COLUMN land in 32 different banks.
///
/// Check your work (the tests fail until the TODO is done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 06 --output-on-failure
///     build/bin/06_padded --exercise        # your kernel as an extra row
///
/// Since a conflicting kernel is still correct, the test that decides is a CPU one: it checks
/// slot() itself (a permutation of every row; 32 banks for every column, for 4-byte elements).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step06::exercise {

constexpr int kTile = 32;              // the tile is kTile x kTile elements; a warp covers one tile row
constexpr int kBlockRows = 8;          // warps per block: each thread moves kTile / kBlockRows = 4 elements
constexpr unsigned kMaxGridY = 65535;  // the grid's y limit; tile rows beyond it are covered by the loop

/// Shared-memory column of tile element (r, c), r and c in [0, 32). For 4-byte T a tile row
/// is 128 bytes, one word per bank, so element (r, c) ends up in bank slot(r, c).
__host__ __device__ constexpr int slot(int r, int c) {
  // TODO: return a column that depends on r as well as c, so that
  //       - within a row r, the columns c = 0 .. 31 go to 32 different slots (nothing is
  //         overwritten, and the load phase's row writes stay conflict-free), and
  //       - within a column c, the rows r = 0 .. 31 go to 32 different slots (the store
  //         phase's column reads are conflict-free).
  //       Hint: c ^ r (XOR). 32 is a power of two, so c ^ r stays in [0, 32); for a fixed r,
  //       XOR with r is a permutation of [0, 32), and so it is for a fixed c.
  (void)r;  // delete this line when the TODO is done
  return c;
}

template <typename T>
__global__ void swizzled_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
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
  swizzled_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("exercise::swizzled_kernel");
}

}  // namespace tp::step06::exercise
