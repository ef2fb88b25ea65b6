/// @file steps/04_vectorize/exercise.cuh
/// @brief Exercise 04: pack a thread's V elements into 16 bytes and store them with ONE
/// instruction.
///
/// The kernel below is step 04's vec16_store_kernel with its two key lines taken out. The
/// launcher, the alignment check, the strided loads into `v` and the scalar fallback are
/// done. Fill in the two TODOs of the 16-byte path: (1) put the bits of the kV loaded
/// elements into one `uint4`, (2) store that `uint4` to the output with a single 16-byte store.
///
/// The solution is this step's own kernel.cuh: tp::step04::vec16_store_kernel. Read it only
/// after trying.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -S . -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 04 --output-on-failure
///     build/bin/04_vectorize --exercise --predict P    # P: your prediction, % of cudaMemcpy
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step04::exercise {

constexpr int kBlockX = 32;  // threads along an output row: one 16-byte chunk each
constexpr int kBlockY = 8;   // warps per block, one output row each

template <typename T, bool kStore16>
__global__ void vec16_store_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  constexpr int kV = 16 / sizeof(T);                     // elements per 16-byte chunk
  const int chunk = blockIdx.x * kBlockX + threadIdx.x;  // which chunk of an output row
  if (chunk > (rows - 1) / kV) return;                   // past the row's last chunk
  const int oc = chunk * kV;                             // first output column = first input row
  const int n = kStore16 ? kV : min(kV, rows - oc);      // elements in this chunk

  const unsigned stride = gridDim.y * kBlockY;  // output rows the whole grid covers
  for (unsigned orow = blockIdx.y * kBlockY + threadIdx.y; orow < unsigned(cols); orow += stride) {
    const T* src = in + std::size_t(oc) * cols + orow;  // in[oc][orow]
    T* dst = out + std::size_t(orow) * rows + oc;       // out[orow][oc .. oc + kV - 1]
    T v[kV];
#pragma unroll
    for (int k = 0; k < kV; ++k) {
      if (k < n) v[k] = src[std::size_t(k) * cols];  // in[oc + k][orow]: strided loads
    }
    if constexpr (kStore16) {
      uint4 packed;  // 16 bytes = four 32-bit registers
      // TODO(1): copy the bits of v[0], v[1], ..., v[kV - 1], in this order, into `packed`.
      //   Hint 1: no value changes, only the type its bytes are seen as. Reading `v` through
      //           a pointer to uint4 breaks C++'s aliasing rules; a standard library function
      //           copies the bytes of one object into another legally, for any type.
      //   Hint 2: it is declared in <cstring> (already included) and takes a destination, a
      //           source and a byte count; sizeof(v) and sizeof(packed) are both 16. It costs
      //           next to nothing here: for float no instruction at all (the loads land in
      //           the store's registers), for half one byte permute (PRMT) per register.
      // TODO(2): store `packed` to dst with ONE 16-byte store.
      //   Hint 1: a store instruction writes as many bytes as the type it stores through:
      //           through a T* it writes sizeof(T) bytes, whatever the value is.
      //   Hint 2: view dst as a pointer to uint4. That is allowed here: the launcher takes
      //           this path only when every output row, hence dst, is 16-byte aligned.
      (void)packed, (void)v, (void)dst;  // delete this line when the TODOs are done
    } else {
#pragma unroll
      for (int k = 0; k < kV; ++k) {
        if (k < n) dst[k] = v[k];  // scalar fallback: rows that are not 16-byte aligned
      }
    }
  }
}

/// Same API as tp::step04::transpose.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  constexpr int kV = 16 / sizeof(T);
  const unsigned chunks = ceil_div(unsigned(rows), kV);  // chunks per output row (the last maybe partial)
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(ceil_div(chunks, kBlockX),                                // x: chunks of an output row
                  std::min(ceil_div(unsigned(cols), kBlockY), kMaxGridY));  // y: output rows; beyond: loop
  // 16-byte stores need every output row to start 16-byte aligned.
  const bool aligned = reinterpret_cast<std::uintptr_t>(out) % 16 == 0 && rows % kV == 0;
  if (aligned) vec16_store_kernel<T, true><<<grid, block, 0, stream>>>(out, in, rows, cols);
  else vec16_store_kernel<T, false><<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("exercise::vec16_store_kernel");
}

}  // namespace tp::step04::exercise
