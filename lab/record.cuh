/// @file lab/record.cuh
/// @brief The lab's record kernel: the lean small tile (lean_tile.cuh) for the `float` and
/// 2-byte matrices it takes at a few waves, the general record
/// (coarsen::transpose_record_general) for every other shape, type and pointer.
#pragma once

#include <cuda_runtime.h>

#include "lean_tile.cuh"
#include "record_general.cuh"

namespace tp::lab {

/// Whether the lean tile's blocks (128 threads; 16 fit on an SM of 2048 threads, as on the A100,
/// H100 and H200, 12 on one of 1536) fill at most one wave.
template <typename T>
bool one_lean_wave(int rows, int cols, const Residency& gpu) {
  constexpr unsigned kSide = lean::kTileBytes / sizeof(T);  // elements of a tile side
  return std::size_t(ceil_div(unsigned(rows), kSide)) * ceil_div(unsigned(cols), kSide) <= gpu.wave(lean::kThreads);
}

/// Whether the record takes the lean tile for a rows x cols matrix of T on the GPU `gpu`:
/// - `float`, with fewer than 6 waves of the general record's 256 x 256-byte tiles
///   (coarsen::fewer_waves): squares up to n = 5056 on 132 SMs. lab_small measured it ahead
///   of the general record at 2048, 3072 and 4096 and behind at 6144; the switch lies between.
/// - the 2-byte types, reading column pairs, where its blocks fill at most one wave
///   (one_lean_wave): squares up to n = 2880 on 132 SMs. lab_small measured it ahead at 2048
///   and 4096 but behind at 3072, whose second wave holds a tenth of the blocks.
/// For `double` it measured behind or level (lab/README.md, "A lean tile for a few waves").
template <typename T>
bool lean_for(int rows, int cols, const Residency& gpu) {
  if constexpr (sizeof(T) == 4) return coarsen::fewer_waves(coarsen::tiles256<T>(rows, cols), 6, gpu);
  else if constexpr (sizeof(T) == 2) return one_lean_wave<T>(rows, cols, gpu);
  else return false;
}

/// The lab's record: the lean tile where lean_for() chooses it and its tiles fill the matrix
/// (lean::fits), with column pairs for the 2-byte types; else the general record.
template <typename T>
void transpose_record(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  if (lean_for<T>(rows, cols, residency()) && lean::fits(out, in, rows, cols)) {
    return lean::launch<sizeof(T) == 2>(out, in, rows, cols, stream);
  }
  coarsen::transpose_record_general(out, in, rows, cols, stream);
}

}  // namespace tp::lab
