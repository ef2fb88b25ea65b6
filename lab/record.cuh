/// @file lab/record.cuh
/// @brief The lab's record kernel: the lean small tile (lean_tile.cuh) for the `float` matrices
/// it takes at a few waves, the general record (coarsen::transpose_record_general) for every
/// other shape, type and pointer.
#pragma once

#include <cuda_runtime.h>

#include "coarsen_lab.cuh"
#include "lean_tile.cuh"

namespace tp::lab {

/// Whether the record takes the lean tile for a rows x cols matrix of T on `sms` SMs: `float`,
/// and fewer than 6 waves of the general record's 256 x 256-byte tiles (coarsen::fewer_waves):
/// squares up to n = 5056 on 132 SMs. lab_small measured the lean tile ahead of the general
/// record at 2048, 3072 and 4096 and behind it at 6144; the switch lies between. For the 2-byte
/// types and `double` it measured behind or level (lab/README.md, "A lean tile for a few waves").
template <typename T>
bool lean_for(int rows, int cols, int sms) {
  return sizeof(T) == 4 && coarsen::fewer_waves(coarsen::tiles256<T>(rows, cols), 6, sms);
}

/// The lab's record: the lean tile where lean_for() chooses it and its tiles fill the matrix
/// (lean::fits), else the general record.
template <typename T>
void transpose_record(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  if (lean_for<T>(rows, cols, sm_count()) && lean::fits(out, in, rows, cols)) {
    return lean::launch(out, in, rows, cols, stream);
  }
  coarsen::transpose_record_general(out, in, rows, cols, stream);
}

}  // namespace tp::lab
