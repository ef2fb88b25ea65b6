/// @file steps/03_unroll/kernel.cuh
/// @brief Step 03: step 02's transpose with K elements per thread, for instruction-level
/// parallelism.
///
/// What changed from step 02: a thread no longer moves one element and stops. It moves K
/// elements of its output column, K output rows 8 apart, and it issues all K loads before the
/// first store, into a small array of registers (`T v[K]`, fully unrolled, so it lives in
/// registers). The K loads are independent, so the thread has K of them in flight at once,
/// where step 02 had one: the same number of resident threads keeps K times more requests
/// outstanding. Everything else is step 02: 32 x 8 threads, threadIdx.x along an output row
/// (stores coalesced), loads strided by `cols`.
///
/// Why it might not help: the access pattern is unchanged. Every warp load still touches 32
/// different rows of `in`, 32 sectors for 32 elements. More requests in flight hide latency;
/// they do not make a sector carry more than one useful element per warp. The chapter
/// measures where that matters.
///
/// transpose_unroll<K> is registered for K = 2, 4, 8 ("unroll2", "unroll4", "unroll8");
/// transpose is transpose_unroll<4>. transpose_unroll<1> does exactly what step 02 does.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step03 {

constexpr int kTileCols = 32;  // threads along an output row (threadIdx.x): one warp stores 32
constexpr int kTileRows = 8;   // warps per block (threadIdx.y), output rows 8 apart

// [unroll]
template <int K, typename T>
__global__ void transpose_unroll_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  constexpr unsigned kRowsPerPass = kTileRows * K;      // output rows one block covers: 8 x K
  const int oc = blockIdx.x * kTileCols + threadIdx.x;  // output column = input row, < rows
  if (oc >= rows) return;
  const std::size_t in_row = std::size_t(oc) * cols;  // input row oc starts here (64-bit)
  const unsigned out_rows = cols;                     // output rows = input columns
  const unsigned stride = gridDim.y * kRowsPerPass;   // output rows the whole grid covers
  // Unsigned: r0 + stride must not overflow when cols is close to 2^31.
  for (unsigned r0 = blockIdx.y * kRowsPerPass + threadIdx.y; r0 < out_rows; r0 += stride) {
    T v[K];  // one register per output row: all K loads are issued before the first store
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const unsigned orow = r0 + k * kTileRows;       // output row = input column: 8 apart
      if (orow < out_rows) v[k] = in[in_row + orow];  // load (oc, orow): lanes `cols` apart
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const unsigned orow = r0 + k * kTileRows;
      if (orow < out_rows) out[std::size_t(orow) * rows + oc] = v[k];  // store: lanes adjacent
    }
  }
}
// [unroll]

/// Out-of-place transpose, K output elements per thread: `in` is rows x cols, row-major;
/// `out` is cols x rows, row-major.
template <int K, typename T>
void transpose_unroll(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  static_assert(K >= 1 && K <= 16, "transpose_unroll: K (elements per thread) must be 1 to 16");
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  constexpr unsigned kRowsPerPass = kTileRows * K;
  const dim3 block(kTileCols, kTileRows);
  const dim3 grid(ceil_div(unsigned(rows), kTileCols),  // x: 32 output columns per block
                  std::min(ceil_div(unsigned(cols), kRowsPerPass), kMaxGridY));  // y: beyond, loop
  transpose_unroll_kernel<K><<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("transpose_unroll_kernel");
}

/// Out-of-place transpose: `in` is rows x cols, row-major; `out` is cols x rows, row-major.
/// Step 03's headline kernel: four elements per thread.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  transpose_unroll<4>(out, in, rows, cols, stream);
}

}  // namespace tp::step03
