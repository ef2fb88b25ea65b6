/// @file steps/05_shared/exercise.cuh
/// @brief Exercise 05: stage a 32 x 32 tile in shared memory, so that both global accesses
/// are coalesced.
///
/// The kernel below is step 05's shared_kernel with its three key lines taken out. The
/// launcher, the grid-stride loop over tile rows, the shared tile and the loops of the two
/// phases are done. Fill in the three TODOs: (1) the load of the tile from `in`, (2) the
/// wait for the whole tile, (3) the store to `out`, which is where the transpose happens.
///
/// The solution is this step's own kernel.cuh: tp::step05::shared_kernel. Read it only after
/// trying.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 05 --output-on-failure
///     build/bin/05_shared --exercise --predict P    # P: your prediction, % of cudaMemcpy
///
/// A missing barrier (TODO 2) is a race: the tests may still pass on your GPU, by luck of
/// scheduling. Racecheck reports it (the ctest entry exercise.05_shared.racecheck runs it):
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
      // TODO(1): if input element (row r0 + k, column c) is inside the matrix, copy it into
      //          the tile.
      //   Hint 1: this phase is step 00's copy: the warp's lanes walk along one input row,
      //           and keep the row a row in the tile.
      //   Hint 2: tile row k, tile column threadIdx.x. A row of `in` holds `cols` elements;
      //           compute the offset in 64 bits. Check the row against rows, c against cols.
      (void)c;  // delete this line when TODO(1) is done
    }
    // TODO(2): wait until every thread of the block has written its part of the tile.
    //   Hint 1: the store phase reads tile elements that OTHER warps wrote. Nothing orders
    //           warps of a block unless you ask for it.
    //   Hint 2: CUDA has a barrier for the threads of one block. Every thread of the block
    //           must reach it, so it goes outside any branch or loop that some threads skip.

    // Store: lane x writes out[c0 + k][r0 + x]: a warp writes 32 consecutive elements of one
    // output row.
    const unsigned oc = r0 + threadIdx.x;  // output column = input row
    for (int k = threadIdx.y; k < kTile; k += kBlockRows) {
      // TODO(3): if output element (row c0 + k, column oc) is inside the matrix, write to it
      //          the tile element that belongs there.
      //   Hint 1: output element (c0 + k, oc) is input element (oc, c0 + k). Where did the
      //           load phase put that one? Lane x reads a COLUMN of the tile here.
      //   Hint 2: input row oc = r0 + x is tile row threadIdx.x; input column c0 + k is tile
      //           column k. A row of `out` holds `rows` elements; 64-bit offset again.
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
