/// @file steps/05_shared/kernel.cuh
/// @brief Step 05: a tile staged in shared memory, so that BOTH global accesses are coalesced.
///
/// What changed from step 04: steps 01 to 04 moved each element straight from its input
/// address to its output address, so one of the two accesses was always strided. Here a
/// block of 32 x 8 threads first copies a 32 x 32 tile of `in` into shared memory, reading
/// along the input rows (coalesced: a warp loads 32 consecutive elements), waits for the
/// whole tile (__syncthreads), then writes the tile's columns as rows of `out` (coalesced
/// too: a warp stores 32 consecutive elements). The transpose itself happens in the index
/// maths of the shared-memory read: a strided read there costs no global sectors, but (this
/// unpadded tile) 32 wavefronts for a float warp.
///
/// Deliberately unpadded: the tile is `T tile[32][32]`. For 4-byte types a tile row is 128
/// bytes, exactly the 32 banks, so element (r, c) sits in bank c. The store phase reads a
/// tile COLUMN (lane x reads tile[x][k]): all 32 lanes hit bank k, and shared memory serves
/// them one after another (a 32-way bank conflict). Step 06 removes it; this step measures it.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step05 {

constexpr int kTile = 32;              // the tile is kTile x kTile elements; a warp covers one tile row
constexpr int kBlockRows = 8;          // warps per block: each thread moves kTile / kBlockRows = 4 elements

// [shared]
template <typename T>
__global__ void shared_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  __shared__ T tile[kTile][kTile];  // unpadded: for 4-byte T, tile[r][c] is in bank c

  const unsigned c0 = blockIdx.x * kTile;                  // first input column of the tile
  const unsigned tiles_y = (unsigned(rows) + kTile - 1) / kTile;
  for (unsigned ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {  // grid-stride over tile rows
    const unsigned r0 = ty * kTile;                        // first input row of the tile

    // Load: lane x reads in[r0 + k][c0 + x]: a warp reads 32 consecutive elements of one row.
    const unsigned c = c0 + threadIdx.x;
    for (int k = threadIdx.y; k < kTile; k += kBlockRows) {
      if (r0 + k < unsigned(rows) && c < unsigned(cols)) tile[k][threadIdx.x] = in[std::size_t(r0 + k) * cols + c];
    }
    __syncthreads();  // the whole tile is in shared memory before anyone reads a column of it

    // Store: lane x writes out[c0 + k][r0 + x]: a warp writes 32 consecutive elements of one
    // output row, taken from COLUMN k of the tile: tile[x][k], 32 lanes in one bank (4-byte T).
    const unsigned oc = r0 + threadIdx.x;  // output column = input row
    for (int k = threadIdx.y; k < kTile; k += kBlockRows) {
      if (c0 + k < unsigned(cols) && oc < unsigned(rows)) out[std::size_t(c0 + k) * rows + oc] = tile[threadIdx.x][k];
    }
    __syncthreads();  // everyone is done reading before the next iteration overwrites the tile
  }
}
// [shared]

// [copy]
/// The control, a copy through the same tile: the same 32 x 8 threads, shared-memory tile,
/// barrier and coalesced loads, but each tile goes back to where it came from, read by rows
/// (lane x reads tile[k][x]: 32 lanes, 32 banks, no conflict). What it loses against
/// cudaMemcpy is the cost of staging; what shared_kernel loses beyond it is the transpose's.
/// (Each thread reads back what it wrote itself; the barrier stays so that the control does
/// everything the transpose does but the column read.)
template <typename T>
__global__ void shared_copy_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  __shared__ T tile[kTile][kTile];
  const unsigned c0 = blockIdx.x * kTile, c = c0 + threadIdx.x;
  const unsigned tiles_y = (unsigned(rows) + kTile - 1) / kTile;
  for (unsigned ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
    const unsigned r0 = ty * kTile;
    for (int k = threadIdx.y; k < kTile; k += kBlockRows) {
      if (r0 + k < unsigned(rows) && c < unsigned(cols)) tile[k][threadIdx.x] = in[std::size_t(r0 + k) * cols + c];
    }
    __syncthreads();
    for (int k = threadIdx.y; k < kTile; k += kBlockRows) {  // row k of the tile back to row r0 + k
      if (r0 + k < unsigned(rows) && c < unsigned(cols)) out[std::size_t(r0 + k) * cols + c] = tile[k][threadIdx.x];
    }
    __syncthreads();
  }
}
// [copy]

/// Copy (not a transpose) of the rows x cols matrix `in` to `out` through shared_copy_kernel's
/// tiles: the control of this step.
template <typename T>
void copy_shared(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  const dim3 grid(ceil_div(unsigned(cols), kTile), std::min(ceil_div(unsigned(rows), kTile), kMaxGridY));
  shared_copy_kernel<<<grid, dim3(kTile, kBlockRows), 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("shared_copy_kernel");
}

/// Out-of-place transpose: `in` is rows x cols, row-major; `out` is cols x rows, row-major
/// (the two must not overlap). One 32 x 32 tile per block of 32 x 8 threads.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  const dim3 block(kTile, kBlockRows);
  const dim3 grid(ceil_div(unsigned(cols), kTile),                        // x: tile columns, up to 2^26
                  std::min(ceil_div(unsigned(rows), kTile), kMaxGridY));  // y: tile rows; beyond, the loop
  shared_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("shared_kernel");
}

}  // namespace tp::step05
