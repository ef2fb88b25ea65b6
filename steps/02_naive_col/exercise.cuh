/// @file steps/02_naive_col/exercise.cuh
/// @brief Exercise 02: write the transpose with threads along the output rows yourself.
///
/// The launcher and the loop are done: lane threadIdx.x owns output column `oc`, and the loop
/// walks the output rows `orow` this thread is responsible for. Fill in the two TODOs in the
/// loop: the strided load from `in` and the coalesced store to `out`.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 02 --output-on-failure
///     build/bin/02_naive_col --exercise        # your kernel as a third row
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step02::exercise {

constexpr int kTileCols = 32;          // threads along an output row
constexpr int kTileRows = 8;           // warps per block, one output row each
constexpr unsigned kMaxGridY = 65535;  // the grid's y limit; output rows beyond it are covered by the loop

template <typename T>
__global__ void naive_col_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  // in is rows x cols, out is cols x rows (both row-major).
  const int oc = blockIdx.x * kTileCols + threadIdx.x;  // output column = input row, 0..rows-1
  if (oc >= rows) return;
  for (unsigned orow = blockIdx.y * kTileRows + threadIdx.y; orow < unsigned(cols); orow += gridDim.y * kTileRows) {
    // orow: output row = input column, 0..cols-1.

    // TODO(1): load the element this thread moves: row oc, column orow of `in`, into
    //          `const T v = in[...];`. Hint: a row of `in` holds `cols` elements; compute the
    //          offset in 64 bits (std::size_t(oc) * cols + ...), since rows x cols may exceed 2^31.

    // TODO(2): store v to row orow, column oc of `out`. A row of `out` holds `rows` elements;
    //          64-bit offset again. Consecutive lanes (consecutive oc) must store to
    //          consecutive addresses: that is what makes this store coalesced.
  }
}

/// Same API as tp::step02::transpose.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  const dim3 block(kTileCols, kTileRows);
  const dim3 grid(ceil_div(unsigned(rows), kTileCols),                        // output columns
                  std::min(ceil_div(unsigned(cols), kTileRows), kMaxGridY));  // output rows beyond: loop
  naive_col_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("exercise::naive_col_kernel");
}

}  // namespace tp::step02::exercise
