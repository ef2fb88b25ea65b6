/// @file steps/02_naive_col/exercise.cuh
/// @brief Exercise 02: lay the threads along the OUTPUT rows, so that the store is coalesced
/// and the load strided.
///
/// The kernel below is step 02's naive_col_kernel with its two key lines taken out. The
/// launcher and the loop are done: lane threadIdx.x owns output column `oc`, and the loop
/// walks the output rows `orow` of this thread. Fill in the two TODOs: (1) the offset of the
/// element in `in`, (2) its offset in `out`, and the copy.
///
/// The solution is this step's own kernel.cuh: tp::step02::naive_col_kernel. Read it only
/// after trying.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 02 --output-on-failure
///     build/bin/02_naive_col --exercise --predict P    # P: your prediction, % of cudaMemcpy
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step02::exercise {

constexpr int kTileCols = 32;          // threads along an output row
constexpr int kTileRows = 8;           // warps per block, one output row each

template <typename T>
__global__ void naive_col_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  // in is rows x cols, out is cols x rows (both row-major).
  const int oc = blockIdx.x * kTileCols + threadIdx.x;  // output column = input row, 0..rows-1
  if (oc >= rows) return;
  for (unsigned orow = blockIdx.y * kTileRows + threadIdx.y; orow < unsigned(cols); orow += gridDim.y * kTileRows) {
    // orow: output row = input column, 0..cols-1.

    // TODO(1): `const std::size_t i = ...;` the offset in `in` of the element this thread
    //          moves to output element (orow, oc).
    //   Hint 1: which input element ends up at output row orow, column oc? Its row in `in`
    //           is one of oc and orow, its column the other.
    //   Hint 2: a row of `in` holds `cols` elements. Convert to std::size_t before
    //           multiplying: rows x cols may exceed 2^31. Lanes end up `cols` apart here.

    // TODO(2): `const std::size_t o = ...;` the offset of output element (orow, oc), then
    //          copy the element from `in` at i to `out` at o.
    //   Hint 1: consecutive lanes have consecutive oc; for the store to be coalesced, o must
    //           grow by exactly 1 from one lane to the next.
    //   Hint 2: a row of `out` holds `rows` elements; 64-bit offset again.
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
