/// @file steps/07_coarsen/exercise.cuh
/// @brief Exercise 07: the 16-byte store of step 07: gather one element from each of V tile
/// rows, pack them into 16 bytes, store them with one instruction.
///
/// The kernel below is a short version of step 07's 16-byte path: tiles of 256 x 256 bytes,
/// 256 threads, 16-byte loads staged in registers, the 16-byte chunk swizzle, and the store
/// phase's lane layout (a warp takes 8 chunks of 4 output rows). Left out: cp.async, the
/// cache hints, the tile orders, the element path and the persistent grid. The load phase is
/// done; fill in the two TODOs of the store phase: (1) read the V elements that one 16-byte
/// chunk of an output row needs (tile column j, tile rows q * V .. q * V + V - 1, through the
/// swizzle), (2) pack them into a `uint4` and store it with one 16-byte store.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 07 --output-on-failure
///     build/bin/07_coarsen --exercise        # your kernel as an extra row
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "06_padded/kernel.cuh"  // the fallback for shapes and pointers the 16-byte path cannot take
#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step07::exercise {

constexpr int kTileBytes = 256;  // a tile covers 256 bytes of kTileBytes / sizeof(T) input rows
constexpr int kThreads = 256;    // threads per block

/// Shared-memory column of tile element (r, c): chunk c / V of tile row r is stored at chunk
/// (c / V) XOR ((r / V) mod 8), the element's place within its chunk is kept.
template <typename T>
__host__ __device__ constexpr int slot(int r, int c) {
  constexpr int kV = 16 / sizeof(T);
  return c ^ (((r / kV) & 7) * kV);  // chunk ^ (r / V) % 8; same element within the chunk
}

/// One block moves one tile at a time (grid-stride over the tiles, in row-major order).
template <typename T>
__global__ void __launch_bounds__(kThreads)
    coarsen16_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols, unsigned tiles_x,
                     std::size_t tiles) {
  constexpr int kV = 16 / sizeof(T);             // elements per 16-byte chunk
  constexpr int kCols = kTileBytes / sizeof(T);  // tile width: input columns = output rows
  constexpr int kRows = kTileBytes / sizeof(T);  // tile height: input rows = output columns
  constexpr int kChunks = kRows * kCols / kV / kThreads;  // 16-byte chunks per thread and phase

  __shared__ uint4 smem[kRows * kCols * sizeof(T) / 16];  // uint4: 16-byte aligned rows
  T* tile = reinterpret_cast<T*>(smem);                   // kRows x kCols elements, swizzled
  auto at = [&](int r, int c) -> T& { return tile[r * kCols + slot<T>(r, c)]; };

  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::size_t r0 = t / tiles_x * kRows;  // first input row = first output column
    const std::size_t c0 = t % tiles_x * kCols;  // first input column = first output row
    const T* src = in + r0 * cols + c0;          // the tile's corner in `in`
    T* dst = out + c0 * rows + r0;               // the tile's corner in `out`

    // Load phase: consecutive threads take consecutive 16-byte chunks along an input row. All
    // kChunks loads are issued before the first shared-memory store: more bytes in flight.
    uint4 chunk[kChunks];
#pragma unroll
    for (int i = 0; i < kChunks; ++i) {
      const int idx = threadIdx.x + i * kThreads;
      const int r = idx / (kCols / kV), c = idx % (kCols / kV) * kV;  // tile row, first column
      if (r0 + r >= std::size_t(rows) || c0 + c >= std::size_t(cols)) continue;
      chunk[i] = *reinterpret_cast<const uint4*>(src + std::size_t(r) * cols + c);  // in[r0 + r][c0 + c ..]
    }
#pragma unroll
    for (int i = 0; i < kChunks; ++i) {
      const int idx = threadIdx.x + i * kThreads;
      const int r = idx / (kCols / kV), c = idx % (kCols / kV) * kV;
      if (r0 + r >= std::size_t(rows) || c0 + c >= std::size_t(cols)) continue;
      *reinterpret_cast<uint4*>(&at(r, c)) = chunk[i];  // one 16-byte shared store
    }
    __syncthreads();

    // Store phase: chunk q of output row c0 + j is out[c0 + j][r0 + q * V .. r0 + q * V + V - 1],
    // i.e. tile column j, tile rows q * V .. q * V + V - 1. A warp takes 8 chunks (128 bytes)
    // of 4 output rows: lanes 0-7 chunks q .. q + 7 of row j, lanes 8-15 the same of row j + 1...
#pragma unroll 2
    for (int i = 0; i < kChunks; ++i) {
      const int idx = threadIdx.x + i * kThreads;
      constexpr int kQ8 = kRows / kV / 8;                   // groups of 8 chunks along an output row
      const int group = idx >> 5;                           // which warp-sized group of 8 chunks x 4 rows
      const int q = (group % kQ8) * 8 + (idx & 7);          // chunk q of the tile's output row j
      const int j = (group / kQ8) * 4 + ((idx >> 3) & 3);   // tile column j = output row c0 + j
      if (c0 + j >= std::size_t(cols) || r0 + q * kV >= std::size_t(rows)) continue;
      T* p = dst + std::size_t(j) * rows + q * kV;  // out[c0 + j][r0 + q * V], 16-byte aligned
      T v[kV];        // the chunk's V elements, one from each of V tile rows
      uint4 packed{};  // 16 bytes = four 32-bit registers
      // TODO(1): read the chunk's elements: v[k] = tile element (row q * kV + k, column j), for
      //          k = 0 .. kV - 1.
      //          Hint: at(r, c) finds element (r, c) of the tile through the swizzle.
      // TODO(2): copy the bits of v[0] .. v[kV - 1], in this order, into `packed`, and store
      //          `packed` to p with ONE 16-byte store.
      //          Hint: memcpy(&packed, v, sizeof(packed)); then reinterpret_cast p to uint4*
      //          (the launcher chose this path only because every output row is 16-byte aligned).
      (void)v, (void)packed, (void)p, (void)at;  // delete this line when the TODOs are done
    }
    __syncthreads();  // the tile is free for the next iteration
  }
}

/// Same API as tp::step07::transpose.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  constexpr int kV = 16 / sizeof(T);
  // 16-byte path: every input and output row starts 16-byte aligned, i.e. the pointers are
  // and rows and cols are multiples of V. This short version has no element path: anything
  // else goes to step 06's padded transpose.
  const bool wide = rows % kV == 0 && cols % kV == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                    reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  if (!wide) return tp::step06::transpose(out, in, rows, cols, stream);
  constexpr int kCols = kTileBytes / sizeof(T), kRows = kTileBytes / sizeof(T);
  const unsigned tiles_x = ceil_div(unsigned(cols), kCols);
  const unsigned tiles_y = ceil_div(unsigned(rows), kRows);
  const std::size_t tiles = std::size_t(tiles_x) * tiles_y;
  const unsigned blocks = unsigned(std::min<std::size_t>(tiles, INT_MAX));  // beyond: grid-stride loop
  coarsen16_kernel<T><<<blocks, kThreads, 0, stream>>>(out, in, rows, cols, tiles_x, tiles);
  TP_CHECK_LAUNCH("exercise::coarsen16_kernel");
}

}  // namespace tp::step07::exercise
