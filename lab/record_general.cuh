/// @file lab/record_general.cuh
/// @brief The record's policy for every shape, type and pointer (transpose_record_general):
/// which of the lab's kernels it takes, and the wave counts behind each switch. The record
/// itself (lab/record.cuh) takes the lean tile of lean_tile.cuh before it for `float` and the
/// 2-byte types at a few waves.
///
/// The switches are computed from the GPU (tp::Residency: SMs, resident threads and blocks),
/// never from numbers measured on one GPU; lab/test_lab_cpu.cu checks where they fall on four
/// GPUs. Each was measured on both sides (lab/README.md: "A lean tile for a few waves" for
/// the small tiles, "Odd shapes" for the shifted path, the moved grid and `double`).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "shifted.cuh"
#include "tile_kernel.cuh"
#include "tp/launch.cuh"

namespace tp::lab::coarsen {

/// Whether `tiles` blocks give the GPU fewer than `waves` waves of blocks, a wave being as
/// many blocks of 256 threads as the SMs hold (gpu.wave(256): 8 per SM of 2048 threads).
inline bool fewer_waves(std::size_t tiles, int waves, const Residency& gpu) {
  return tiles < std::size_t(waves) * gpu.wave(256);
}

/// Whether a matrix of `tiles` tiles gives the GPU fewer than 3 waves of blocks. The last wave
/// is then a large part of the time, and a partly filled one leaves SMs idle.
inline bool few_waves(std::size_t tiles, const Residency& gpu) { return fewer_waves(tiles, 3, gpu); }

/// The 256 x 256-byte tiles of a rows x cols matrix of T (the record's large tiles).
template <typename T>
std::size_t tiles256(int rows, int cols) {
  constexpr unsigned kSide = 256 / sizeof(T);  // elements of a tile side
  return std::size_t(ceil_div(unsigned(cols), kSide)) * ceil_div(unsigned(rows), kSide);
}

/// Whether `double` without 16-byte rows takes the shifted path's packed 256 x 256-byte tiles
/// rather than the element path: where there are fewer than 24 waves of them, squares up to
/// n = 5088 on 132 SMs. lab_double_odd measured the packed tiles ahead at 2051 to 4899 and
/// behind from 6143 up (three runs); the switch lies between.
inline bool packed_double(std::size_t tiles, const Residency& gpu) { return fewer_waves(tiles, 24, gpu); }

/// Whether `tiles` blocks of 256 threads fill at most one wave (the shifted path's choice of
/// 128-byte tiles for odd cols).
inline bool one_wave_or_less(std::size_t tiles, const Residency& gpu) { return tiles <= gpu.wave(256); }

/// The element path: the tile kernel with 64 x 64-element tiles in column order, one element
/// per access, for every shape; the record's for `double` without 16-byte rows beyond
/// packed_double() (row `elements64`). No store hint: kStreaming acts on 16-byte accesses only
/// (with it, this kernel compiles to the same PTX).
template <typename T>
void transpose_elements64(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  constexpr int kElementTile = 64 * sizeof(T);  // 64 elements, in bytes
  transpose_with<kElementTile, kElementTile, 256, kColumns>(out, in, rows, cols, stream);
}

/// The lab's record configuration for every shape, type and pointer (the record,
/// lab/record.cuh, takes the lean tile of lean_tile.cuh before it for `float` and 2-byte types
/// at a few waves): the main line's headline (kHeadline, 256 x 256-byte tiles, 256 threads, two
/// regions where the rows of `in` lie a multiple of 128 KB apart), with 128 x 128-byte tiles
/// and 128 threads where the large tiles would give fewer than 3 waves of blocks (4 times the
/// tiles; a `double` thread then has one chunk per tile, and no column pairs). Where rows and
/// cols are multiples of V but a pointer is not a multiple of the tile's bytes, the same tiles
/// on a grid moved with the pointers (kMovedGrid). Shapes without 16-byte rows take the
/// shifted path (16-byte accesses on both sides, shifted in shared memory and in registers),
/// its output chunks starting on 32-byte sectors: for odd cols (the line tile) with 128 x
/// 128-byte tiles where the 256-byte ones would give less than one wave, with 256 x 256-byte
/// tiles, whose warps store 256 bytes of each output row, where the large tiles of
/// transpose_shifted_large would give fewer than 3 waves (a block of 512 threads counting as
/// two), but for 2-byte types the flat tiles of transpose_shifted_flat there (64 input rows),
/// and with the large tiles beyond; for even cols (the packed tile) with the same choice of
/// tiles as the 16-byte path. At the few-wave sizes of the square tiles the 2-byte types start
/// their chunks on 16-byte boundaries instead where that keeps the output rows' runs on their
/// sectors (few_wave_start16). Each choice measured faster (rows `shifted*` of lab_unaligned;
/// the moved grid: `record_offset*`); but `double` without 16-byte rows takes the packed 256 x
/// 256-byte tiles where packed_double() says so, else the element path with 64 x 64-element
/// tiles, each measured faster there (lab_double_odd).
/// Its 16-byte stores are plain ones; kEvictFirst gives them the evict-first hint instead (the
/// lab's row `record_cs`, the record until plain stores measured as fast or faster).
template <bool kEvictFirst = false, typename T>
void transpose_record_general(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  constexpr unsigned kFeatures = kRecordFeatures | (kEvictFirst ? kStreaming : 0u);
  check_shape(rows, cols);
  const bool rows16 = detail::shape_16<T>(rows, cols);  // 16-byte rows, wherever the pointers are
  const std::size_t tiles = tiles256<T>(rows, cols);
  const Residency gpu = residency();
  const bool small = few_waves(tiles, gpu);
  if (!rows16 && sizeof(T) == 8) {
    if (packed_double(tiles, gpu)) return transpose_shifted<256, 256, false, 32, kEvictFirst>(out, in, rows, cols, stream);
    return transpose_elements64(out, in, rows, cols, stream);
  }
  if (rows16) {
    if (small) transpose_tiles<128, 128, kFeatures>(out, in, rows, cols, stream);
    else transpose_tiles<256, 256, kFeatures>(out, in, rows, cols, stream);
  } else if (!detail::line_tile_for(cols)) {
    if (small) transpose_shifted_few_waves<128, 128, kEvictFirst>(out, in, rows, cols, stream);
    else transpose_shifted<256, 256, true, 32, kEvictFirst>(out, in, rows, cols, stream);
  } else {
    const std::size_t large_tiles = std::size_t(ceil_div(unsigned(rows), unsigned(kLargeRows))) *
                                    ceil_div(unsigned(cols), unsigned(kLargeRowBytes / sizeof(T)));
    if (one_wave_or_less(tiles, gpu)) transpose_shifted_few_waves<128, 128, kEvictFirst>(out, in, rows, cols, stream);
    else if (!few_waves(2 * large_tiles, gpu)) transpose_shifted_large<32, kEvictFirst>(out, in, rows, cols, stream);
    else if constexpr (sizeof(T) == 2) transpose_shifted_flat<kEvictFirst>(out, in, rows, cols, stream);
    else transpose_shifted<256, 256, true, 32, kEvictFirst>(out, in, rows, cols, stream);
  }
}

}  // namespace tp::lab::coarsen
