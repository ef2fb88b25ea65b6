/// @file steps/02_naive_col/kernel.cuh
/// @brief Step 02: the naive transpose with its threads laid along the OUTPUT rows.
///
/// What changed from step 01: the roles of the two indices are swapped. In step 01 the 32
/// lanes of a warp walk along a row of `in`: the load is coalesced, the store strided. Here
/// they walk along a row of `out`: lane x writes output column oc = blockIdx.x * 32 + x of
/// output row orow, so the store is coalesced (32 consecutive elements) and the load is
/// strided (element (oc, orow) of `in`: 32 different input rows, `cols` elements apart).
/// Same 32 x 8 blocks, same one element per thread, same bytes; x now runs over the input
/// rows and y (with the grid-stride loop, orow unsigned as in step 01) over the input columns.
///
/// Why: without shared memory (step 05) one of the two accesses must be strided, and a
/// strided load costs less than a strided store (the chapter measures how much). A load
/// brings the whole 32-byte sector it touches into L1 and L2. The block's 8 warps read 8
/// neighbouring columns, so for `float` (cols a multiple of 8) they use that whole sector
/// between them; for 2-byte types the block's pair along y uses the other half. They ask for
/// it at about the same time, and (by the chapter's reading of the L2 hit rate) L1 merges
/// their requests with the first miss instead of passing them on. A store of 4 bytes
/// into a sector is not gathered on its way: each of the 32 lanes' partial-sector writes goes
/// to L2 as a store transaction of its own.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step02 {

constexpr int kTileCols = 32;          // threads along an output row: a warp stores 32 consecutive elements
constexpr int kTileRows = 8;           // warps per block, one output row each

// [naive_col]
template <typename T>
__global__ void naive_col_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  const int oc = blockIdx.x * kTileCols + threadIdx.x;  // output column = input row; lanes: oc, oc+1, ...
  if (oc >= rows) return;
  for (unsigned orow = blockIdx.y * kTileRows + threadIdx.y; orow < unsigned(cols); orow += gridDim.y * kTileRows) {
    const std::size_t i = std::size_t(oc) * cols + orow;  // in  (rows x cols): (oc, orow); lanes `cols` apart
    const std::size_t o = std::size_t(orow) * rows + oc;  // out (cols x rows): (orow, oc); lanes 1 element apart
    out[o] = in[i];                                       // load strided, store coalesced
  }
}
// [naive_col]

/// Out-of-place transpose: `in` is rows x cols, row-major; `out` is cols x rows, row-major
/// (the two must not overlap). One thread per element, 32 x 8 threads per block, threads
/// along the rows of `out`.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  const dim3 block(kTileCols, kTileRows);
  const dim3 grid(ceil_div(unsigned(rows), kTileCols),                        // x: output columns, up to 2^26 blocks
                  std::min(ceil_div(unsigned(cols), kTileRows), kMaxGridY));  // y: output rows beyond, the loop
  naive_col_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("naive_col_kernel");
}

}  // namespace tp::step02
