/// @file steps/01_naive_row/exercise.cuh
/// @brief Exercise 01: the first transpose: read element (r, c), write it to (c, r).
///
/// The kernel below is step 01's naive_row_kernel with its two key lines taken out. The
/// launcher and the loop are done: one thread per element, blocks of 32 x 8 threads, and the
/// thread for input element (r, c) already knows its input offset `i`. Fill in the two TODOs:
/// (1) where element (r, c) goes in the output, (2) the copy itself.
///
/// The solution is this step's own kernel.cuh: tp::step01::naive_row_kernel. Read it only
/// after trying.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 01 --output-on-failure
///     build/bin/01_naive_row --exercise --predict P    # P: your prediction, % of cudaMemcpy
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step01::exercise {

constexpr int kTileCols = 32;          // threads along an input row: a warp reads 32 consecutive elements
constexpr int kTileRows = 8;           // warps per block, one input row each

template <typename T>
__global__ void naive_row_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  const int c = blockIdx.x * kTileCols + threadIdx.x;  // input column = output row; lanes: c, c+1, ...
  if (c >= cols) return;
  for (unsigned r = blockIdx.y * kTileRows + threadIdx.y; r < unsigned(rows); r += gridDim.y * kTileRows) {
    // [[maybe_unused]] only lets the file compile before the TODOs are done: delete it then.
    [[maybe_unused]] const std::size_t i = std::size_t(r) * cols + c;  // in (rows x cols): (r, c)

    // TODO(1): `const std::size_t o = ...;` the offset of element (c, r) in `out`.
    //   Hint 1: `out` is the transpose, cols x rows, row-major: the offset of a row-major
    //           element is (its row) x (the length of a row) + (its column), as for i.
    //   Hint 2: in `out`, which of c and r is the row, and how many elements does a row of
    //           `out` hold? Convert to std::size_t before multiplying: it can pass 2^31.

    // TODO(2): copy the element: read `in` at offset i, write `out` at offset o.
    //   Hint: one load and one store; the whole transpose is in the two offsets.
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
