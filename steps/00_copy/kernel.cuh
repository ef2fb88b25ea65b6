/// @file steps/00_copy/kernel.cuh
/// @brief Step 00: three ways to copy a matrix. No transpose yet: a copy reads and writes
/// the same bytes a transpose does, with perfectly coalesced access on both sides, so the
/// speed of the best copy is the ceiling every later step is measured against.
///
/// 1. copy_naive  - the textbook form: a 1-D grid, one thread per element, and the row and
///                  column recovered with `idx / cols` and `idx % cols` on 64-bit integers
///                  (which the compiler removes: r * cols + c is idx again).
/// 2. copy_2d     - a 2-D grid of 32 x 8 threads: no division, and a grid-stride loop over
///                  rows so that any number of rows fits within the grid's y limit (65535).
/// 3. copy_vec16  - the matrix as a flat array of 16-byte vectors (uint4), one per thread:
///                  one load and one store instruction move 16 bytes, so the same number of
///                  resident threads keeps four to eight times more bytes in flight; a scalar
///                  tail, and a scalar fallback for misaligned pointers.
/// 4. copy_vec16_gridstride - the same vectors moved by a grid-stride loop over a grid of
///                  resident blocks: the form often recommended, kept here because it measured
///                  slower than copy_vec16.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step00 {

// ---------------------------------------------------------------------------------------
// 1. The textbook copy.
// ---------------------------------------------------------------------------------------
// [copy_naive]
template <typename T>
__global__ void copy_naive_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  const std::size_t n = std::size_t(rows) * cols;                              // may exceed 2^32
  const std::size_t idx = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;  // 64-bit before *
  if (idx >= n) return;
  const std::size_t r = idx / cols;  // 64-bit / and %, as tutorials write them; here r * cols + c
  const std::size_t c = idx % cols;  // is idx again, and the compiler removes both (no CALL in SASS)
  out[r * cols + c] = in[r * cols + c];
}
// [copy_naive]

/// Copies a rows x cols matrix with one thread per element on a 1-D grid.
template <typename T>
void copy_naive(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  const std::size_t n = std::size_t(rows) * std::size_t(cols);
  if (n == 0) return;
  constexpr int kThreads = 256;
  const std::size_t blocks = ceil_div(n, kThreads);
  if (blocks > 0x7fffffff) throw std::invalid_argument("copy_naive: too many elements for a 1-D grid");
  copy_naive_kernel<<<unsigned(blocks), kThreads, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("copy_naive_kernel");
}

// ---------------------------------------------------------------------------------------
// 2. The 2-D copy: the launch shape every transpose in this tutorial starts from.
// ---------------------------------------------------------------------------------------
constexpr int kTileCols = 32;  // threads along a row: one warp reads 32 consecutive elements
constexpr int kTileRows = 8;   // warps per block, one row each

// [copy_2d]
template <typename T>
__global__ void copy_2d_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols) {
  const int c = blockIdx.x * kTileCols + threadIdx.x;  // column: gridDim.x allows 2^31 - 1 blocks
  if (c >= cols) return;
  // Unsigned: with rows close to 2^31, r + stride must not wrap around to a negative row.
  for (unsigned r = blockIdx.y * kTileRows + threadIdx.y; r < unsigned(rows); r += gridDim.y * kTileRows) {
    const std::size_t i = std::size_t(r) * cols + c;  // 64-bit offset: rows x cols may exceed 2^31
    out[i] = in[i];
  }
}
// [copy_2d]

/// Copies a rows x cols matrix with 32 x 8 thread blocks on a 2-D grid.
template <typename T>
void copy_2d(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  const dim3 block(kTileCols, kTileRows);
  const dim3 grid(ceil_div(unsigned(cols), kTileCols),
                  std::min(ceil_div(unsigned(rows), kTileRows), kMaxGridY));  // rows beyond: loop
  copy_2d_kernel<<<grid, block, 0, stream>>>(out, in, rows, cols);
  TP_CHECK_LAUNCH("copy_2d_kernel");
}

// ---------------------------------------------------------------------------------------
// 3. The 16-byte vectorized copy.
// ---------------------------------------------------------------------------------------
constexpr int kVecThreads = 256;

/// Copies n elements of T: thread i copies vector i (sizeof(Vec) bytes), and the first few
/// threads also copy the tail that does not fill a vector. Vec = uint4 moves 16 bytes per
/// load and per store; Vec = T is the scalar fallback for misaligned pointers.
// [copy_vec16]
template <typename T, typename Vec>
__global__ void copy_vec_kernel(T* __restrict__ out, const T* __restrict__ in, std::size_t n) {
  constexpr std::size_t kPerVec = sizeof(Vec) / sizeof(T);  // elements per vector: 16 / sizeof(T)
  const std::size_t n_vec = n / kPerVec;                     // whole vectors
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n_vec) {
    // One warp: 32 threads x 16 bytes = 512 contiguous bytes, four full 128-byte lines.
    reinterpret_cast<Vec*>(out)[i] = reinterpret_cast<const Vec*>(in)[i];
  }
  const std::size_t t = n_vec * kPerVec + i;  // tail: fewer than kPerVec elements
  if (t < n) out[t] = in[t];
}
// [copy_vec16]

/// Launches `kernel` (copy_vec_kernel<T, Vec>, or exercise 00's version of it) with one
/// thread per Vec-sized piece of n elements (and at least one per tail element).
template <typename T, typename Vec>
void launch_copy_vec(T* out, const T* in, std::size_t n, cudaStream_t stream,
                     void (*kernel)(T*, const T*, std::size_t) = copy_vec_kernel<T, Vec>) {
  constexpr std::size_t kPerVec = sizeof(Vec) / sizeof(T);
  const std::size_t threads = std::max(n / kPerVec, n % kPerVec);
  const std::size_t blocks = ceil_div(threads, kVecThreads);
  if (blocks > 0x7fffffff) throw std::invalid_argument("copy_vec16: too many elements for a 1-D grid");
  kernel<<<unsigned(blocks), kVecThreads, 0, stream>>>(out, in, n);
  TP_CHECK_LAUNCH("copy_vec_kernel");
}

/// True when both pointers allow 16-byte loads and stores.
inline bool aligned16(const void* a, const void* b) {
  return reinterpret_cast<std::uintptr_t>(a) % 16 == 0 && reinterpret_cast<std::uintptr_t>(b) % 16 == 0;
}

/// Copies a rows x cols matrix as a flat array of 16-byte vectors, one per thread, when both
/// pointers are 16-byte aligned; element by element otherwise.
template <typename T>
void copy_vec16(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  const std::size_t n = std::size_t(rows) * std::size_t(cols);
  if (n == 0) return;
  if (aligned16(out, in)) launch_copy_vec<T, uint4>(out, in, n, stream);
  else launch_copy_vec<T, T>(out, in, n, stream);
}

// ---------------------------------------------------------------------------------------
// 4. For comparison: the same 16-byte copy as a grid-stride loop. Often recommended: a grid
//    of exactly as many blocks as fit on the GPU, each thread looping with four 16-byte
//    loads in flight. Measured here, it is slower than copy_vec16 (see the chapter).
// ---------------------------------------------------------------------------------------
constexpr int kLoopUnroll = 4;  // independent 16-byte loads in flight per thread

// [copy_vec16_gridstride]
template <typename T, typename Vec>
__global__ void copy_vec_gridstride_kernel(T* __restrict__ out, const T* __restrict__ in, std::size_t n) {
  constexpr std::size_t kPerVec = sizeof(Vec) / sizeof(T);
  const std::size_t n_vec = n / kPerVec;
  const Vec* in_v = reinterpret_cast<const Vec*>(in);
  Vec* out_v = reinterpret_cast<Vec*>(out);
  const std::size_t tid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;  // threads in the grid

  std::size_t i = tid;
  for (; i + (kLoopUnroll - 1) * stride < n_vec; i += kLoopUnroll * stride) {
    Vec v[kLoopUnroll];  // all loads issued before the first store
#pragma unroll
    for (int u = 0; u < kLoopUnroll; ++u) v[u] = in_v[i + u * stride];
#pragma unroll
    for (int u = 0; u < kLoopUnroll; ++u) out_v[i + u * stride] = v[u];
  }
  for (; i < n_vec; i += stride) out_v[i] = in_v[i];  // the last, partial round

  const std::size_t t = n_vec * kPerVec + tid;  // tail, as in copy_vec_kernel
  if (t < n) out[t] = in[t];
}
// [copy_vec16_gridstride]

/// copy_vec16 as a grid-stride loop over a grid of resident blocks.
template <typename T>
void copy_vec16_gridstride(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  const std::size_t n = std::size_t(rows) * std::size_t(cols);
  if (n == 0) return;
  auto launch = [&](auto kernel, std::size_t per_vec) {
    const std::size_t needed = ceil_div(ceil_div(n, per_vec), std::size_t(kVecThreads) * kLoopUnroll);
    const std::size_t blocks =
        std::max<std::size_t>(1, std::min<std::size_t>(needed, resident_blocks(kernel, kVecThreads)));
    kernel<<<unsigned(blocks), kVecThreads, 0, stream>>>(out, in, n);
    TP_CHECK_LAUNCH("copy_vec_gridstride_kernel");
  };
  if (aligned16(out, in)) launch(copy_vec_gridstride_kernel<T, uint4>, 16 / sizeof(T));
  else launch(copy_vec_gridstride_kernel<T, T>, 1);
}

}  // namespace tp::step00
