/// @file steps/01_naive_row/exercise.cuh
/// @brief Exercise 01: write the naive transpose's index maths yourself.
///
/// The launcher and the loop are done: one thread per element, blocks of 32 x 8 threads,
/// the thread for input element (r, c) already knows the input offset `i`. Fill in the two
/// TODOs in the kernel: where element (r, c) goes in the output, and the store itself.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 01 --output-on-failure
///     build/bin/01_naive_row --exercise        # your kernel as an extra row
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step01::exercise {

constexpr int kTileCols = 32;          // threads along an input row: a warp reads 32 consecutive elements
constexpr int kTileRows = 8;           // warps per block, one input row each
constexpr unsigned kMaxGridY = 65535;  // the grid's y limit; rows beyond it are covered by the loop

template <typename T>
__global__ void naive_row_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  const int c = blockIdx.x * kTileCols + threadIdx.x;  // input column = output row; lanes: c, c+1, ...
  if (c >= cols) return;
  for (unsigned r = blockIdx.y * kTileRows + threadIdx.y; r < unsigned(rows); r += gridDim.y * kTileRows) {
    // [[maybe_unused]] only lets the file compile before the TODOs are done.
    [[maybe_unused]] const std::size_t i = std::size_t(r) * cols + c;  // in (rows x cols): (r, c)

    // TODO(1): the offset `o` of element (c, r) in `out`, which is cols x rows, row-major:
    //          const std::size_t o = ...;
    //          Hint: row c of `out` starts `c * rows` elements in. Convert c to std::size_t
    //          before multiplying: the product exceeds 2^31 for large matrices.

    // TODO(2): copy the element: read it from `in` at offset i, write it to `out` at offset o.
  }
}

/// Same API as tp::step01::transpose.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  const dim3 block(kTileCols, kTileRows);
  const dim3 grid(ceil_div(unsigned(cols), kTileCols),                        // x: up to 2^31 - 1 blocks
                  std::min(ceil_div(unsigned(rows), kTileRows), kMaxGridY));  // y: rows beyond, the loop
  naive_row_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("exercise::naive_row_kernel");
}

}  // namespace tp::step01::exercise
