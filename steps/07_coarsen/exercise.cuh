/// @file steps/07_coarsen/exercise.cuh
/// @brief Exercise 07: step 07's own idea: the 16-byte chunk swizzle, and a store phase that
/// gathers V elements of a tile column through it and writes them with one 16-byte store.
///
/// The kernel below is step 07's part (b), `cp_async` in the chapter (wide.cuh's wide_kernel
/// with cp.async loads, row-major tile order): square tiles of kSide<T> = 256 / sizeof(T)
/// elements a side (each tile row 256 bytes), 256 threads, V = 16 / sizeof(T) elements per 16-byte chunk.
/// Done for you: the cp.async load phase, the barriers, the launcher and step 06's fallback
/// for shapes and pointers that rule out 16-byte rows. Yours: (1) slot(), the chunk swizzle;
/// (2) the store phase's reads of V elements of one tile column; (3) its 16-byte store.
///
/// As shipped, slot() returns c (no swizzle: correct, but conflicted) and the store phase
/// writes nothing, so the GPU tests fail; the CPU tests check slot() on the bank model. A
/// correct solution runs at about the `cp_async` row of the chapter's tables.
///
/// The solution is this step's wide.cuh: tp::step07::slot and tp::step07::store_tile. Read it
/// only after trying.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j 4
///     ctest --test-dir build -L exercise -R 07 --output-on-failure
///     build/bin/07_coarsen --exercise --predict P    # P: your prediction, % of cudaMemcpy
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstring>

#include "07_coarsen/wide.cuh"  // the step's constants and helpers, the fallback
#include "tp/async.cuh"         // cp.async and the 16-byte store
#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step07::exercise {

/// Shared-memory column of tile element (r, c), r and c in [0, kSide<T>). A tile row is 256
/// bytes: 16 chunks of V = 16 / sizeof(T) elements, chunk c / V holding columns c / V * V ..
template <typename T>
__host__ __device__ constexpr int slot(int r, int c) {
  constexpr int kV = 16 / sizeof(T);  // elements per 16-byte chunk
  // TODO(1): return a column that
  //          - keeps every chunk whole: slot(r, c) % kV == c % kV, and moves the chunks of
  //            row r as one permutation of the row's 16 chunk positions (the cp.async copies
  //            write whole chunks);
  //          - spreads the store phase's reads over the banks. For its k-th read a warp takes
  //            tile rows q * kV + k, q = 0 .. 15: rows kV apart. A tile row is 256 bytes, 2
  //            turns of the 32 banks, so with no swizzle all 16 rows put column j on the
  //            same banks.
  //   Hint 1: step 06's swizzle, on 16-byte chunks instead of elements: move chunk c / kV of
  //           row r to another chunk position, chosen by the row, so that the 16 rows of one
  //           read see column j at different chunk positions.
  //   Hint 2: those rows differ in r / kV, not in r % kV; 8 chunk positions (128 bytes)
  //           make one turn of the banks, so 8 different moves are enough. A bitwise
  //           operation on c with a multiple of kV changes the chunk and keeps c % kV.
  (void)r, (void)kV;  // delete this line when the TODO is done
  return c;           // placeholder: no swizzle (correct results, conflicted reads)
}

/// Moves the tile whose corner is in[r0][c0] to out[c0][r0]. kEdge: the tile crosses the last
/// row or column of the matrix, so every access is checked.
template <typename T, bool kEdge>
__device__ __forceinline__ void move_tile(T* tile, T* __restrict__ out, const T* __restrict__ in, int rows,
                                          int cols, std::size_t r0, std::size_t c0) {
  constexpr int kV = 16 / sizeof(T), kN = kSide<T>;  // kLoads<T>: chunks per thread, 4 float, 8 half, 2 double

  // Load phase (done): thread idx copies chunk idx % 16 of tile row idx / 16 straight into
  // shared memory, at the place your slot() gives.
#pragma unroll
  for (int i = 0; i < kLoads<T>; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int r = idx / kChunks, c = idx % kChunks * kV;  // tile row, first tile column of the chunk
    if (kEdge && (r0 + r >= std::size_t(rows) || c0 + c >= std::size_t(cols))) continue;
    cp_async16(&tile[r * kN + slot<T>(r, c)], in + (r0 + r) * cols + c0 + c);  // in[r0 + r][c0 + c ..]
  }
  cp_async_wait_all();  // this thread's copies have landed
  __syncthreads();      // and everyone else's

  // Store phase: thread idx writes chunk q = idx % 16 of output row c0 + j (j = idx / 16):
  // output columns r0 + q V .. r0 + q V + V - 1, i.e. tile rows q V .. q V + V - 1 of tile
  // column j. A warp writes 256 contiguous bytes of each of 2 output rows.
  // Unrolled by 2 only: a full unroll would hold the elements of every chunk in registers.
#pragma unroll 2
  for (int i = 0; i < kLoads<T>; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int q = idx % kChunks, j = idx / kChunks;  // chunk of the output row, tile column
    if (kEdge && (c0 + j >= std::size_t(cols) || r0 + q * kV >= std::size_t(rows))) continue;
    [[maybe_unused]] T v[kV];  // tile column j, tile rows q V .. q V + V - 1
    // TODO(2): fill v[k], k = 0 .. kV - 1, with the element of tile column j in tile row
    //          q * kV + k, read from shared memory where the load phase put it.
    //   Hint 1: the load phase above shows where element (r, c) lives: your slot() moves
    //           it within its tile row.
    //   Hint 2: tile[r * kN + slot<T>(r, c)].
    [[maybe_unused]] T* p = out + (c0 + j) * rows + r0 + q * kV;  // out[c0 + j][r0 + q V ..], 16-byte aligned
    // TODO(3): pack v into 16 bytes and write them to p with ONE 16-byte store.
    //   Hint 1: the V elements are consecutive in the output row: copy them into a uint4
    //           (memcpy of 16 bytes compiles to register moves), then store the uint4.
    //   Hint 2: tp/async.cuh has store16(). A plain `*reinterpret_cast<uint4*>(p) = packed`
    //           may compile to 4- or 8-byte stores (the chapter shows how to check).
  }
  __syncthreads();  // the tile is free for the next one
}

/// One block moves one tile at a time (grid-stride over the tiles, in row-major tile order).
template <typename T>
__global__ void __launch_bounds__(kThreads)
    coarsen_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols, std::size_t tiles_x,
                   std::size_t tiles) {
  constexpr int kN = kSide<T>;
  __shared__ uint4 smem[kN * kN * sizeof(T) / 16];  // uint4: 16-byte aligned rows
  T* tile = reinterpret_cast<T*>(smem);              // kN x kN elements, swizzled by slot()
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::size_t r0 = t / tiles_x * kN, c0 = t % tiles_x * kN;  // row-major tile order
    if (r0 + kN <= std::size_t(rows) && c0 + kN <= std::size_t(cols)) {
      move_tile<T, false>(tile, out, in, rows, cols, r0, c0);
    } else {
      move_tile<T, true>(tile, out, in, rows, cols, r0, c0);
    }
  }
}

/// Same API as tp::step07::transpose_wide (part b).
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  // The 16-byte path needs every input and output row 16-byte aligned; anything else takes
  // step 06's padded transpose.
  if (!rows_16_aligned(out, in, rows, cols)) return transpose_elements(out, in, rows, cols, stream);
  const std::size_t tiles_x = ceil_div(std::size_t(cols), std::size_t(kSide<T>));
  const std::size_t tiles = tiles_x * ceil_div(std::size_t(rows), std::size_t(kSide<T>));
  const unsigned blocks = unsigned(std::min<std::size_t>(tiles, INT_MAX));  // beyond: the grid-stride loop
  coarsen_kernel<T><<<blocks, kThreads, 0, stream>>>(out, in, rows, cols, tiles_x, tiles);
  TP_CHECK_LAUNCH("exercise::coarsen_kernel");
}

}  // namespace tp::step07::exercise
