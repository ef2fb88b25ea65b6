/// @file steps/03_unroll/exercise.cuh
/// @brief Exercise 03: write the unrolled loads and stores yourself.
///
/// The kernel below is step 03's transpose_unroll<4> with its two key lines taken out. The
/// launcher, the grid-stride loop over passes and the register array `v` are done. Fill in
/// the two TODOs so that each thread first loads its four input elements into `v`, all four
/// before any store, and then stores them to the output.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 03 --output-on-failure
///     build/bin/03_unroll --exercise        # your kernel as an extra row
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step03::exercise {

constexpr int kTileCols = 32;  // threads along an output row (threadIdx.x)
constexpr int kTileRows = 8;   // warps per block (threadIdx.y), output rows 8 apart
constexpr int kUnroll = 4;     // output rows per thread per pass: K
constexpr unsigned kMaxGridY = 65535;

template <typename T>
__global__ void transpose_unroll_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  constexpr unsigned kRowsPerPass = kTileRows * kUnroll;  // output rows one block covers: 32
  const int oc = blockIdx.x * kTileCols + threadIdx.x;    // output column = input row, < rows
  if (oc >= rows) return;
  // [[maybe_unused]] only keeps the compiler quiet until your code uses the variable.
  [[maybe_unused]] const std::size_t in_row = std::size_t(oc) * cols;  // input row oc starts here
  const unsigned out_rows = cols;                                      // output rows = input columns
  const unsigned stride = gridDim.y * kRowsPerPass;                    // output rows the grid covers
  for (unsigned r0 = blockIdx.y * kRowsPerPass + threadIdx.y; r0 < out_rows; r0 += stride) {
    T v[kUnroll];  // one register per output row: all loads before the first store
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      [[maybe_unused]] const unsigned orow = r0 + k * kTileRows;  // output row = input column
      // TODO(1): if orow is inside the matrix (orow < out_rows), load input element
      //          (row oc, column orow) into v[k].
      //          Hint: its offset in `in` is in_row + orow.
    }
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) {
      [[maybe_unused]] const unsigned orow = r0 + k * kTileRows;
      // TODO(2): if orow < out_rows, store v[k] to output element (row orow, column oc).
      //          Hint: `out` is cols x rows, so the offset is std::size_t(orow) * rows + oc
      //          (64-bit before the multiplication: the matrix may hold more than 2^31 elements).
    }
  }
}

/// Same API as tp::step03::transpose.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  constexpr unsigned kRowsPerPass = kTileRows * kUnroll;
  const dim3 block(kTileCols, kTileRows);
  const dim3 grid(ceil_div(unsigned(rows), kTileCols),  // x: 32 output columns per block
                  std::min(ceil_div(unsigned(cols), kRowsPerPass), kMaxGridY));  // y: beyond, loop
  transpose_unroll_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("exercise::transpose_unroll_kernel");
}

}  // namespace tp::step03::exercise
