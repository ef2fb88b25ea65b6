/// @file steps/08_inplace/rect.cuh
/// @brief Step 08 for rectangles: the in-place transpose of any rows x cols matrix, in three
/// passes that each permute elements only within columns or only within rows.
///
/// The decomposition (Catanzaro, Keller and Garland, PPoPP 2014, written here as gathers):
/// m = rows, n = cols, c = gcd(m, n), a = m / c, b = n / c. The matrix stays an m x n grid
/// through the passes; only at the end do its bytes read as the n x m transpose.
/// - Pass 1, columns (only when c > 1): column j rotates down by j / b.
/// - Pass 2, rows: row i' sends element j to column (j m + i) mod n, where i = (i' - j / b)
///   mod m is the element's original row. Every element is then in its final column.
/// - Pass 3, columns: new (r, col) = old ((p(r) + col) mod m, col), p(r) = (r n + r / a) mod
///   m: a rotation of column col up by col, then one row permutation for all columns.
/// A pass over rows holds a whole row in shared memory; a pass over columns holds a panel of
/// adjacent columns (2 to 16 bytes of every row), the full height, in shared memory. A block
/// reads its row or panel, waits at the barrier, and writes it back permuted: no other block
/// touches those elements, so nothing is overwritten before it is read.
///
/// Extra device memory: none while a row (cols x sizeof(T)) and one column (rows x
/// sizeof(T)) fit in a block's shared memory (227 KB on H100 and H200). Beyond that, a
/// scratch row or column per block in global memory: at most (number of SMs) x max(rows,
/// cols) elements.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step08::rect {

constexpr int kThreads = 512;  // threads per block, both passes

// [plan]
/// The constants of the decomposition for an m x n matrix (m = rows, n = cols).
struct Plan {
  long long m, n;  // the shape
  long long c;     // gcd(m, n)
  long long a, b;  // m / c, n / c
};

inline Plan make_plan(long long m, long long n) {
  long long x = m, y = n;
  while (y != 0) {  // Euclid
    const long long t = x % y;
    x = y;
    y = t;
  }
  return Plan{m, n, x, m / x, n / x};
}

/// Pass 1: the row whose element moves to row r of column j (column j rotates down by j / b).
__host__ __device__ inline long long prerotate_source(const Plan& p, long long r, long long j) {
  return (r + p.m - j / p.b) % p.m;  // j / b < c <= m
}

/// Pass 2: the column that element j of row i' moves to: its final column (j m + i) mod n,
/// where i = (i' - j / b) mod m is the row it had before pass 1.
__host__ __device__ inline long long shuffle_target(const Plan& p, long long i_prime, long long j) {
  const long long i = (i_prime + p.m - j / p.b) % p.m;
  return (j * p.m + i) % p.n;  // j m < 2^62: no overflow
}

/// Pass 3: the row whose element moves to row r of column col.
__host__ __device__ inline long long permute_source(const Plan& p, long long r, long long col) {
  const long long row = (r * p.n + r / p.a) % p.m;  // the row permutation p(r)
  return (row + col % p.m) % p.m;                   // then column col rotated up by col
}
// [plan]

/// Which column pass a launch runs.
enum class Columns { prerotate, permute };

__host__ __device__ inline long long column_source(const Plan& p, Columns pass, long long r, long long col) {
  return pass == Columns::prerotate ? prerotate_source(p, r, col) : permute_source(p, r, col);
}

// [rows]
/// Pass 2: one block per row (grid-stride). The row is read into `buf` (shared memory, or
/// this block's scratch row in global memory when `scratch` is set), scattered to its new
/// columns, and written back in order.
template <typename T>
__global__ void __launch_bounds__(kThreads) shuffle_rows(T* data, Plan p, T* scratch) {
  extern __shared__ uint4 smem[];
  T* buf = scratch ? scratch + std::size_t(blockIdx.x) * p.n : reinterpret_cast<T*>(smem);
  for (long long i = blockIdx.x; i < p.m; i += gridDim.x) {
    T* row = data + i * p.n;
    for (long long j = threadIdx.x; j < p.n; j += kThreads) buf[shuffle_target(p, i, j)] = row[j];
    __syncthreads();  // the whole row is read before any of it is written
    for (long long j = threadIdx.x; j < p.n; j += kThreads) row[j] = buf[j];
    __syncthreads();  // buf is free for the next row
  }
}
// [rows]

// [columns]
/// Passes 1 and 3: one block per panel of kK adjacent columns (grid-stride), read as one
/// Chunk (kK elements, 2 to 16 bytes) per row into `buf`, then written back gathered: element
/// e of row r comes from row column_source(r, col0 + e).
template <typename T, typename Chunk>
__global__ void __launch_bounds__(kThreads) permute_columns(T* data, Plan p, Columns pass, Chunk* scratch) {
  constexpr int kK = sizeof(Chunk) / sizeof(T);  // elements per chunk
  extern __shared__ uint4 smem[];
  Chunk* buf = scratch ? scratch + std::size_t(blockIdx.x) * p.m : reinterpret_cast<Chunk*>(smem);
  const long long panels = p.n / kK;
  for (long long q = blockIdx.x; q < panels; q += gridDim.x) {
    const long long col0 = q * kK;
    for (long long r = threadIdx.x; r < p.m; r += kThreads) {
      buf[r] = *reinterpret_cast<const Chunk*>(data + r * p.n + col0);
    }
    __syncthreads();  // the whole panel is read before any of it is written
    for (long long r = threadIdx.x; r < p.m; r += kThreads) {
      T v[kK];
#pragma unroll
      for (int e = 0; e < kK; ++e) {
        const long long src = column_source(p, pass, r, col0 + e);
        v[e] = reinterpret_cast<const T*>(buf + src)[e];
      }
      Chunk out;
      memcpy(&out, v, sizeof(out));
      *reinterpret_cast<Chunk*>(data + r * p.n + col0) = out;
    }
    __syncthreads();  // buf is free for the next panel
  }
}
// [columns]

/// How a pass is launched: blocks, shared memory per block, and scratch elements per block
/// (0: the row or panel lives in shared memory).
struct Launch {
  int blocks = 0;
  std::size_t shared = 0;
  std::size_t scratch = 0;
};

inline std::size_t shared_limit() {
  int device = 0, limit = 0;
  TP_CUDA_CHECK(cudaGetDevice(&device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return std::size_t(limit);
}

/// Runs a column pass with the widest chunk (up to 16 bytes) that the pointer, the row
/// length and shared memory allow.
template <typename T>
void launch_columns(T* data, const Plan& p, Columns pass, void* scratch, cudaStream_t stream) {
  const std::size_t limit = shared_limit();
  auto run = [&](auto chunk_tag) -> bool {
    using Chunk = decltype(chunk_tag);
    constexpr long long kK = sizeof(Chunk) / sizeof(T);
    const bool aligned = p.n % kK == 0 && reinterpret_cast<std::uintptr_t>(data) % sizeof(Chunk) == 0;
    const std::size_t bytes = std::size_t(p.m) * sizeof(Chunk);
    const bool in_shared = bytes <= limit;
    if (!aligned || (!in_shared && kK > 1)) return false;  // a narrower chunk, or scratch
    auto kernel = permute_columns<T, Chunk>;
    const long long panels = p.n / kK;
    int blocks = 0;
    if (in_shared) {
      allow_shared_memory(kernel, bytes);
      blocks = int(std::min<long long>(panels, resident_blocks(kernel, kThreads, bytes)));
      kernel<<<blocks, kThreads, bytes, stream>>>(data, p, pass, nullptr);
    } else {
      blocks = int(std::min<long long>(panels, sm_count()));
      kernel<<<blocks, kThreads, 0, stream>>>(data, p, pass, static_cast<Chunk*>(scratch));
    }
    TP_CHECK_LAUNCH("permute_columns");
    return true;
  };
  if constexpr (sizeof(T) <= 16) { if (run(uint4{})) return; }
  if constexpr (sizeof(T) <= 8) { if (run(uint2{})) return; }
  if constexpr (sizeof(T) <= 4) { if (run(unsigned{})) return; }
  if constexpr (sizeof(T) == 2) { if (run(static_cast<unsigned short>(0))) return; }
}

/// Runs the row pass, the row in shared memory when it fits.
template <typename T>
void launch_rows(T* data, const Plan& p, void* scratch, cudaStream_t stream) {
  const std::size_t bytes = std::size_t(p.n) * sizeof(T);
  auto kernel = shuffle_rows<T>;
  if (bytes <= shared_limit()) {
    allow_shared_memory(kernel, bytes);
    const int blocks = int(std::min<long long>(p.m, resident_blocks(kernel, kThreads, bytes)));
    kernel<<<blocks, kThreads, bytes, stream>>>(data, p, nullptr);
  } else {
    const int blocks = int(std::min<long long>(p.m, sm_count()));
    kernel<<<blocks, kThreads, 0, stream>>>(data, p, static_cast<T*>(scratch));
  }
  TP_CHECK_LAUNCH("shuffle_rows");
}

/// Scratch bytes the passes need for an m x n matrix of T: 0 when a row and a column fit in
/// shared memory, else one row or one column per block (at most one block per SM).
template <typename T>
std::size_t scratch_bytes(long long m, long long n) {
  const std::size_t limit = shared_limit();
  const std::size_t sms = std::size_t(sm_count()), row = std::size_t(n) * sizeof(T), column = std::size_t(m) * sizeof(T);
  std::size_t bytes = 0;
  if (row > limit) bytes = std::max(bytes, std::min(std::size_t(m), sms) * row);        // launch_rows
  if (column > limit) bytes = std::max(bytes, std::min(std::size_t(n), sms) * column);  // launch_columns
  return bytes;
}

/// The three passes on an m x n matrix (m, n > 1, m != n), enqueued on `stream`.
template <typename T>
void transpose(T* data, int rows, int cols, cudaStream_t stream) {
  const Plan p = make_plan(rows, cols);
  void* scratch = nullptr;
  const std::size_t scratch_size = scratch_bytes<T>(rows, cols);
  // Allocated before any pass runs: if it fails, nothing has been written.
  if (scratch_size > 0) TP_CUDA_CHECK(cudaMallocAsync(&scratch, scratch_size, stream));
  if (p.c > 1) launch_columns(data, p, Columns::prerotate, scratch, stream);
  launch_rows(data, p, scratch, stream);
  launch_columns(data, p, Columns::permute, scratch, stream);
  if (scratch) TP_CUDA_CHECK(cudaFreeAsync(scratch, stream));
}

}  // namespace tp::step08::rect
