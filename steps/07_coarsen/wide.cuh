/// @file steps/07_coarsen/wide.cuh
/// @brief Step 07, parts (a) and (b): step 06's tiled transpose with wide tiles and 16-byte
/// accesses through a chunk swizzle, first loading through registers, then by cp.async.
///
/// What changed from step 06 (same skeleton: tile, slot, load phase, barrier, store phase):
/// - A tile is square, kSide = 256 / sizeof(T) elements a side (64 floats, 128 halves, 32
///   doubles), so each tile row is 256 bytes; a block of 256 threads moves it: kLoads
///   16-byte chunks per thread and phase (4 float, 8 half, 2 double) instead of one element
///   per pass.
/// - Every global access is 16 bytes (V = 16 / sizeof(T) elements). Loads: 16 bytes of an
///   input row. Stores: V elements of a tile column, gathered from V tile rows and packed
///   into 16 bytes in registers.
/// - The swizzle works on 16-byte chunks: chunk c / V of tile row r is kept at chunk
///   (c / V) XOR ((r / V) mod 8), so a row's chunks stay whole for the 16-byte loads and
///   the column reads of the store phase spread over the banks.
/// - Part (a) loads through registers (load_tile_registers); part (b) copies by cp.async
///   straight into shared memory (load_tile_async). Both take the tiles in row-major order;
///   part (c), the headline in kernel.cuh, changes the order.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "06_padded/kernel.cuh"  // the element path
#include "tp/async.cuh"
#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step07 {

constexpr int kThreads = 256;  // threads per block
constexpr int kChunks = 16;    // 16-byte chunks per tile row (a tile row is 256 bytes)

template <typename T>
constexpr int kSide = 256 / sizeof(T);  // tile side in elements: 64 float, 128 half, 32 double

template <typename T>
constexpr int kLoads = kSide<T> * kChunks / kThreads;  // chunks per thread and phase: 4 float, 8 half, 2 double

// [slot]
/// Shared-memory column of tile element (r, c): chunk c / V of tile row r is stored at chunk
/// (c / V) XOR ((r / V) mod 8); the element keeps its place within the chunk.
template <typename T>
__host__ __device__ constexpr int slot(int r, int c) {
  constexpr int kV = 16 / sizeof(T);   // elements per chunk
  return c ^ (((r / kV) & 7) * kV);   // (r / V) mod 8; XOR with a multiple of V moves whole chunks
}
// [slot]

// [load_registers]
/// Part (a)'s load phase: thread idx loads chunk idx % 16 of tile row idx / 16 (16 threads
/// cover one 256-byte tile row: coalesced). All of a thread's loads are issued before its
/// first shared-memory store, so they are in flight together, each held in 4 registers.
/// kEdge: the tile crosses the last row or column of the matrix, so every access is checked.
template <typename T, bool kEdge>
__device__ __forceinline__ void load_tile_registers(T* tile, const T* __restrict__ in, int rows, int cols,
                                                    std::size_t r0, std::size_t c0) {
  constexpr int kV = 16 / sizeof(T), kN = kSide<T>;
  uint4 held[kLoads<T>];
#pragma unroll
  for (int i = 0; i < kLoads<T>; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int r = idx / kChunks, c = idx % kChunks * kV;  // tile row, first tile column of the chunk
    if (kEdge && (r0 + r >= std::size_t(rows) || c0 + c >= std::size_t(cols))) continue;
    held[i] = *reinterpret_cast<const uint4*>(in + (r0 + r) * cols + c0 + c);  // in[r0 + r][c0 + c ..]
  }
#pragma unroll
  for (int i = 0; i < kLoads<T>; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int r = idx / kChunks, c = idx % kChunks * kV;
    if (kEdge && (r0 + r >= std::size_t(rows) || c0 + c >= std::size_t(cols))) continue;
    *reinterpret_cast<uint4*>(&tile[r * kN + slot<T>(r, c)]) = held[i];
  }
}
// [load_registers]

// [load_async]
/// Part (b)'s load phase: the same chunks, copied by cp.async straight from global into
/// shared memory. No register holds them, and all of a thread's copies are in flight at once.
template <typename T, bool kEdge>
__device__ __forceinline__ void load_tile_async(T* tile, const T* __restrict__ in, int rows, int cols,
                                                std::size_t r0, std::size_t c0) {
  constexpr int kV = 16 / sizeof(T), kN = kSide<T>;
#pragma unroll
  for (int i = 0; i < kLoads<T>; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int r = idx / kChunks, c = idx % kChunks * kV;  // tile row, first tile column of the chunk
    if (kEdge && (r0 + r >= std::size_t(rows) || c0 + c >= std::size_t(cols))) continue;
    cp_async16(&tile[r * kN + slot<T>(r, c)], in + (r0 + r) * cols + c0 + c);  // in[r0 + r][c0 + c ..]
  }
  cp_async_wait_all();  // this thread's copies have landed (the barrier after it: everyone's)
}
// [load_async]

// [store]
/// The store phase (every part): thread idx writes chunk q = idx % 16 of output row c0 + j,
/// j = idx / 16: output columns r0 + q V .. r0 + q V + V - 1, i.e. tile rows q V .. q V + V - 1
/// of tile column j, gathered through the swizzle and packed into one 16-byte store. A warp
/// writes 256 contiguous bytes of each of 2 output rows.
template <typename T, bool kEdge>
__device__ __forceinline__ void store_tile(const T* tile, T* __restrict__ out, int rows, int cols,
                                           std::size_t r0, std::size_t c0) {
  constexpr int kV = 16 / sizeof(T), kN = kSide<T>;
  // Unrolled by 2 only: a full unroll would hold the elements of every chunk in registers.
#pragma unroll 2
  for (int i = 0; i < kLoads<T>; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int q = idx % kChunks, j = idx / kChunks;  // chunk of the output row, tile column
    if (kEdge && (c0 + j >= std::size_t(cols) || r0 + q * kV >= std::size_t(rows))) continue;
    T v[kV];  // tile column j, tile rows q V ..: output row c0 + j, output columns r0 + q V ..
#pragma unroll
    for (int k = 0; k < kV; ++k) {
      const int r = q * kV + k;
      v[k] = tile[r * kN + slot<T>(r, j)];
    }
    uint4 chunk;
    memcpy(&chunk, v, sizeof(chunk));  // V elements -> 16 bytes (register moves only)
    store16(out + (c0 + j) * rows + r0 + q * kV, chunk);  // out[c0 + j][r0 + q V ..], 16-byte aligned
  }
}
// [store]

// [move]
/// Moves the tile whose corner is in[r0][c0] to out[c0][r0]: load phase, barrier, store
/// phase, barrier. kAsync: cp.async loads (part b), else through registers (part a). kEdge:
/// the tile crosses the last row or column of the matrix, so every access is checked.
template <typename T, bool kAsync, bool kEdge>
__device__ __forceinline__ void move_tile(T* tile, T* __restrict__ out, const T* __restrict__ in, int rows,
                                          int cols, std::size_t r0, std::size_t c0) {
  if constexpr (kAsync) load_tile_async<T, kEdge>(tile, in, rows, cols, r0, c0);
  else load_tile_registers<T, kEdge>(tile, in, rows, cols, r0, c0);
  __syncthreads();  // every chunk of the tile is in shared memory
  store_tile<T, kEdge>(tile, out, rows, cols, r0, c0);
  __syncthreads();  // the tile is free for the next one
}

/// move_tile for any tile: only those that cross the matrix's edge check their accesses.
template <typename T, bool kAsync>
__device__ __forceinline__ void move_any_tile(T* tile, T* __restrict__ out, const T* __restrict__ in, int rows,
                                              int cols, std::size_t r0, std::size_t c0) {
  if (r0 + kSide<T> <= std::size_t(rows) && c0 + kSide<T> <= std::size_t(cols)) {
    move_tile<T, kAsync, false>(tile, out, in, rows, cols, r0, c0);
  } else {
    move_tile<T, kAsync, true>(tile, out, in, rows, cols, r0, c0);
  }
}
// [move]

// [wide]
/// Parts (a) and (b): one block moves one tile at a time, grid-stride over the tiles in
/// row-major order (the launch order: consecutive blocks take consecutive tiles of a row).
template <typename T, bool kAsync>
__global__ void __launch_bounds__(kThreads)
    wide_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols, std::size_t tiles_x,
                std::size_t tiles) {
  constexpr int kN = kSide<T>;
  __shared__ uint4 smem[kN * kN * sizeof(T) / 16];  // uint4: 16-byte aligned rows
  T* tile = reinterpret_cast<T*>(smem);              // kN x kN elements, swizzled
  for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const std::size_t r0 = t / tiles_x * kN;  // first input row = first output column
    const std::size_t c0 = t % tiles_x * kN;  // first input column = first output row
    move_any_tile<T, kAsync>(tile, out, in, rows, cols, r0, c0);
  }
}
// [wide]

/// The 16-byte path's condition: every input and output row starts 16-byte aligned, i.e.
/// the pointers are, and rows and cols are multiples of V = 16 / sizeof(T).
template <typename T>
bool rows_16_aligned(const T* out, const T* in, int rows, int cols) {
  constexpr int kV = 16 / sizeof(T);
  return rows % kV == 0 && cols % kV == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
         reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
}

/// The element path: step 06's padded 32 x 32 tile, one element per access, for shapes and
/// pointers that rule out 16-byte rows.
template <typename T>
void transpose_elements(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  step06::transpose(out, in, rows, cols, stream);
}

/// Parts (a) (kAsync false) and (b) (true): out-of-place transpose, the same API as
/// tp::step07::transpose.
template <bool kAsync, typename T>
void transpose_wide(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  if (!rows_16_aligned(out, in, rows, cols)) return transpose_elements(out, in, rows, cols, stream);
  const std::size_t tiles_x = ceil_div(std::size_t(cols), std::size_t(kSide<T>));
  const std::size_t tiles = tiles_x * ceil_div(std::size_t(rows), std::size_t(kSide<T>));
  const unsigned blocks = unsigned(std::min<std::size_t>(tiles, INT_MAX));  // beyond: the grid-stride loop
  wide_kernel<T, kAsync><<<blocks, kThreads, 0, stream>>>(out, in, rows, cols, tiles_x, tiles);
  TP_CHECK_LAUNCH("wide_kernel");
}

}  // namespace tp::step07
