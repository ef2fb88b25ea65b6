/// @file steps/05_shared/exercise.cuh
/// @brief Exercise 05: stage a 32 x 32 tile in shared memory, so that both global accesses
/// are coalesced.
///
/// The kernel below is step 05's shared_kernel with its three key lines taken out. The
/// launcher, the grid-stride loop over tile rows, the shared tile and the loops of the two
/// phases are done. Fill in the three TODOs: (1) copy a row of the input tile into a row of
/// `tile` (a warp reads 32 consecutive input elements), (2) wait until the whole block has
/// filled the tile, (3) write a COLUMN of `tile` as a row of the output (a warp writes 32
/// consecutive output elements).
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 05 --output-on-failure
///     build/bin/05_shared --exercise        # your kernel as an extra row
///
/// A missing __syncthreads (TODO 2) is a race: it may still pass the tests on your GPU, by
/// luck of scheduling. Racecheck reports it (the command of the chapter):
///     compute-sanitizer --tool racecheck build/bin/tp_exercise_tests --gtest_filter='*Exercise05*'
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step05::exercise {

constexpr int kTile = 32;              // the tile is kTile x kTile elements; a warp covers one tile row
constexpr int kBlockRows = 8;          // warps per block: each thread moves kTile / kBlockRows = 4 elements
constexpr unsigned kMaxGridY = 65535;  // the grid's y limit; tile rows beyond it are covered by the loop

template <typename T>
__global__ void shared_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  __shared__ T tile[kTile][kTile];  // unpadded: for 4-byte T, tile[r][c] is in bank c

  const unsigned c0 = blockIdx.x * kTile;                  // first input column of the tile
  const unsigned tiles_y = (unsigned(rows) + kTile - 1) / kTile;
  for (unsigned ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {  // grid-stride over tile rows
    const unsigned r0 = ty * kTile;                        // first input row of the tile

    // Load: lane x reads in[r0 + k][c0 + x]: a warp reads 32 consecutive elements of one row.
    const unsigned c = c0 + threadIdx.x;  // this lane's input column
    for (int k = threadIdx.y; k < kTile; k += kBlockRows) {
      // TODO(1): if input element (row r0 + k, column c) is inside the matrix
      //          (r0 + k < rows and c < cols), copy it into tile row k, column threadIdx.x.
      //          Hint: its offset in `in` is std::size_t(r0 + k) * cols + c (64-bit before the
      //          multiplication: the matrix may hold more than 2^31 elements).
      (void)c;  // delete this line when TODO(1) is done
    }
    // TODO(2): wait until every thread of the block has written its part of the tile: the
    //          store phase reads elements that OTHER warps loaded.

    // Store: lane x writes out[c0 + k][r0 + x]: a warp writes 32 consecutive elements of one
    // output row, taken from COLUMN k of the tile: tile[x][k], 32 lanes in one bank.
    const unsigned oc = r0 + threadIdx.x;  // output column = input row
    for (int k = threadIdx.y; k < kTile; k += kBlockRows) {
      // TODO(3): if output element (row c0 + k, column oc) is inside the matrix
      //          (c0 + k < cols and oc < rows), write to it the element of tile COLUMN k that
      //          belongs to this lane: tile[threadIdx.x][k] (input element (oc, c0 + k)).
      //          Hint: `out` is cols x rows, so the offset is std::size_t(c0 + k) * rows + oc.
      (void)oc, (void)tile;  // delete this line when TODO(3) is done
    }
    __syncthreads();  // everyone is done reading before the next iteration overwrites the tile
  }
}

/// Same API as tp::step05::transpose.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  const dim3 block(kTile, kBlockRows);
  const dim3 grid(ceil_div(unsigned(cols), kTile),                        // x: tile columns, up to 2^26
                  std::min(ceil_div(unsigned(rows), kTile), kMaxGridY));  // y: tile rows; beyond, the loop
  shared_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("exercise::shared_kernel");
}

}  // namespace tp::step05::exercise
