/// @file lab/shifted.cuh
/// @brief The shifted path's kernel and launchers: the record's path (but for `double`) where
/// rows are not a multiple of 16 bytes or a pointer is not 16-byte aligned, with each tile
/// size and start that the record takes or that a lab row compares it with.
///
/// One block moves one tile at a time (move_shifted_tile, shifted_tiles.cuh), in column order,
/// with two interleaved regions where the rows of `in` lie a multiple of 128 KB apart, as step
/// 07 does. The tiles: square ones of 128 or 256 bytes a side (transpose_shifted), large ones
/// of 128 rows of 512 bytes (transpose_shifted_large), flat ones of 64 rows of 256 bytes for
/// the 2-byte types (transpose_shifted_flat); output chunks from 32-byte sectors, or from
/// 16-byte boundaries at few waves (transpose_shifted_few_waves). lab/README.md, "Odd shapes",
/// measures them (rows shifted_*, shifted16_*, shifted_packed*, the record).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "shifted_tiles.cuh"
#include "tile_kernel.cuh"  // pitch_is_128k_multiple
#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::lab::coarsen {

namespace detail {

/// The shifted path's tiles of kR rows and kC columns: tiles_y of them down the rows, and the
/// count in all, which must fit in 32 bits (the kernels' tile indices). Throws otherwise.
template <unsigned kR, unsigned kC>
std::size_t shifted_tiles(int rows, int cols, unsigned& tiles_y) {
  tiles_y = ceil_div(unsigned(rows), kR);
  const std::size_t tiles = std::size_t(tiles_y) * ceil_div(unsigned(cols), kC);
  if (tiles >= UINT_MAX) throw std::invalid_argument("transpose_shifted: 2^32 - 1 tiles or more");
  return tiles;
}

}  // namespace detail

/// The shifted path: one block moves one tile at a time, kInBytes of each of kOutBytes /
/// sizeof(T) input rows (the bytes of an input row x the bytes of an output row, as in
/// transpose_with), in column order, with two interleaved regions when kRegions is 2
/// (grid-stride over the slots, as step 07 does), through the line tile (kLineTile) or the
/// packed one. Tile indices fit in 32 bits (the launcher checks). kEvictFirst: evict-first
/// hints on the 16-byte stores (the lab's row `record_cs`); plain ones otherwise.
template <typename T, int kInBytes, int kOutBytes, int kThreads, unsigned kRegions, bool kLineTile, int kStartBytes,
          bool kEvictFirst = false>
__global__ void __launch_bounds__(kThreads)
    shifted_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols, unsigned tiles_y,
                   unsigned tiles) {
  constexpr int kR = kOutBytes / sizeof(T), kC = kInBytes / sizeof(T);  // tile rows and columns
  extern __shared__ uint4 smem[];  // uint4: 16-byte aligned chunks
  T* tile = reinterpret_cast<T*>(smem);
  const unsigned per_region = (tiles + kRegions - 1) / kRegions;
  for (std::size_t slot = blockIdx.x; slot < std::size_t(per_region) * kRegions; slot += gridDim.x) {
    const unsigned u = unsigned(slot);
    const unsigned t = u % kRegions * per_region + u / kRegions;  // the tile of slot u (= u in one region)
    if (t >= tiles) continue;                                      // a spare slot (the whole block)
    const std::size_t r0 = std::size_t(t % tiles_y) * kR;  // first input row = first output column
    const std::size_t c0 = std::size_t(t / tiles_y) * kC;  // first input column = first output row
    detail::move_shifted_tile_at<T, kR, kC, kThreads, kLineTile, kStartBytes, kEvictFirst>(tile, out, in, rows, cols,
                                                                                           r0, c0);
  }
}

/// Out-of-place transpose on the shifted path, for any shape and any (element-aligned)
/// pointers: tiles of kInBytes x kOutBytes bytes (as in transpose_with), kThreads threads,
/// the column order, and two regions where the rows of `in` lie a multiple of 128 KB apart.
/// The line tile where cols is odd (unless kLineTile is false: the lab's `shifted_packed`
/// rows), the packed tile otherwise. Output chunks start on boundaries of kStartBytes (32: a
/// sector; 16: the `shifted16_*` rows). kEvictFirst: as shifted_kernel's.
template <int kInBytes, int kOutBytes, int kThreads, bool kLineTile = true, int kStartBytes = 32,
          bool kEvictFirst = false, typename T>
void transpose_shifted_with(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  constexpr unsigned kR = kOutBytes / sizeof(T), kC = kInBytes / sizeof(T);  // tile rows and columns
  unsigned tiles_y;
  const std::size_t tiles = detail::shifted_tiles<kR, kC>(rows, cols, tiles_y);
  auto launch = [&](auto kernel, unsigned regions, std::size_t shared) {  // shared: the tile's bytes
    const std::size_t slots = ceil_div(tiles, std::size_t(regions)) * regions;
    const unsigned blocks = unsigned(std::min<std::size_t>(slots, INT_MAX));  // beyond: the grid-stride loop
    allow_shared_memory(kernel, shared);
    kernel<<<blocks, kThreads, shared, stream>>>(out, in, rows, cols, tiles_y, unsigned(tiles));
  };
  constexpr std::size_t kLineBytes = detail::LineTile<T, kR, kC, kStartBytes>::kBytes;
  constexpr std::size_t kPackedBytes = detail::PackedTile<T, kR, kC, kStartBytes>::kBytes;
  if (kLineTile && detail::line_tile_for(cols)) {  // (an odd pitch is never a multiple of 128 KB)
    launch(shifted_kernel<T, kInBytes, kOutBytes, kThreads, 1, true, kStartBytes, kEvictFirst>, 1, kLineBytes);
  } else if (pitch_is_128k_multiple<T>(cols)) {
    launch(shifted_kernel<T, kInBytes, kOutBytes, kThreads, 2, false, kStartBytes, kEvictFirst>, 2, kPackedBytes);
  } else {
    launch(shifted_kernel<T, kInBytes, kOutBytes, kThreads, 1, false, kStartBytes, kEvictFirst>, 1, kPackedBytes);
  }
  TP_CHECK_LAUNCH("shifted_kernel");
}

/// The shifted path with square tiles of kTileBytes x kTileBytes bytes.
template <int kTileBytes, int kThreads, bool kLineTile = true, int kStartBytes = 32, bool kEvictFirst = false,
          typename T>
void transpose_shifted(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  transpose_shifted_with<kTileBytes, kTileBytes, kThreads, kLineTile, kStartBytes, kEvictFirst>(out, in, rows, cols,
                                                                                                stream);
}

/// The shifted path's large tile: kLargeRows input rows of kLargeRowBytes bytes each.
constexpr int kLargeRows = 128, kLargeRowBytes = 512;

/// The shifted path with large tiles for large matrices (kLargeRows x kLargeRowBytes: 512 x 512
/// bytes for `float`, 512 x 256 for 2-byte types) and 512 threads; 86 KB (`float`) to 92 KB
/// (2-byte types) of shared memory as line tiles, two blocks per SM.
template <int kStartBytes = 32, bool kEvictFirst = false, typename T>
void transpose_shifted_large(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  transpose_shifted_with<kLargeRowBytes, kLargeRows * int(sizeof(T)), 512, true, kStartBytes, kEvictFirst>(
      out, in, rows, cols, stream);
}

/// The shifted path with flat tiles: 256 bytes of each of 128 / sizeof(T) input rows (64 rows of
/// 128 elements for 2-byte types, half the rows of the square 256-byte tile), 256 threads, chunks
/// from 32-byte sectors. A warp then stores 8 chunks (128 bytes) of 4 output rows.
template <bool kEvictFirst = false, typename T>
void transpose_shifted_flat(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  transpose_shifted_with<256, 128, 256, true, 32, kEvictFirst>(out, in, rows, cols, stream);
}

/// Whether the record starts the output chunks of 2-byte types on 16 bytes (their tiles then
/// load 8 rows fewer) rather than on 32-byte sectors, at few waves: unless that would put
/// every output row's chunks off their sectors. That happens where all output rows lie at one
/// place of their sectors (the pitch, rows x sizeof(T), a multiple of 32 bytes: offset
/// pointers) and that place is 1 to 16 bytes into a sector; the first 16-byte boundary of each
/// row is then 16 bytes into a sector.
template <typename T>
bool few_wave_start16(const T* out, int rows) {
  if (sizeof(T) != 2) return false;
  const unsigned place = unsigned(reinterpret_cast<std::uintptr_t>(out) % 32);  // of out[0][0], in bytes
  return std::size_t(rows) * sizeof(T) % 32 != 0 || place == 0 || place > 16;
}

/// The shifted path with square tiles of kTileBytes and kThreads threads at few waves: chunks
/// from 16 bytes where few_wave_start16 says so, else from 32-byte sectors.
template <int kTileBytes, int kThreads, bool kEvictFirst, typename T>
void transpose_shifted_few_waves(T* out, const T* in, int rows, int cols, cudaStream_t stream) {
  if constexpr (sizeof(T) == 2) {
    if (few_wave_start16(out, rows)) {
      return transpose_shifted<kTileBytes, kThreads, true, 16, kEvictFirst>(out, in, rows, cols, stream);
    }
  }
  transpose_shifted<kTileBytes, kThreads, true, 32, kEvictFirst>(out, in, rows, cols, stream);
}

}  // namespace tp::lab::coarsen
