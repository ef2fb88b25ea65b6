/// @file lab/lean_tile.cuh
/// @brief The lab's lean small tile: 128 x 128-byte tiles, 128 threads, plain 16-byte loads
/// and stores, 32-bit offsets and no edge code, for matrices whose tiles fill it exactly.
///
/// At a few waves of blocks (2048 to 4096 squares on an H200) a transpose is bound by the
/// latency of each wave more than by DRAM's bandwidth, and the blocks an SM holds at once set
/// the number of waves. The general kernel (coarsen_kernel) holds 38 registers per thread with
/// this tile (12 blocks of 128 threads per SM); this one keeps only what a whole, aligned tile
/// needs, like torch.compile's generated kernel (its PTX: docs/results/ptx_compile4096_*.txt).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "tile_parts.cuh"  // the swizzle (slot), pack16, Pair, split_pairs
#include "tp/async.cuh"
#include "tp/error.hpp"
#include "tp/launch.cuh"  // kMaxGridY

namespace tp::lab::lean {

constexpr int kTileBytes = 128;  ///< a tile side, in bytes
constexpr int kThreads = 128;    ///< threads per block

/// One tile per block: block (x, y) moves the tile of input rows x R ... and input columns
/// y C ... (R = C = 128 / sizeof(T)); x varies fastest, so consecutive blocks go down a tile
/// column of `in`, along a tile row of `out` (the column order). Load phase: a warp reads 4
/// input rows, 128 bytes each, into a shared tile whose 16-byte chunks are swizzled as the
/// lab's 16-byte path does (coarsen::detail::slot). Store phase: a warp writes 8 chunks of 4
/// output rows, each chunk packed from V tile rows of one tile column. kPairs: a thread reads
/// column pairs instead (tile columns j and j + 1, V reads of two elements each) and writes
/// the same chunk of output rows j and j + 1, as the lab's kPairs does; half the reads.
template <typename T, bool kPairs = false>
__global__ void __launch_bounds__(kThreads) lean_kernel(T* __restrict__ out, const T* __restrict__ in, unsigned rows,
                                                        unsigned cols) {
  constexpr int kV = 16 / sizeof(T);              // elements per 16-byte chunk
  constexpr int kSide = kTileBytes / sizeof(T);   // tile rows = tile columns, in elements
  constexpr int kChunks = kSide / kV;             // chunks per tile row (8)
  constexpr int kPerThread = kSide * kChunks / kThreads;  // chunks per thread, each phase
  static_assert(kChunks == 8 && kPerThread >= 1, "8 chunks of 16 bytes per tile row");
  static_assert(!kPairs || kPerThread % 2 == 0, "column pairs: two chunks per thread at a time");
  __shared__ uint4 tile[kSide * kChunks];
  T* elements = reinterpret_cast<T*>(tile);
  auto at = [&](int r, int c) -> T& { return elements[r * kSide + coarsen::detail::slot<T, kSide, true>(r, c)]; };

  const unsigned r0 = blockIdx.x * kSide, c0 = blockIdx.y * kSide;  // the tile's first row and column
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int r = idx / kChunks, c = idx % kChunks;
    *reinterpret_cast<uint4*>(&at(r, c * kV)) = *reinterpret_cast<const uint4*>(in + (r0 + r) * cols + c0 + c * kV);
  }
  __syncthreads();
  if constexpr (kPairs) {
#pragma unroll
    for (int i = 0; i < kPerThread / 2; ++i) {
      const int idx = threadIdx.x + i * kThreads;
      const int q = idx % kChunks, j = 2 * (idx / kChunks);  // chunk q of output rows j and j + 1
      coarsen::detail::Pair<T> w[kV];  // the column pair (j, j + 1) of the chunk's kV tile rows
#pragma unroll
      for (int k = 0; k < kV; ++k) w[k] = *reinterpret_cast<const coarsen::detail::Pair<T>*>(&at(q * kV + k, j));
      uint4 first, second;
      coarsen::detail::split_pairs<T>(w, first, second);
      tp::store16(out + (c0 + j) * rows + r0 + q * kV, first);
      tp::store16(out + (c0 + j + 1) * rows + r0 + q * kV, second);
    }
  } else {
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
      const int idx = threadIdx.x + i * kThreads;
      const int q = idx % kChunks, j = idx / kChunks;  // chunk q of output row j (tile column j)
      const uint4 packed = coarsen::detail::pack16<T>([&](int k) { return at(q * kV + k, j); });  // tile rows q V + k
      tp::store16(out + (c0 + j) * rows + r0 + q * kV, packed);
    }
  }
}

/// Whether lean_kernel takes this matrix: rows and cols multiples of the tile side, both
/// pointers on 128-byte lines (so that every tile row is one line: with pointers 32 bytes
/// past a line, each row of a tile spans two, and the lean tile measured about 10 points
/// behind at `float` 2048 to 4896: row record_offset8 of lab_unaligned at commit 03b5088),
/// and offsets that fit in 32 bits (and a grid within its limits).
template <typename T>
bool fits(const T* out, const T* in, int rows, int cols) {
  constexpr int kSide = kTileBytes / sizeof(T);
  auto on_line = [](const T* p) { return reinterpret_cast<std::uintptr_t>(p) % kTileBytes == 0; };
  return rows > 0 && cols > 0 && rows % kSide == 0 && cols % kSide == 0 && on_line(out) && on_line(in) &&
         std::size_t(rows) * std::size_t(cols) <= 0xFFFFFFFFu && unsigned(cols / kSide) <= kMaxGridY;
}

/// Launches lean_kernel on a matrix it takes (fits()).
template <bool kPairs = false, typename T>
void launch(T* out, const T* in, int rows, int cols, cudaStream_t stream) {
  constexpr int kSide = kTileBytes / sizeof(T);
  const dim3 grid(unsigned(rows / kSide), unsigned(cols / kSide));
  lean_kernel<T, kPairs><<<grid, kThreads, 0, stream>>>(out, in, unsigned(rows), unsigned(cols));
  TP_CHECK_LAUNCH("lean_kernel");
}

/// Out-of-place transpose with lean_kernel; `fallback(out, in, rows, cols, stream)` for the
/// matrices it does not take (fits()).
template <bool kPairs = false, typename T, typename Fallback>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream, Fallback fallback) {
  check_shape(rows, cols);
  if (!fits(out, in, rows, cols)) return fallback(out, in, rows, cols, stream);
  launch<kPairs>(out, in, rows, cols, stream);
}

}  // namespace tp::lab::lean
