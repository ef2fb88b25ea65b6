/// @file steps/04_vectorize/kernel.cuh
/// @brief Step 04: 16-byte stores. Each thread writes V = 16 / sizeof(T) consecutive
/// elements of one output row with ONE 16-byte store (a `uint4`), after loading them with V
/// scalar loads from V consecutive input rows of one input column.
///
/// What changed from step 03: step 03 gave each thread K elements of one output COLUMN (K
/// output rows 8 apart), loaded all K before storing, and stored them one element per
/// instruction. Here a thread's V elements are adjacent in one output ROW, so the thread
/// packs them into one 16-byte register set and stores them with one instruction
/// (STG.E.128): a warp writes 512 contiguous bytes per store, as copy_vec16 did in step 00,
/// whatever the element type. The V loads are still issued before the store, as in step 03.
/// What did not change: every load still moves one 2-, 4- or 8-byte element, and the 32
/// lanes of a warp load from rows V apart. That is the side the next steps must fix.
///
/// A 16-byte store needs a 16-byte aligned address. Thread chunks start at multiples of V
/// elements of an output row, so every chunk is aligned when the row starts are: `out` is
/// 16-byte aligned and a row of `out` (rows elements) is a multiple of 16 bytes. Otherwise
/// the launcher runs the same kernel with scalar stores. Aligned rows hold a whole number of
/// chunks, so the 16-byte path never meets a partial chunk; the scalar path handles the
/// last, partial chunk of each row.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step04 {

constexpr int kBlockX = 32;  // threads along an output row: a warp covers 32 chunks = 512 bytes
constexpr int kBlockY = 8;   // warps per block, one output row each

/// Transposes with one 16-byte chunk (V elements) of an output row per thread. kStore16:
/// one 16-byte store per chunk (needs 16-byte aligned output rows); otherwise V scalar stores.
// [vec16_store]
template <typename T, bool kStore16>
__global__ void vec16_store_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  static_assert(16 % sizeof(T) == 0, "an element must divide a 16-byte vector");
  constexpr int kV = 16 / sizeof(T);  // elements per chunk: 4 float, 2 double, 8 half / bf16

  const int chunk = blockIdx.x * kBlockX + threadIdx.x;  // which kV-element chunk of an output row
  if (chunk > (rows - 1) / kV) return;                   // past the row's last (maybe partial) chunk
  const int oc = chunk * kV;                             // first output column = first input row
  // Elements in this chunk: always kV on the 16-byte path (aligned rows hold whole chunks);
  // on the scalar path, fewer in the last chunk of a row.
  const int n = kStore16 ? kV : min(kV, rows - oc);

  // Output row orow = input column; grid-stride over it, as gridDim.y stops at 65535.
  // Unsigned: orow + stride must not overflow when cols is close to 2^31.
  const unsigned stride = gridDim.y * kBlockY;  // output rows the whole grid covers
  for (unsigned orow = blockIdx.y * kBlockY + threadIdx.y; orow < unsigned(cols); orow += stride) {
    const T* src = in + std::size_t(oc) * cols + orow;  // in[oc][orow]; in[oc + k][orow] is k * cols further
    T* dst = out + std::size_t(orow) * rows + oc;       // out[orow][oc .. oc + kV - 1]: kV adjacent elements
    T v[kV];                                            // the chunk: all loads issued before the store
#pragma unroll
    for (int k = 0; k < kV; ++k) {
      if (k < n) v[k] = src[std::size_t(k) * cols];  // kV input rows, one column: strided loads
    }
    if constexpr (kStore16) {
      uint4 packed;                             // 16 bytes = four 32-bit registers
      memcpy(&packed, v, sizeof(packed));       // the kV elements' bits, in order: no aliasing violation
      *reinterpret_cast<uint4*>(dst) = packed;  // ONE 16-byte store (dst is 16-byte aligned)
    } else {
#pragma unroll
      for (int k = 0; k < kV; ++k) {
        if (k < n) dst[k] = v[k];  // kV scalar stores, for rows that are not 16-byte aligned
      }
    }
  }
}
// [vec16_store]

/// Out-of-place transpose: `in` is rows x cols, row-major; `out` is cols x rows, row-major.
/// 16-byte stores when `out` and its rows are 16-byte aligned, scalar stores otherwise.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  constexpr int kV = 16 / sizeof(T);
  const unsigned chunks = ceil_div(unsigned(rows), kV);  // chunks per output row (the last maybe partial)
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(ceil_div(chunks, kBlockX),                                // x: chunks of an output row
                  std::min(ceil_div(unsigned(cols), kBlockY), kMaxGridY));  // y: output rows; beyond: loop
// [vec16_dispatch]
  // Every output row starts 16-byte aligned iff `out` does and a row (rows elements) is a
  // multiple of 16 bytes, i.e. rows is a multiple of kV.
  const bool aligned = reinterpret_cast<std::uintptr_t>(out) % 16 == 0 && rows % kV == 0;
  if (aligned) vec16_store_kernel<T, true><<<grid, block, 0, stream>>>(out, in, rows, cols);
  else vec16_store_kernel<T, false><<<grid, block, 0, stream>>>(out, in, rows, cols);
// [vec16_dispatch]
  TP_CHECK_LAUNCH("vec16_store_kernel");
}

}  // namespace tp::step04
