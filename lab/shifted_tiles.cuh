/// @file lab/shifted_tiles.cuh
/// @brief The shifted path's tiles and the move of one tile: how the record keeps 16-byte
/// accesses on both sides where rows are not a multiple of 16 bytes or a pointer is not
/// 16-byte aligned (the kernels and launchers: shifted.cuh).
///
/// A tile moves in two phases. Load: aligned 16-byte copies (cp.async) of the chunks that
/// cover each tile row, into a row of shared memory one chunk longer, so that each row lands
/// at its shift past a 16-byte boundary. Store: aligned 16-byte stores of each output row,
/// starting on a 32-byte sector (or a 16-byte boundary), each chunk built from V tile rows
/// and rotated into place in registers; the chunk that crosses into the tile below is
/// included, so a tile loads 2 V - 1 or V - 1 rows more than its own. Element by element only
/// at the matrix's edges. Two layouts in shared memory: the line tile (odd cols: each row at
/// its place in a 128-byte line, as in global memory) and the packed tile (even cols).
/// lab/README.md, "Odd shapes", measures both; lab/test_lab_shifted.cu counts their banks.
/// The variants that lost (rows below a tile kept in a ring, shared in a cluster, or not
/// loaded and the crossing chunk split; more blocks per SM) are no longer built: their code
/// can be read at commit 351e545.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tile_parts.cuh"
#include "tp/async.cuh"

namespace tp::lab::coarsen::detail {

/// The rows that the shifted path's tile loads below its kR rows: A - 1 for chunks that start
/// on boundaries of kStartBytes (A = kStartBytes / sizeof(T)).
template <typename T, int kStartBytes>
__host__ __device__ constexpr int rows_below() {
  return kStartBytes / int(sizeof(T)) - 1;
}

/// The shifted path's packed tile in shared memory, for even cols: the kR x kC tile (kR input
/// rows of kC elements) and the first A - 1 rows of the tile below it (kR + A - 1 input rows,
/// A = kStartBytes / sizeof(T): see move_shifted_tile), in groups of V rows. Tile row r holds
/// the aligned 16-byte chunks of `in` that cover its kC elements: kC / V + 1 of them, because
/// the row starts s_r elements past a 16-byte boundary (its shift, 0 to V - 1), so its element
/// c sits at position c + s_r. After each group of V rows comes one spare chunk, so that the
/// column reads of the store phase spread over the banks (lab/test_lab_shifted.cu counts them
/// with the bank model of tests/exercises/banks.hpp).
// [packed_tile]
template <typename T, int kR, int kC = kR, int kStartBytes = 32>
struct PackedTile {
  static constexpr int kV = 16 / sizeof(T);                  // elements per 16-byte chunk
  static constexpr int kRows = kR + rows_below<T, kStartBytes>();  // the tile's rows and A - 1 more
  static constexpr int kRowChunks = kC / kV + 1;             // chunks per row
  static constexpr int kRowElements = kRowChunks * kV;       // elements per row
  static constexpr int kGroupElements = kV * kRowElements + kV;  // V rows and a spare chunk
  static constexpr int kGroups = (kRows + kV - 1) / kV;
  static constexpr int kChunks = kGroups * kGroupElements / kV;  // 16-byte chunks in all
  static constexpr std::size_t kBytes = 16 * std::size_t(kChunks);  // of shared memory
  /// Index, in elements, of position p of row k of group g (tile row g V + k).
  __host__ __device__ static constexpr int at(int g, int k, int p) { return g * kGroupElements + k * kRowElements + p; }
  /// Index, in elements, of position p of tile row r.
  __host__ __device__ static constexpr int at(int r, int p) { return at(r / kV, r % kV, p); }
};
// [packed_tile]

/// The line tile, for odd cols: the same kR + A - 1 rows, each on whole 128-byte lines of
/// shared memory, and each line of `in` copied to the same place of a line of shared memory.
/// Tile row r starts e_r elements into its 128-byte line of `in` (its place), so its element
/// c sits at position c + e_r, and a row spans as many lines as a kC-element run can touch.
/// Eight lanes of a warp then copy one line of `in` to one line of shared memory, where the
/// packed tile's rows start anywhere in a line: at `float` 4899 x 4899 the packed tile's
/// copies asked L2 for 1.9 times the sectors of the 16-byte path at 4896 x 4896, this tile's
/// 1.16 times (docs/results/ncu_shifted_h200_2026-11-24.txt). For odd cols the places of the
/// rows that a warp reads at one step of the store phase, V rows apart, differ by odd
/// multiples of 16 bytes, so those reads still spread over the banks (LabShifted.*); for even
/// cols they would not, and the packed tile is used.
// [line_tile]
template <typename T, int kR, int kC = kR, int kStartBytes = 32>
struct LineTile {
  static constexpr int kV = 16 / sizeof(T);
  static constexpr int kRows = kR + rows_below<T, kStartBytes>();
  static constexpr int kLineElements = 128 / sizeof(T);
  static constexpr int kLines = (kC + 2 * kLineElements - 2) / kLineElements;  // lines a row of kC can touch
  static constexpr int kPitch = kLines * kLineElements;                         // elements per tile row
  static constexpr int kRowChunks = kPitch / kV;                                 // chunks per row
  static constexpr int kChunks = kRows * kRowChunks;                             // 16-byte chunks in all
  static constexpr std::size_t kBytes = 16 * std::size_t(kChunks);               // of shared memory
  /// Index, in elements, of position p of tile row r.
  __host__ __device__ static constexpr int at(int r, int p) { return r * kPitch + p; }
};
// [line_tile]

/// Whether the shifted path takes the line tile: for odd cols, where its column reads spread
/// over the banks (LineTile); the packed tile otherwise.
inline bool line_tile_for(int cols) { return cols % 2 == 1; }

/// Rotates 16 bytes down by `elements` elements of T: element e of the result is element
/// (e + elements) mod V of v. Whole words move by selects; 2-byte steps by funnel shifts.
template <typename T>
__device__ __forceinline__ uint4 rotate_down(uint4 v, int elements) {
  const int bytes = elements * int(sizeof(T));
  unsigned w[4] = {v.x, v.y, v.z, v.w};
  if (bytes & 8) {  // by 2 words
    const unsigned w0 = w[0], w1 = w[1];
    w[0] = w[2], w[1] = w[3], w[2] = w0, w[3] = w1;
  }
  if (bytes & 4) {  // by 1 word
    const unsigned w0 = w[0];
    w[0] = w[1], w[1] = w[2], w[2] = w[3], w[3] = w0;
  }
  if constexpr (sizeof(T) == 2) {
    if (bytes & 2) {  // by half a word: the high half of word k, then the low half of word k + 1
      const unsigned w0 = w[0];
      w[0] = __funnelshift_r(w[0], w[1], 16);
      w[1] = __funnelshift_r(w[1], w[2], 16);
      w[2] = __funnelshift_r(w[2], w[3], 16);
      w[3] = __funnelshift_r(w[3], w0, 16);
    }
  }
  return make_uint4(w[0], w[1], w[2], w[3]);
}

/// The tile row that step k (0 to V - 1) of the shifted path's store phase reads for chunk q
/// of an output row whose chunks start a rows into the tile (a_j, 0 to A - 1): the chunk's
/// rows are q V + a ... q V + a + V - 1, and step k takes the one that is k mod V.
template <int kV>
__host__ __device__ constexpr int shifted_step_row(int q, int a, int k) {
  const int p = q + a / kV;  // the group of the chunk's first row
  return (k < a % kV ? p + 1 : p) * kV + k;
}

/// The store phase of the shifted path takes 16 chunks (256 bytes) of 2 output rows per warp
/// where a tile's output rows (kR elements) have 16 chunks or more, else 8 chunks of 4. The
/// longer runs cost twice the fewest wavefronts for the column reads of 2- and 4-byte types
/// (LabShifted.*), as kStore256 does on the 16-byte path.
template <typename T, int kR>
__host__ __device__ constexpr int shifted_warp_chunks() {
  return kR / (16 / int(sizeof(T))) >= 16 ? 16 : 8;
}

/// Moves the tile whose corner is in[r0][c0] to out[c0][r0] with 16-byte accesses on both sides,
/// whatever the alignment of the rows (the shifted path). Output row j of the tile,
/// out[c0 + j][r0 ...], starts t_j elements past a boundary of kStartBytes (16, or 32: a
/// sector), A = kStartBytes / sizeof(T) elements; its chunks start at tile rows a_j, a_j + V, ...
/// (a_j = (A - t_j) mod A), the first on such a boundary. The tile (kR rows, kC columns) writes
/// the kR / V chunks that start inside it, the last one ending in the A - 1 rows below the tile;
/// its first a_j elements belong to the chunk that the tile above writes. kLineTile: the tile in
/// shared memory is the line tile (LineTile), else the packed one (PackedTile). kEdge: the tile
/// is at an edge of the matrix (its first tile row, its last tile column, a tile without A rows
/// below it), where rows, columns and chunks are checked and the ends of the output rows are
/// written element by element (all other tiles skip the checks). kEvictFirst: evict-first
/// hints on the 16-byte stores.
// [shifted]
template <typename T, int kR, int kC, int kThreads, bool kLineTile, int kStartBytes, bool kEdge, bool kEvictFirst = false>
__device__ __forceinline__ void move_shifted_tile(T* tile, T* __restrict__ out, const T* __restrict__ in,
                                                  int rows, int cols, std::size_t r0, std::size_t c0) {
  using Tile = std::conditional_t<kLineTile, LineTile<T, kR, kC, kStartBytes>, PackedTile<T, kR, kC, kStartBytes>>;
  constexpr int kV = Tile::kV;
  constexpr int kRowChunks = Tile::kRowChunks;                                   // chunks a tile row holds
  constexpr int kLoads = (Tile::kRows * kRowChunks + kThreads - 1) / kThreads;  // per thread
  constexpr int kStores = kR * kC / kV / kThreads;                              // output chunks per thread
  static_assert(kStores >= 1 && kR * kC % (kV * kThreads) == 0, "whole output chunks per thread");
  constexpr int kWarpChunks = shifted_warp_chunks<T, kR>();  // a warp's chunks per output row
  constexpr int kStep = store_step<kR / kV, kWarpChunks>(kThreads);  // output rows between a thread's chunks
  constexpr int kA = kStartBytes / int(sizeof(T));  // elements of the chunks' boundary
  static_assert(kStartBytes == 16 || kStartBytes == 32, "chunks start on 16 or 32 bytes");
  static_assert(kStep > 0 && kStep % kA == 0, "a thread's chunks have one q, in output rows the same mod A (one a_j)");
  const int below = kEdge ? int(min(unsigned(Tile::kRows), unsigned(rows - r0))) : Tile::kRows;  // rows from r0 on
  const int width = kEdge ? int(min(unsigned(kC), unsigned(cols - c0))) : kC;  // tile columns inside the matrix
  const std::size_t n = std::size_t(rows) * cols;                             // elements of `in` and `out`

  // The place of tile row r: where in[r0 + r][c0] lies, in elements, past a 16-byte boundary
  // (the packed tile: its shift s_r, the same for rows V apart) or past a 128-byte one (the
  // line tile: e_r). Only addresses mod 128 count, and 32-bit arithmetic keeps them (it
  // wraps mod 2^32).
  const unsigned in_corner = unsigned(reinterpret_cast<std::uintptr_t>(in + r0 * cols + c0));
  auto place = [&](int r) {
    constexpr unsigned kBoundary = kLineTile ? 128 : 16;
    return int((in_corner + unsigned(r) * unsigned(cols) * unsigned(sizeof(T))) % kBoundary / sizeof(T));
  };

  // Load phase: chunk q of tile row r is the aligned 16 bytes of `in` that hold tile columns
  // q V - place ... q V - place + V - 1 (columns below 0 or from kC on: the neighbours',
  // unused). Consecutive threads copy consecutive chunks, kRowChunks per row: in the line
  // tile, whole lines of `in` (8 chunks), so that 8 consecutive lanes copy one line to one line.
#pragma unroll
  for (int i = 0; i < kLoads; ++i) {
    const int idx = threadIdx.x + i * kThreads;
    const int r = idx / kRowChunks, q = idx % kRowChunks;  // row, chunk
    const int c = q * kV - place(r);                       // the chunk's first tile column
    if (r >= below || c >= width || c + kV <= 0) continue;  // past the matrix, or none of the tile's columns
    const std::ptrdiff_t x = std::ptrdiff_t((r0 + r) * cols + c0) + c;  // in[x]: the chunk's first element
    T* dst = &tile[Tile::at(r, q * kV)];
    if (!kEdge || (x >= 0 && std::size_t(x) + kV <= n)) {
      tp::cp_async16(dst, in + x);  // in + x is 16-byte aligned
    } else {                        // the chunk starts before in[0] or ends past in[n - 1]: its elements inside
#pragma unroll
      for (int k = 0; k < kV; ++k) {
        if (x + k >= 0 && std::size_t(x + k) < n) dst[k] = in[x + k];
      }
    }
  }
  tp::cp_async_wait_all();  // this thread's copies have landed
  __syncthreads();          // and everyone else's

  // Store phase: chunk q of output row j covers tile rows first = q V + a_j ... first + V - 1
  // (shifted_step_row: step k reads the one that is k mod V).
  // Step k reads the row that is k mod V: whatever their chunks, a warp's lanes then read
  // elements at different places of their 16-byte chunks, so in different banks. Element e
  // (tile row first + e) lands in v[(u_j + e) mod V], and a rotation puts it at position e.
  // A warp takes kWarpChunks chunks of 32 / kWarpChunks output rows (store_chunk). A
  // thread's chunks are chunk q of output rows kStep apart, whose a_j are the same: it finds
  // the V tile rows it reads, and where they start, once per tile.
  int q, j0;
  store_chunk<kR / kV, kWarpChunks>(threadIdx.x, q, j0);
  const unsigned out_corner = unsigned(reinterpret_cast<std::uintptr_t>(out + c0 * rows + r0) / sizeof(T));
  const int a = int((kA - (out_corner + unsigned(j0) * unsigned(rows)) % kA) % kA);  // a_j of all its rows
  const int u = a % kV;          // u_j: the rotation
  const int first = q * kV + a;  // the chunks' first tile row
  int start[kV];                 // start[k]: index of tile column 0 in the row that step k reads
#pragma unroll
  for (int k = 0; k < kV; ++k) {
    const int r = shifted_step_row<kV>(q, a, k);
    start[k] = Tile::at(r, place(r));
  }
  T* dst = out + (c0 + j0) * rows + r0;  // out[c0 + j0][r0]: tile row 0 of output row j0
#pragma unroll 2  // as on the 16-byte path
  for (int i = 0; i < kStores; ++i, dst += std::size_t(kStep) * rows) {
    const int j = j0 + i * kStep;       // output row j of the tile (tile column j)
    if (kEdge && j >= width) continue;  // past the last column of `in`
    T v[kV];
#pragma unroll
    for (int k = 0; k < kV; ++k) v[k] = tile[start[k] + j];  // tile element (the row step k reads, j)
    uint4 chunk;
    memcpy(&chunk, v, sizeof(chunk));
    chunk = rotate_down<T>(chunk, u);  // element e at position e
    if (!kEdge || first + kV <= below) {
      store16<kEvictFirst>(dst + first, chunk);  // the whole chunk: one 16-byte store
    } else {  // the chunk passes the last row of `in` (the output row ends inside it)
      T w[kV];
      memcpy(w, &chunk, sizeof(w));
#pragma unroll
      for (int e = 0; e < kV; ++e) {
        if (first + e < below) dst[first + e] = w[e];
      }
    }
    // The first tile row: the a_j elements before the first chunk (the rest of their chunk
    // ends the output row before, which its tile writes up to the row's end).
    if (kEdge && r0 == 0 && q == 0) {
      for (int r = 0; r < a && r < below; ++r) dst[r] = tile[Tile::at(r, j + place(r))];
    }
  }
  __syncthreads();  // the tile is free for the next one
}
// [shifted]

/// move_shifted_tile for the tile at (r0, c0), with the checks only where it needs them.
/// Tiles at an edge take the checks: the first tile row (it writes the first elements of the
/// output rows; the first tile's first chunk may start before in[0]), the last tile column,
/// and the tiles without A rows of `in` below them.
template <typename T, int kR, int kC, int kThreads, bool kLineTile, int kStartBytes, bool kEvictFirst = false>
__device__ __forceinline__ void move_shifted_tile_at(T* tile, T* __restrict__ out, const T* __restrict__ in, int rows,
                                                     int cols, std::size_t r0, std::size_t c0) {
  constexpr int kBelow = rows_below<T, kStartBytes>();  // a tile's chunks reach up to A - 1 rows below it
  if (r0 > 0 && c0 + kC <= std::size_t(cols) && r0 + kR + kBelow + 1 <= std::size_t(rows)) {
    move_shifted_tile<T, kR, kC, kThreads, kLineTile, kStartBytes, false, kEvictFirst>(tile, out, in, rows, cols, r0, c0);
  } else {
    move_shifted_tile<T, kR, kC, kThreads, kLineTile, kStartBytes, true, kEvictFirst>(tile, out, in, rows, cols, r0, c0);
  }
}

}  // namespace tp::lab::coarsen::detail
