/// @file steps/03_unroll/exercise.cuh
/// @brief Exercise 03: give each thread K elements and put all K loads in flight before the
/// first store.
///
/// The kernel below is step 03's transpose_unroll_kernel with its two key lines taken out,
/// launched with K = 4 as step 03's transpose is. The launcher, the loop over passes and the
/// register array `v` are done. Fill in the two TODOs: (1) the K loads into `v`, (2) the K
/// stores from it.
///
/// The solution is this step's own kernel.cuh: tp::step03::transpose_unroll_kernel. Read it
/// only after trying.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 03 --output-on-failure
///     build/bin/03_unroll --exercise --predict P    # P: your prediction, % of cudaMemcpy
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step03::exercise {

constexpr int kTileCols = 32;  // threads along an output row (threadIdx.x): one warp stores 32
constexpr int kTileRows = 8;   // warps per block (threadIdx.y), output rows 8 apart
constexpr int kUnroll = 4;     // K of step 03's transpose: output rows per thread per pass

template <int K, typename T>
__global__ void transpose_unroll_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  constexpr unsigned kRowsPerPass = kTileRows * K;      // output rows one block covers: 8 x K
  const int oc = blockIdx.x * kTileCols + threadIdx.x;  // output column = input row, < rows
  if (oc >= rows) return;
  // [[maybe_unused]] only lets the file compile before the TODOs are done: delete it then.
  [[maybe_unused]] const std::size_t in_row = std::size_t(oc) * cols;  // input row oc starts here (64-bit)
  const unsigned out_rows = cols;                                      // output rows = input columns
  const unsigned stride = gridDim.y * kRowsPerPass;                    // output rows the whole grid covers
  for (unsigned r0 = blockIdx.y * kRowsPerPass + threadIdx.y; r0 < out_rows; r0 += stride) {
    T v[K];  // one register per output row: all K loads are issued before the first store
#pragma unroll
    for (int k = 0; k < K; ++k) {
      [[maybe_unused]] const unsigned orow = r0 + k * kTileRows;  // output row = input column: 8 apart
      // TODO(1): if orow is inside the matrix, load input element (row oc, column orow) into
      //          v[k]. This loop only loads: nothing in it may wait for a load to return.
      //   Hint 1: the point of the step is K independent loads in flight per thread. They are
      //           independent when each goes to its own register and no store sits between
      //           them: the stores wait for the second loop.
      //   Hint 2: input row oc starts at in_row; orow is the column within it. Check orow
      //           against out_rows (the number of input columns), as the store will: a load
      //           made unconditional (a clamped column) whose value is stored only under the
      //           check is moved by the compiler into the store's branch, after a store.
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      [[maybe_unused]] const unsigned orow = r0 + k * kTileRows;
      // TODO(2): if orow is inside the matrix, store v[k] to output element (row orow,
      //          column oc).
      //   Hint 1: lanes have consecutive oc, so consecutive lanes must store to consecutive
      //           addresses, as in step 02.
      //   Hint 2: a row of `out` holds `rows` elements; convert orow to std::size_t before
      //           multiplying (the matrix may hold more than 2^31 elements).
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
  transpose_unroll_kernel<kUnroll><<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("exercise::transpose_unroll_kernel");
}

}  // namespace tp::step03::exercise
