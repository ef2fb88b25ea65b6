/// @file steps/01_naive_row/kernel.cuh
/// @brief Step 01: the first transpose. It is step 00's copy_2d with the store changed:
/// each thread still reads element (r, c) of the input, but writes it to element (c, r) of
/// the output. The threads stay laid along the INPUT rows, so the load is still coalesced
/// (a warp reads 32 consecutive elements of one row); the store is not: the 32 lanes of a
/// warp write one element each to 32 different output rows, `rows` elements apart, so one
/// store instruction touches 32 sectors where the copy touched 4 (for float).
///
/// The launch is copy_2d's: blocks of 32 x 8 threads, c = blockIdx.x * 32 + threadIdx.x,
/// r = blockIdx.y * 8 + threadIdx.y, and a grid-stride loop over r so that any number of
/// rows fits the grid's y limit (65535 blocks). One change: r is unsigned, so that the loop's
/// `r += stride` cannot wrap around to a negative row when `rows` is close to 2^31.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step01 {

constexpr int kTileCols = 32;          // threads along an input row: a warp reads 32 consecutive elements
constexpr int kTileRows = 8;           // warps per block, one input row each

// [naive_row]
template <typename T>
__global__ void naive_row_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  const int c = blockIdx.x * kTileCols + threadIdx.x;  // input column = output row; lanes: c, c+1, ...
  if (c >= cols) return;
  for (unsigned r = blockIdx.y * kTileRows + threadIdx.y; r < unsigned(rows); r += gridDim.y * kTileRows) {
    const std::size_t i = std::size_t(r) * cols + c;  // in  (rows x cols): (r, c); lanes 1 element apart
    const std::size_t o = std::size_t(c) * rows + r;  // out (cols x rows): (c, r); lanes `rows` apart
    out[o] = in[i];                                   // load coalesced, store strided
  }
}
// [naive_row]

/// Out-of-place transpose: `in` is rows x cols, row-major; `out` is cols x rows, row-major
/// (the two must not overlap). One thread per element, 32 x 8 threads per block.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  const dim3 block(kTileCols, kTileRows);
  const dim3 grid(ceil_div(unsigned(cols), kTileCols),                        // x: up to 2^31 - 1 blocks
                  std::min(ceil_div(unsigned(rows), kTileRows), kMaxGridY));  // y: rows beyond, the loop
  naive_row_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("naive_row_kernel");
}

}  // namespace tp::step01
