/// @file steps/06_padded/kernel.cuh
/// @brief Step 06: step 05's shared-memory tile without its bank conflicts: one column of
/// padding, or an XOR swizzle. Also the tile shapes of the chapter's study.
///
/// What changed from step 05: only where an element of the tile lives in shared memory.
/// - Padded: `T tile[32][33]`. A row is 33 elements, so for 4-byte T element (r, c) is in
///   bank (33 r + c) mod 32 = (r + c) mod 32: a tile column is spread over all 32 banks.
///   It costs one unused column (3% more shared memory) and nothing else.
/// - Swizzled: `T tile[32][32]`, element (r, c) stored in column c XOR r. Row r is permuted
///   by XOR with r, so a column of the tile again lands in 32 different banks, with no
///   wasted memory and rows that stay aligned (what 16-byte accesses need in step 07).
/// The load and store phases, the block and the grid are those of step 05; the tile and
/// block shapes are template parameters so that the chapter can measure 16 x 16, 32 x 8,
/// 32 x 16 and 32 x 32 threads.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step06 {

enum class Layout { padded, swizzled };  // how a tile row is laid out in shared memory


// [layout]
/// Shared-memory column of tile element (r, c): c itself when padded (the padding does the
/// work), c XOR r when swizzled. kTile is a power of two, so c ^ r stays in [0, kTile).
template <Layout kLayout>
__host__ __device__ constexpr int slot(int r, int c) {
  return kLayout == Layout::swizzled ? c ^ r : c;
}
// [layout]

// [padded]
template <typename T, int kTile, int kBlockRows, Layout kLayout>
__global__ void tiled_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  constexpr int kPitch = kTile + (kLayout == Layout::padded ? 1 : 0);  // elements per shared row
  __shared__ T tile[kTile][kPitch];  // padded: tile[32][33]; swizzled: tile[32][32]

  const unsigned c0 = blockIdx.x * kTile;  // first input column of the tile
  const unsigned tiles_y = (unsigned(rows) + kTile - 1) / kTile;
  for (unsigned ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {  // grid-stride over tile rows
    const unsigned r0 = ty * kTile;                               // first input row of the tile

    // Load: lane x reads in[r0 + k][c0 + x], coalesced, into tile row k.
    const unsigned c = c0 + threadIdx.x;
    for (int k = threadIdx.y; k < kTile; k += kBlockRows) {
      if (r0 + k < unsigned(rows) && c < unsigned(cols)) {
        tile[k][slot<kLayout>(k, threadIdx.x)] = in[std::size_t(r0 + k) * cols + c];
      }
    }
    __syncthreads();

    // Store: lane x writes out[c0 + k][r0 + x], coalesced, from tile column k: tile row x,
    // now a different bank for every lane.
    const unsigned oc = r0 + threadIdx.x;  // output column = input row
    for (int k = threadIdx.y; k < kTile; k += kBlockRows) {
      if (c0 + k < unsigned(cols) && oc < unsigned(rows)) {
        out[std::size_t(c0 + k) * rows + oc] = tile[threadIdx.x][slot<kLayout>(threadIdx.x, k)];
      }
    }
    __syncthreads();
  }
}
// [padded]

/// The step's transpose with a chosen tile (kTile x kTile elements), block (kTile x
/// kBlockRows threads) and shared-memory layout.
template <int kTile, int kBlockRows, Layout kLayout, typename T>
void transpose_with(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  static_assert(kTile == 16 || kTile == 32, "a tile row is one or half a warp");
  static_assert(kTile % kBlockRows == 0, "every thread moves the same number of elements");
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  const dim3 block(kTile, kBlockRows);
  const dim3 grid(ceil_div(unsigned(cols), kTile),                        // x: tile columns
                  std::min(ceil_div(unsigned(rows), kTile), kMaxGridY));  // y: tile rows; beyond, the loop
  tiled_kernel<T, kTile, kBlockRows, kLayout><<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("tiled_kernel");
}

/// Out-of-place transpose: `in` is rows x cols, row-major; `out` is cols x rows, row-major
/// (the two must not overlap). Step 05's 32 x 32 tile and 32 x 8 threads, padded.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  transpose_with<32, 8, Layout::padded>(out, in, rows, cols, stream);
}

/// The same with the XOR swizzle instead of the padding.
template <typename T>
void transpose_swizzled(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  transpose_with<32, 8, Layout::swizzled>(out, in, rows, cols, stream);
}

}  // namespace tp::step06
