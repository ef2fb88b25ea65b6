/// @file steps/07_coarsen/exercise.cuh
/// @brief Exercise 07: step 07's own ideas: the 16-byte chunk swizzle, and a store phase that
/// reads column pairs and writes two output rows per thread.
///
/// The kernel below is step 07's coarsen_kernel in row-major tile order, with one region (the
/// `column_pairs` row of the chapter's ablation): tiles of 256 x 256 bytes (kSide<T> = 256 /
/// sizeof(T) elements a side), 256 threads, V = 16 / sizeof(T) elements per 16-byte chunk.
/// Done for you: the cp.async load phase, the barrier, the launcher and step 06's fallback
/// for shapes and pointers that rule out 16-byte rows. Yours: (1) slot(), the chunk swizzle;
/// (2) the store phase's reads of column pairs; (3) its two 16-byte stores.
///
/// As shipped, slot() returns c (no swizzle: correct, but conflicted) and the store phase
/// writes nothing, so the GPU tests fail; the CPU tests check slot() on the bank model. A
/// correct solution runs at about the `column_pairs` row of the chapter's ablation table.
///
/// The solution is this step's own kernel.cuh: tp::step07::slot and tp::step07::move_tile's
/// store phase. Read it only after trying.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 07 --output-on-failure
///     build/bin/07_coarsen --exercise --predict P    # P: your prediction, % of cudaMemcpy
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>

#include "07_coarsen/kernel.cuh"  // the step's constants, Pair and helpers, the fallback
#include "tp/async.cuh"           // cp.async and the cache-hinted 16-byte stores
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
  constexpr int kV = 16 / sizeof(T), kN = kSide<T>;
  constexpr int kLoads = kN * kChunks / kThreads;  // chunks per thread: 4 float, 8 half, 2 double

  // Load phase (done): thread idx copies chunk idx % 16 of tile row idx / 16 straight into
  // shared memory, at the place your slot() gives.
#pragma unroll
  for (int i = 0; i < kLoads; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int r = idx / kChunks, c = idx % kChunks * kV;  // tile row, first tile column of the chunk
    if (kEdge && (r0 + r >= std::size_t(rows) || c0 + c >= std::size_t(cols))) continue;
    cp_async16(&tile[r * kN + slot<T>(r, c)], in + (r0 + r) * cols + c0 + c);  // in[r0 + r][c0 + c ..]
  }
  cp_async_wait_all();  // this thread's copies have landed
  __syncthreads();      // and everyone else's

  // Store phase: thread idx writes chunk q = idx % 16 of output rows j and j + 1 (j = 2 (idx /
  // 16)): output columns r0 + q V .. r0 + q V + V - 1, i.e. tile rows q V .. q V + V - 1 of
  // tile columns j and j + 1. A warp writes 256 bytes of each of 4 output rows.
#pragma unroll 2
  for (int i = 0; i < kLoads / 2; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int q = idx % kChunks, j = 2 * (idx / kChunks);  // chunk, first of the two output rows
    if (kEdge && (c0 + j >= std::size_t(cols) || r0 + q * kV >= std::size_t(rows))) continue;
    Pair<T> w[kV];  // one word per tile row: (column j, column j + 1)
    // TODO(2): fill w[k], k = 0 .. kV - 1, with the two elements of tile row q * kV + k in
    //          tile columns j and j + 1, read from shared memory as ONE Pair<T> each.
    //   Hint 1: one read brings two columns: the two elements are neighbours in shared
    //           memory, because j is even and slot() keeps an element's place in its chunk.
    //   Hint 2: the load phase above shows where element (r, c) lives. Take the address of
    //           the column-j element of tile row q * kV + k and read a Pair<T> there (it is
    //           aligned to its own size).
    T* p = out + (c0 + j) * rows + r0 + q * kV;  // out[c0 + j][r0 + q V ..], 16-byte aligned
    // TODO(3): split w into two 16-byte chunks, the column-j elements for output row c0 + j
    //          and the column-j + 1 elements for output row c0 + j + 1, and store each with
    //          ONE 16-byte store (the step's has the evict-first hint; without it, the
    //          chapter's ablation measures the same within the noise).
    //   Hint 1: each word holds one element of each output row: the chunks are built by
    //           picking halves of words, not by copying. Evict-first tells L2 to give a
    //           written line up before the lines that are still to be read.
    //   Hint 2: the [split] section of kernel.cuh has the helper that separates the words
    //           into two uint4; tp/async.cuh has the 16-byte stores. Output row
    //           c0 + j + 1 starts `rows` elements after output row c0 + j (cols is a multiple
    //           of V, hence even: that row exists whenever row c0 + j does).
    (void)p, (void)w;  // delete this line when the TODOs are done
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

/// Same API as tp::step07::transpose.
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
