/// @file steps/08_inplace/rect_reference.cuh
/// @brief The in-place transpose of any rows x cols matrix, written to be read rather than to be
/// fast: the passes of Catanzaro, Keller and Garland's decomposition (PPoPP 2014), each a
/// small kernel whose index maths is plain `%` and `/`.
///
/// Why passes: a rectangle has no tile pairs (element (i, j) of the m x n matrix moves to
/// position j m + i, and those moves form long cycles), but each pass below moves elements
/// only within a column or only within a row. So a block can own one line: it reads the
/// whole line into a buffer, waits at the barrier, and writes the line back permuted. No
/// other block touches that line, so nothing is overwritten before it is read.
///
/// m = rows, n = cols, c = gcd(m, n), a = m / c, b = n / c:
/// - Pass 1, columns (only when c > 1): column j rotates down by j / b.
/// - Pass 2, rows: each element goes to its final column, (j m + i) mod n for the element
///   that started at (i, j).
/// - Pass 3, columns: row r of column col takes row (r n + r / a + col) mod m.
/// Coprime sides (c = 1) take passes 2 and 3 only. Afterwards the bytes read as the n x m
/// transpose. The fast versions of the same passes are in rect.cuh; the chapter that walks
/// through both is rectangles.md.
///
/// Extra device memory: none while a line fits in a block's shared memory (a row is cols x
/// sizeof(T) bytes, a column rows x sizeof(T); 227 KB on H100 and H200). A pass whose lines
/// do not fit runs one block per SM, each with one line of a scratch buffer in global
/// memory: (number of SMs) x max(rows, cols) elements at most, a DeviceBuffer. It must outlive
/// the passes, so with scratch this function waits for them on `stream` before it returns.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>

#include "tp/buffer.hpp"
#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step08::reference {

constexpr int kThreads = 256;  // threads per block, every pass

/// The shape and the constants of the decomposition: m = rows, n = cols, c = gcd(m, n).
struct Plan {
  long long m, n, c, a, b;  // a = m / c, b = n / c
};

inline Plan plan_of(long long m, long long n) {
  const long long c = std::gcd(m, n);
  return Plan{m, n, c, m / c, n / c};
}

// [maths]
/// Pass 1: the row whose element moves to row r of column j (column j rotates down by j / b).
__host__ __device__ inline long long pass1_source(const Plan& p, long long r, long long j) {
  return (r - j / p.b + p.m) % p.m;  // j / b < c <= m: the sum stays positive
}

/// Pass 2: the column that element j of row i' moves to. i = (i' - j / b) mod m undoes pass
/// 1: it is the row where the element started, so (j m + i) mod n is its final column.
__host__ __device__ inline long long pass2_target(const Plan& p, long long i_prime, long long j) {
  const long long i = (i_prime - j / p.b + p.m) % p.m;
  return (j * p.m + i) % p.n;  // j m < 2^62: no overflow
}

/// Pass 3: the row whose element moves to row r of column col.
__host__ __device__ inline long long pass3_source(const Plan& p, long long r, long long col) {
  return (r * p.n + r / p.a + col) % p.m;  // r n < 2^62: no overflow
}
// [maths]

// [rows]
/// Pass 2, one row per block at a time: the row is scattered into `buf` (shared memory, or
/// this block's row of `scratch`) at its elements' new columns, then copied back in order.
template <typename T>
__global__ void shuffle_rows(T* data, Plan p, T* scratch) {
  extern __shared__ uint4 smem[];  // uint4: aligned for every T
  T* buf = scratch ? scratch + blockIdx.x * p.n : reinterpret_cast<T*>(smem);
  for (long long i = blockIdx.x; i < p.m; i += gridDim.x) {
    T* row = data + i * p.n;  // row i: elements i n .. i n + n - 1
    for (long long j = threadIdx.x; j < p.n; j += blockDim.x) buf[pass2_target(p, i, j)] = row[j];
    __syncthreads();  // the whole row is read before any of it is written
    for (long long j = threadIdx.x; j < p.n; j += blockDim.x) row[j] = buf[j];
    __syncthreads();  // buf is free for the next row
  }
}
// [rows]

// [columns]
/// Passes 1 and 3, one column per block at a time: the column is copied into `buf`, then row
/// r of the column takes buf[source(r)] (a gather).
template <typename T, int kPass>
__global__ void permute_columns(T* data, Plan p, T* scratch) {
  extern __shared__ uint4 smem[];
  T* buf = scratch ? scratch + blockIdx.x * p.m : reinterpret_cast<T*>(smem);
  for (long long j = blockIdx.x; j < p.n; j += gridDim.x) {
    for (long long r = threadIdx.x; r < p.m; r += blockDim.x) buf[r] = data[r * p.n + j];  // (r, j)
    __syncthreads();  // the whole column is read before any of it is written
    for (long long r = threadIdx.x; r < p.m; r += blockDim.x) {
      const long long from = kPass == 1 ? pass1_source(p, r, j) : pass3_source(p, r, j);
      data[r * p.n + j] = buf[from];
    }
    __syncthreads();  // buf is free for the next column
  }
}
// [columns]

// [transpose]
/// In-place transpose of the rows x cols row-major matrix `data`: afterwards its memory holds
/// the cols x rows transpose. Negative sizes, or a null or misaligned `data` with elements to
/// move, throw std::invalid_argument before anything is written; 0 rows or cols: nothing.
template <typename T>
void transpose_inplace(T* data, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  if (data == nullptr || reinterpret_cast<std::uintptr_t>(data) % alignof(T) != 0) {
    throw std::invalid_argument("reference::transpose_inplace: data is null or misaligned (" +
                                std::to_string(rows) + " x " + std::to_string(cols) + ")");
  }
  const Plan p = plan_of(rows, cols);
  const std::size_t limit = shared_memory_limit();
  auto fits = [&](long long length) { return std::size_t(length) * sizeof(T) <= limit; };
  // One line per SM for the lines that do not fit in shared memory, allocated before any pass.
  const long long longest = std::max(fits(p.m) ? 0 : p.m, fits(p.n) ? 0 : p.n);
  const DeviceBuffer scratch(std::size_t(sm_count()) * std::size_t(longest) * sizeof(T));

  // A pass over `lines` lines of `length` elements: one block per line, the line in shared
  // memory; or, where it does not fit, one block per SM, each with a line of scratch.
  auto pass = [&](auto kernel, long long lines, long long length) {
    if (fits(length)) {
      const std::size_t bytes = std::size_t(length) * sizeof(T);
      allow_shared_memory(kernel, bytes);  // above 48 KB a kernel must opt in
      kernel<<<unsigned(lines), kThreads, bytes, stream>>>(data, p, nullptr);
    } else {
      const unsigned blocks = unsigned(std::min<long long>(lines, sm_count()));
      kernel<<<blocks, kThreads, 0, stream>>>(data, p, scratch.as<T>());
    }
    TP_CHECK_LAUNCH("reference pass");
  };
  if (p.c > 1) pass(permute_columns<T, 1>, p.n, p.m);  // pass 1: n columns of m elements
  pass(shuffle_rows<T>, p.m, p.n);                      // pass 2: m rows of n elements
  pass(permute_columns<T, 3>, p.n, p.m);                // pass 3: n columns of m elements
  if (scratch.data() != nullptr) TP_CUDA_CHECK(cudaStreamSynchronize(stream));  // before it is freed
}
// [transpose]

}  // namespace tp::step08::reference
