/// @file steps/08_inplace/rect.cuh
/// @brief Step 08 for rectangles: the in-place transpose of any rows x cols matrix, in three
/// passes (two when the sides are coprime) that each permute elements only within columns or
/// only within rows.
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
/// adjacent columns (2 to 32 bytes of every row), the full height, in shared memory. A block
/// reads its row or panel, waits at the barrier, and writes it back permuted: no other block
/// touches those elements, so nothing is overwritten before it is read. Each pass reads and
/// writes the whole matrix once; step 08's chapter on rectangles (rectangles.md) measures each
/// one beside cudaMemcpy. rect_reference.cuh is the same passes written plainly.
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

// The kernels compute the same indices without a 64-bit division per element (a 64-bit `%`
// is a software routine of dozens of instructions, more than a pass can spend per element at
// full bandwidth): at most one division per 16 bytes, done by Divisor, and steps from there.

// [divisor]
/// x / d and x mod d for 0 <= x < 2^52 (any index into a matrix that fits in memory): x
/// times 1 / d in double precision is within one of the quotient, and one comparison each
/// way corrects it.
struct Divisor {
  long long d;
  double inv;
  // [divide]
  explicit Divisor(long long divisor = 1) : d(divisor), inv(1.0 / double(divisor)) {}
  __host__ __device__ long long div(long long x) const {
    long long q = static_cast<long long>(double(x) * inv);
    const long long r = x - q * d;
    if (r < 0) --q;
    else if (r >= d) ++q;
    return q;
  }
  __host__ __device__ long long mod(long long x) const { return x - div(x) * d; }
  // [divide]
};
// [divisor]

/// The plan with what the kernels precompute from it.
struct Fast {
  Plan p;
  Divisor m_div;      // x mod m
  Divisor n_div;      // x mod n
  long long m_mod_n;  // m mod n: the step of (j m) mod n from one j to the next
  explicit Fast(const Plan& plan) : p(plan), m_div(plan.m), n_div(plan.n), m_mod_n(plan.m % plan.n) {}
};

// [walker]
/// Pass 2 along a row: the targets shuffle_target(i', j) for j = j0, j0 + 1, ...: one
/// division at j0, then a few 32-bit additions and comparisons per step (n, m < 2^31).
struct RowWalker {
  unsigned target;   // shuffle_target(i', j) for the current j
  unsigned q, rem;   // j / b and j mod b: pass 1 moved element j down by q rows
  unsigned i_prime;
  __host__ __device__ RowWalker(const Fast& f, long long i_prime_, long long j0) : i_prime(unsigned(i_prime_)) {
    q = unsigned(j0) / unsigned(f.p.b);
    rem = unsigned(j0) - q * unsigned(f.p.b);
    const long long i = i_prime >= q ? i_prime_ - q : i_prime_ - q + f.p.m;  // the original row
    target = unsigned(f.n_div.mod(j0 * f.p.m + i));
  }
  /// To j + 1: the target moves by m (mod n). Where j / b grows, the original row is one
  /// less, so the target moves back by one, and by m more where that row wraps below 0.
  // [walker_next]
  __host__ __device__ void next(const Fast& f) {
    const unsigned n = unsigned(f.p.n), step = unsigned(f.m_mod_n);
    target += step;  // < 2^32: both < 2^31
    if (target >= n) target -= n;
    if (++rem == unsigned(f.p.b)) {
      rem = 0;
      ++q;
      target = target == 0 ? n - 1 : target - 1;
      if (q == i_prime + 1) {  // i' - q turns negative: the row is i' - q + m from here on
        target += step;
        if (target >= n) target -= n;
      }
    }
  }
  // [walker_next]
};
// [walker]

/// Pass 3's row permutation p(r) = (r n + r / a) mod m, with one division by m.
__host__ __device__ inline long long row_permutation(const Fast& f, long long r) {
  return f.m_div.mod(r * f.p.n + unsigned(r) / unsigned(f.p.a));  // r, a < 2^31
}

/// What column col adds to the source row in a column pass: pass 1 subtracts col / b (mod
/// m), pass 3 adds col mod m (and p(r) per row). column_source(r, col) = (base(r) + this)
/// mod m, where base(r) is r in pass 1 and p(r) in pass 3.
__host__ __device__ inline long long column_shift(const Plan& p, Columns pass, long long col) {
  return pass == Columns::prerotate ? (p.m - col / p.b % p.m) % p.m : col % p.m;
}

// [in_flight]
/// A thread's share of a pass's reads: items first, first + stride, ... (kU of them, those
/// below `count`). All kU loads are issued before the first is used, so that they are in
/// flight together; then use(item, value) takes each one.
template <int kU, typename Chunk, typename Load, typename Use>
__device__ __forceinline__ void load_then_use(long long first, long long stride, long long count, Load load,
                                              Use use) {
  Chunk v[kU]{};  // zeroed, though only loaded values are used: uninitialized, one spilled to the stack
#pragma unroll
  for (int u = 0; u < kU; ++u) {  // the loads first, all in flight at once
    const long long k = first + u * stride;
    if (k < count) v[u] = load(k);
  }
#pragma unroll
  for (int u = 0; u < kU; ++u) {
    const long long k = first + u * stride;
    if (k >= count) break;
    use(k, v[u]);
  }
}
// [in_flight]

// [rows]
/// Pass 2: one block per row (grid-stride). The row is read, kU chunks of 16 bytes (or of
/// one element, where the row length or the pointer does not allow 16) per thread in
/// flight, and scattered into `buf` (shared memory, or this block's scratch row in global
/// memory when `scratch` is set) at the elements' new columns; after the barrier, `buf` is
/// written back in order.
template <typename T, typename Chunk>
__global__ void __launch_bounds__(kThreads) shuffle_rows(T* data, Fast f, T* scratch) {
  constexpr int kV = sizeof(Chunk) / sizeof(T);  // elements per chunk
  constexpr int kU = 4;                          // chunks per thread in flight
  extern __shared__ uint4 smem[];
  const long long n = f.p.n, chunks = n / kV;
  T* buf = scratch ? scratch + std::size_t(blockIdx.x) * n : reinterpret_cast<T*>(smem);
  for (long long i = blockIdx.x; i < f.p.m; i += gridDim.x) {
    Chunk* row = reinterpret_cast<Chunk*>(data + i * n);
    for (long long k0 = threadIdx.x; k0 < chunks; k0 += kU * kThreads) {
      load_then_use<kU, Chunk>(
          k0, kThreads, chunks, [&](long long k) { return row[k]; },
          [&, i](long long k, Chunk chunk) {  // its elements to their target columns
            T e[kV];
            memcpy(e, &chunk, sizeof(Chunk));
            RowWalker w(f, i, k * kV);
#pragma unroll
            for (int x = 0; x < kV; ++x) {
              buf[w.target] = e[x];
              w.next(f);
            }
          });
    }
    __syncthreads();  // the whole row is read before any of it is written
    const Chunk* in = reinterpret_cast<const Chunk*>(buf);
    for (long long k = threadIdx.x; k < chunks; k += kThreads) row[k] = in[k];
    __syncthreads();  // buf is free for the next row
  }
}
// [rows]

// [columns]
/// Passes 1 and 3: one block per panel of kK adjacent columns (grid-stride), read as one
/// Chunk (kK elements, 2 to 32 bytes) per row, kU rows per thread in flight, into `buf`
/// (shared memory, or this block's scratch in global memory), column by column: element e of
/// row r at buf[e m + r], so that a warp's 32 rows fall in 32 consecutive slots. After the
/// barrier, each row is written back gathered: its element e comes from row
/// column_source(r, col0 + e).
template <typename T, typename Chunk>
__global__ void __launch_bounds__(kThreads) permute_columns(T* data, Fast f, Columns pass, T* scratch) {
  constexpr int kK = sizeof(Chunk) / sizeof(T);  // elements per chunk
  constexpr int kU = 8;                          // rows per thread in flight
  extern __shared__ uint4 smem[];
  const long long m = f.p.m, n = f.p.n;
  T* buf = scratch ? scratch + std::size_t(blockIdx.x) * kK * m : reinterpret_cast<T*>(smem);
  for (long long q = blockIdx.x; q < n / kK; q += gridDim.x) {
    const long long col0 = q * kK;
    // [panel]
    for (long long r0 = threadIdx.x; r0 < m; r0 += kU * kThreads) {
      load_then_use<kU, Chunk>(
          r0, kThreads, m, [&](long long r) { return *reinterpret_cast<const Chunk*>(data + r * n + col0); },
          [&](long long r, Chunk chunk) {  // column by column
            T e[kK];
            memcpy(e, &chunk, sizeof(Chunk));
#pragma unroll
            for (int x = 0; x < kK; ++x) buf[x * m + r] = e[x];
          });
    }
    // [panel]
    long long shift[kK];  // the same for every row of the panel: one division, then steps
    shift[0] = column_shift(f.p, pass, col0);
    long long rem = col0 % f.p.b;  // pass 1: the shift falls by one where col / b grows
#pragma unroll
    for (int e = 1; e < kK; ++e) {
      shift[e] = shift[e - 1];
      if (pass == Columns::permute) {
        shift[e] = shift[e] + 1 == m ? 0 : shift[e] + 1;
      } else if (++rem == f.p.b) {
        rem = 0;
        shift[e] = shift[e] == 0 ? m - 1 : shift[e] - 1;
      }
    }
    __syncthreads();  // the whole panel is read before any of it is written
    for (long long r = threadIdx.x; r < m; r += kThreads) {
      const long long base = pass == Columns::prerotate ? r : row_permutation(f, r);
      T v[kK];
#pragma unroll
      for (int e = 0; e < kK; ++e) {
        long long src = base + shift[e];  // both < m
        if (src >= m) src -= m;
        v[e] = buf[e * m + src];
      }
      Chunk out;
      memcpy(&out, v, sizeof(out));
      *reinterpret_cast<Chunk*>(data + r * n + col0) = out;
    }
    __syncthreads();  // buf is free for the next panel
  }
}
// [columns]

/// 32 bytes of a row, for column passes on matrices of at most 7264 rows (shared memory
/// holds 32 bytes of each row): two 16-byte accesses that fill one 32-byte sector.
struct alignas(32) Bytes32 {
  uint4 lo, hi;
};

/// Runs a column pass with the widest chunk, up to `max_chunk` bytes, that the pointer, the
/// row length and shared memory allow (one element per row, in a scratch column per block,
/// when even that does not fit in shared memory). Returns the chunk's bytes.
template <typename T>
int launch_columns(T* data, const Plan& p, Columns pass, void* scratch, cudaStream_t stream, int max_chunk = 32) {
  const std::size_t limit = shared_memory_limit();
  auto run = [&](auto chunk_tag) -> bool {
    using Chunk = decltype(chunk_tag);
    constexpr long long kK = sizeof(Chunk) / sizeof(T);
    const bool aligned = p.n % kK == 0 && reinterpret_cast<std::uintptr_t>(data) % sizeof(Chunk) == 0;
    const std::size_t bytes = std::size_t(p.m) * sizeof(Chunk);
    const bool in_shared = bytes <= limit;
    if (kK > 1 && (!aligned || !in_shared || sizeof(Chunk) > std::size_t(max_chunk))) return false;
    auto kernel = permute_columns<T, Chunk>;
    const long long panels = p.n / kK;
    if (in_shared) {
      allow_shared_memory(kernel, bytes);
      const int blocks = int(std::min<long long>(panels, resident_blocks(kernel, kThreads, bytes)));
      kernel<<<blocks, kThreads, bytes, stream>>>(data, Fast(p), pass, nullptr);
    } else {
      const int blocks = int(std::min<long long>(panels, sm_count()));
      kernel<<<blocks, kThreads, 0, stream>>>(data, Fast(p), pass, static_cast<T*>(scratch));
    }
    TP_CHECK_LAUNCH("permute_columns");
    return true;
  };
  if (run(Bytes32{})) return 32;
  if constexpr (sizeof(T) < 16) { if (run(uint4{})) return 16; }
  if constexpr (sizeof(T) < 8) { if (run(uint2{})) return 8; }
  if constexpr (sizeof(T) < 4) { if (run(0u)) return 4; }
  run(T{});  // one element per row: always runs
  return int(sizeof(T));
}

/// Runs the row pass: 16-byte chunks where the row length and the pointer allow, the row in
/// shared memory where it fits (else a scratch row per block).
template <typename T>
void launch_rows(T* data, const Plan& p, void* scratch, cudaStream_t stream) {
  const std::size_t bytes = std::size_t(p.n) * sizeof(T);
  auto run = [&](auto kernel) {
    if (bytes <= shared_memory_limit()) {
      allow_shared_memory(kernel, bytes);
      const int blocks = int(std::min<long long>(p.m, resident_blocks(kernel, kThreads, bytes)));
      kernel<<<blocks, kThreads, bytes, stream>>>(data, Fast(p), nullptr);
    } else {
      const int blocks = int(std::min<long long>(p.m, sm_count()));
      kernel<<<blocks, kThreads, 0, stream>>>(data, Fast(p), static_cast<T*>(scratch));
    }
    TP_CHECK_LAUNCH("shuffle_rows");
  };
  constexpr long long kV = 16 / sizeof(T);
  if (p.n % kV == 0 && reinterpret_cast<std::uintptr_t>(data) % 16 == 0) run(shuffle_rows<T, uint4>);
  else run(shuffle_rows<T, T>);
}

/// Scratch bytes the passes need for an m x n matrix of T: 0 when a row and a column fit in
/// shared memory, else one row or one column per block (at most one block per SM).
template <typename T>
std::size_t scratch_bytes(long long m, long long n) {
  const std::size_t limit = shared_memory_limit();
  const std::size_t sms = std::size_t(sm_count()), row = std::size_t(n) * sizeof(T), column = std::size_t(m) * sizeof(T);
  std::size_t bytes = 0;
  if (row > limit) bytes = std::max(bytes, std::min(std::size_t(m), sms) * row);        // launch_rows
  if (column > limit) bytes = std::max(bytes, std::min(std::size_t(n), sms) * column);  // launch_columns
  return bytes;
}

/// The passes on an m x n matrix (m, n > 1, m != n), enqueued on `stream`.
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
