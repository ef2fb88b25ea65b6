/// @file steps/08_inplace/kernel.cuh
/// @brief Step 08: the transpose of a square matrix in its own memory, at nearly the speed of
/// step 07's out-of-place transpose.
///
/// What changed from step 07:
/// - There is one buffer. Element (r, c) and element (c, r) swap places, so tile (i, j) and
///   tile (j, i) swap places: ONE block takes the PAIR, reads both tiles into shared memory,
///   and only then writes each one, transposed, where the other was. No other block touches
///   these two tiles, so no block can read what another has already overwritten.
/// - A diagonal tile (i, i) is its own pair: the block reads it, then writes it back
///   transposed, in place.
/// - The grid covers only the pairs: pair p (0 <= p < m (m + 1) / 2, for m x m tiles) is
///   tile (i, j), i <= j, with p = j (j + 1) / 2 + i (pair_of).
/// - The blocks take the pairs from two regions at once: even slots from the first half of
///   the pairs, odd slots from the second half (the chapter measures why).
/// - From step 07: 256-byte tiles, 16-byte loads by cp.async straight into shared memory,
///   16-byte evict-first stores packed in registers, 256 bytes of an output row per warp,
///   the 16-byte swizzle. Two tiles per block: twice step 07's shared memory.
/// - When n is not a multiple of V = 16 / sizeof(T), or the pointer is not 16-byte aligned,
///   the same kernel runs with 32 x 32-element tiles, one element per access, and step 06's
///   XOR swizzle (kWide = false).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <stdexcept>
#include <string>

#include "07_coarsen/kernel.cuh"  // the chunk swizzle (slot)
#include "08_inplace/cycles.cuh"
#include "08_inplace/rect.cuh"
#include "tp/async.cuh"
#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step08 {

constexpr int kThreads = 256;  // threads per block

// [pair]
/// Tile pair p -> its tile (i, j), i <= j, where p = j (j + 1) / 2 + i: pairs are numbered
/// column by column through the upper triangle of the tiles, diagonal included.
__host__ __device__ inline void pair_of(std::size_t p, std::size_t& i, std::size_t& j) {
  j = std::size_t((sqrt(8.0 * double(p) + 1.0) - 1.0) / 2.0);  // largest j with j (j + 1) / 2 <= p,
  while (j * (j + 1) / 2 > p) --j;                             // up to the rounding of sqrt,
  while ((j + 1) * (j + 2) / 2 <= p) ++j;                      // which these two lines correct
  i = p - j * (j + 1) / 2;
}
// [pair]

/// Shared-memory column of element (r, c) of a kTile-wide tile. 16-byte path: step 07's
/// chunk swizzle (chunk c / V XOR (r / V) mod 8). Element path: step 06's c XOR r.
template <typename T, int kTile, bool kWide>
__host__ __device__ constexpr int slot(int r, int c) {
  if constexpr (kWide) return step07::slot<T>(r, c);  // (r / V) mod 8
  else return c ^ (r & (kTile - 1));                  // r mod 32
}

// [inplace]
/// One block swaps one tile pair at a time (grid-stride over the slots). kWide: the 16-byte
/// path, kTile = 256 / sizeof(T); otherwise kTile = 32. Shared memory (dynamic): two tiles.
/// Square blockIdx.y of a grid of n x n squares, `across` per row, rows `ld` apart (one: ld = n).
template <typename T, int kTile, bool kWide>
__global__ void __launch_bounds__(kThreads) inplace_kernel(T* data, int n, std::size_t ld, int across, std::size_t pairs) {
  constexpr int kV = 16 / sizeof(T);
  constexpr int kE = kWide ? kV : 1;                        // elements per global access
  constexpr int kPerRow = kTile / kE;                       // accesses per tile row
  constexpr int kAccesses = kTile * kPerRow / kThreads;     // per thread, tile and phase
  extern __shared__ uint4 smem[];                           // two tiles; uint4: 16-byte aligned rows
  data += std::size_t(blockIdx.y / across) * n * ld + std::size_t(blockIdx.y % across) * n;  // this block's square
  auto at = [&](int buffer, int r, int c) -> T& {           // element (r, c) of a buffer, swizzled
    return reinterpret_cast<T*>(smem)[(buffer * kTile + r) * kTile + slot<T, kTile, kWide>(r, c)];
  };

  // Tile (ti, tj) -> buffer: consecutive threads take consecutive accesses along a tile row.
  auto load_tile = [&](int buffer, std::size_t ti, std::size_t tj) {
    const std::size_t r0 = ti * kTile, c0 = tj * kTile;  // the tile's corner
#pragma unroll
    for (int a = 0; a < kAccesses; ++a) {
      const int idx = threadIdx.x + a * kThreads;
      const int r = idx / kPerRow, c = idx % kPerRow * kE;  // tile row, first tile column
      if (r0 + r >= std::size_t(n) || c0 + c >= std::size_t(n)) continue;
      const T* p = data + (r0 + r) * ld + c0 + c;
      if constexpr (kWide) cp_async16(&at(buffer, r, c), p);
      else at(buffer, r, c) = *p;
    }
  };

  // Buffer (what was tile (ti, tj)) -> tile (tj, ti), transposed: output row c0 + j gets
  // tile column j. 16 bytes: chunk q = idx % 16 of output row j = idx / 16 (a warp writes
  // 256 bytes of 2 rows), V elements of tile column j packed in registers. Elements: a warp
  // writes 32 consecutive elements of one output row.
  auto store_transposed = [&](int buffer, std::size_t ti, std::size_t tj) {
    const std::size_t r0 = ti * kTile, c0 = tj * kTile;
#pragma unroll 2
    for (int a = 0; a < kAccesses; ++a) {
      const int idx = threadIdx.x + a * kThreads;
      const int q = idx % kPerRow, j = idx / kPerRow;  // chunk (or element) q of output row j
      if (c0 + j >= std::size_t(n) || r0 + q * kE >= std::size_t(n)) continue;
      T* p = data + (c0 + j) * ld + r0 + q * kE;  // data[c0 + j][r0 + q kE]
      if constexpr (kWide) {
        T v[kV];  // tile column j, tile rows q V .. q V + V - 1
#pragma unroll
        for (int k = 0; k < kV; ++k) v[k] = at(buffer, q * kV + k, j);
        uint4 packed;
        memcpy(&packed, v, sizeof(packed));
        store16_evict_first(p, packed);
      } else {
        *p = at(buffer, q, j);
      }
    }
  };

  const std::size_t half = (pairs + 1) / 2;  // pairs per region
  for (std::size_t u = blockIdx.x; u < 2 * half; u += gridDim.x) {
    const std::size_t b = u % 2 * half + u / 2;  // slot u -> pair b: the two regions alternate
    if (b >= pairs) continue;                    // the spare slot (the whole block)
    std::size_t ti, tj;                          // this block's tiles: (ti, tj) and (tj, ti)
    pair_of(b, ti, tj);
    const bool diagonal = ti == tj;
    // Read BOTH tiles before writing either: the pair's writes land on each other's reads.
    load_tile(0, ti, tj);
    if (!diagonal) load_tile(1, tj, ti);
    if constexpr (kWide) cp_async_wait_all();
    __syncthreads();
    store_transposed(0, ti, tj);                 // (ti, tj)^T -> (tj, ti)
    if (!diagonal) store_transposed(1, tj, ti);  // (tj, ti)^T -> (ti, tj)
    __syncthreads();                             // the buffers are free for the next pair
  }
}
// [inplace]

// [launch]
/// Each n x n square of a p x q grid of them transposed in place, where it stands: square
/// (i, j) starts at data + i n ld + j n (`ld`: elements from one row to the next).
template <typename T>
void transpose_squares(T* data, int n, std::size_t ld, int p, int q, cudaStream_t stream) {
  constexpr int kV = 16 / sizeof(T);
  auto launch = [&](auto kernel, int tile) {
    const std::size_t tiles = ceil_div(std::size_t(n), std::size_t(tile));  // per side
    const std::size_t pairs = tiles * (tiles + 1) / 2;
    const std::size_t shared = 2 * std::size_t(tile) * tile * sizeof(T);  // two tiles
    allow_shared_memory(kernel, shared);
    const unsigned blocks = unsigned(std::min<std::size_t>((pairs + 1) / 2 * 2, INT_MAX));
    kernel<<<dim3(blocks, unsigned(p) * q), kThreads, shared, stream>>>(data, n, ld, q, pairs);  // q squares across
    TP_CHECK_LAUNCH("inplace_kernel");
  };
  const bool wide = n % kV == 0 && ld % kV == 0 && reinterpret_cast<std::uintptr_t>(data) % 16 == 0;
  if (wide) launch(inplace_kernel<T, 256 / sizeof(T), true>, 256 / sizeof(T));
  else launch(inplace_kernel<T, 32, false>, 32);
}
// [launch]

/// In-place transpose of the n x n row-major matrix `data`. n < 0 throws
/// std::invalid_argument; n == 0 does nothing.
template <typename T>
void transpose_inplace(T* data, int n, cudaStream_t stream = 0) {
  check_shape(n, n);
  if (n > 0) transpose_squares(data, n, std::size_t(n), 1, 1, stream);
}

// [rectangle]
/// In-place transpose of the rows x cols row-major matrix `data`: afterwards its memory holds
/// the cols x rows transpose (transpose it back with rows and cols swapped). A square takes
/// the kernel above; a single row or column is its own transpose in memory; sides with a
/// large common factor take two passes (the squares, then cycles.cuh); any other shape
/// takes the three passes of rect.cuh. Negative sizes, or a null or misaligned `data` with
/// elements to move, throw std::invalid_argument before anything is written.
template <typename T>
void transpose_inplace(T* data, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  const std::string shape = std::to_string(rows) + " x " + std::to_string(cols);
  if (data == nullptr) throw std::invalid_argument("transpose_inplace: data is null for a " + shape + " matrix");
  if (reinterpret_cast<std::uintptr_t>(data) % alignof(T) != 0) {
    throw std::invalid_argument("transpose_inplace: data is not aligned to its element type (" + shape + ")");
  }
  if (rows == cols) return transpose_inplace(data, rows, stream);
  if (rows == 1 || cols == 1) return;  // 1 x n and n x 1: the same bytes
  if (cycles::takes(data, rows, cols)) {  // sides with a common factor g of 512 bytes or more
    const cycles::ChunkPass chunks = cycles::prepare<T>(rows, cols, stream);  // allocates; writes nothing
    const int g = int(chunks.layout.g);
    transpose_squares(data, g, std::size_t(cols), rows / g, cols / g, stream);  // pass 1: each g x g square
    cycles::run(chunks, data, stream);  // pass 2: whole chunks of g elements along their cycles
    return;
  }
  rect::transpose(data, rows, cols, stream);  // any other shape: three passes
}
// [rectangle]

}  // namespace tp::step08
