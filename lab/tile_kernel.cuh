/// @file lab/tile_kernel.cuh
/// @brief The lab's tile kernel: step 07's kernel with the ideas that the lab's sections still
/// measure as switches (Feature), its launcher, and the feature sets of the headline and the
/// record. The main line (steps/07_coarsen/kernel.cuh) keeps the headline alone; here each of
/// its ideas can be taken away one at a time, and the record adds a moved grid for offset
/// pointers.
///
/// What the kernel adds to step 06 (as step 07 does):
/// - Tiles are measured in BYTES, so that every element type moves the same bytes: a tile
///   of kInBytes x kOutBytes covers kInBytes of each input row and kOutBytes of each output
///   row. 256 x 256 bytes is 64 x 64 floats, 128 x 128 halves, 32 x 32 doubles.
/// - Each thread moves several 16-byte chunks per tile (4 to 8 instead of 4 elements), and
///   issues all its loads before its first shared-memory store: more bytes in flight.
/// - Loads are 16 bytes (V = 16 / sizeof(T) elements of an input row), stores are 16 bytes
///   (V elements of an output row, i.e. one element from each of V input rows, packed into
///   a uint4 in registers: PRMT instructions for 2-byte types).
/// - The tile is swizzled at 16-byte granularity (detail::slot), so that the column reads of
///   the store phase, 8 chunks of 4 output rows per warp, hit 32 different banks.
/// - The 16-byte path needs rows and cols that are multiples of V and 16-byte aligned
///   pointers (or, with kMovedGrid, only the multiples of V); otherwise the same kernel runs
///   with one element per access (an XOR swizzle per element, as in step 06).
/// - Tiles inside the matrix run without bounds checks (only the edge tiles need them).
///
/// The switches (Feature) and the lab sections that measure them (lab/README.md): kStreaming
/// and kCpAsync in "Evict-first hints, and plain 16-byte stores"; kStore256 ("Tuning", rows
/// runs256 and runs128_pairs); kColumns and kInterleave in "Tile orders" (order_rows,
/// regions_always, regions_never); kPairs in "A lean tile for a few waves"; kMovedGrid in
/// "Odd shapes"; the launcher's blocks_per_sm and kMinBlocks in "Occupancy". The variants that
/// lost (diagonal, grouped and banded orders, double buffering, bulk stores, L2 hints on the
/// loads, a persistent grid, a ninth block per SM on the moved grid) are no longer built: their
/// code can be read at commit 351e545.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <type_traits>

#include "07_coarsen/kernel.cuh"  // pitch_is_128k_multiple
#include "tile_parts.cuh"
#include "tp/async.cuh"
#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::lab::coarsen {

/// The kernel's switches, as bit flags of its template.
// [features]
enum Feature : unsigned {
  kVec16 = 1u << 0,       ///< 16-byte global loads and stores, when shape and alignment allow
  kStreaming = 1u << 1,   ///< evict-first hints (.cs) on BOTH the 16-byte stores and the loads without cp.async
  kCpAsync = 1u << 2,     ///< 16-byte loads by cp.async, straight from global to shared memory
  kStore256 = 1u << 3,    ///< 16-byte stores: a warp writes 256 bytes of 2 output rows instead of 128 bytes of 4
  kInterleave = 1u << 4,  ///< tiles from 2 interleaved regions (detail::interleaved): blocks in flight in 2 far-apart regions
  kColumns = 1u << 5,     ///< column-major tile order (else row-major): the blocks in flight write whole rows of `out`
  kPairs = 1u << 6,       ///< 16-byte stores: a thread reads 2 adjacent tile columns at once and writes 2 output rows
  kMovedGrid = 1u << 7,   ///< the tile grid moves with the pointers, so that offset pointers get the aligned tiles' rows
};
// [features]

namespace detail {

/// Interleaved regions of tiles: 2 with kInterleave, else 1.
__host__ __device__ constexpr unsigned tile_regions(unsigned features) { return (features & kInterleave) != 0 ? 2 : 1; }

}  // namespace detail

// [coarsen]
/// One block moves one kInBytes x kOutBytes tile at a time (grid-stride over the tiles).
/// kWide: the 16-byte path (chosen by the launcher), otherwise one element per access.
/// Shared memory (dynamic): one tile. kMinBlocks > 0 asks the compiler for that many
/// resident blocks per SM (__launch_bounds__: fewer registers per thread); 0 asks nothing.
template <typename T, int kInBytes, int kOutBytes, int kThreads, unsigned kFeatures, bool kWide, int kMinBlocks = 0>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    coarsen_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols, unsigned tiles_x,
                   unsigned tiles_y, std::size_t tiles, int grid_y, int grid_x) {
  constexpr int kV = 16 / sizeof(T);           // elements per 16-byte chunk
  constexpr int kCols = kInBytes / sizeof(T);  // tile width: input columns = output rows
  constexpr int kRows = kOutBytes / sizeof(T); // tile height: input rows = output columns
  constexpr int kE = kWide ? kV : 1;           // elements per global access
  constexpr int kLoads = kRows * kCols / kE / kThreads;   // accesses per thread, load phase
  constexpr int kStores = kLoads;                          // and store phase (same tile)
  static_assert(kLoads >= 1 && kRows * kCols % (kE * kThreads) == 0, "whole accesses per thread");
  static_assert(kInBytes >= 128 && kOutBytes >= 128, "the swizzle spreads 8 chunks of 16 bytes");
  constexpr bool kEvictFirst = (kFeatures & kStreaming) != 0;
  constexpr bool kAsync = (kFeatures & kCpAsync) != 0 && kWide;
  constexpr int kWarpChunks = (kFeatures & kStore256) != 0 && kRows / kV >= 16 ? 16 : 8;  // per output row
  constexpr unsigned kRegions = detail::tile_regions(kFeatures);  // tile regions (interleaved)
  constexpr bool kPair = (kFeatures & kPairs) != 0 && kWide && kStores % 2 == 0;  // column pairs
  // kMovedGrid: the tile grid starts oy rows above and ox columns left of in[0][0] (the
  // launcher's grid_y and grid_x; 0 without it). The tiles at the matrix's edges then hold
  // chunks that cross its first or last row or column: loaded whole from the row beside,
  // stored in pieces (store16_part).
  constexpr bool kMoved = (kFeatures & kMovedGrid) != 0 && kWide;
  static_assert(!kMoved || kAsync, "the moved grid loads by cp.async");
  const int oy = kMoved ? grid_y : 0, ox = kMoved ? grid_x : 0;
  // Tile corners and places in `in` and `out`: signed with the moved grid, whose first tiles
  // start before the matrix (negative() is then the check that unsigned ones do not need).
  using Index = std::conditional_t<kMoved, std::ptrdiff_t, std::size_t>;

  extern __shared__ uint4 smem[];  // uint4: 16-byte aligned rows
  auto at = [&](int r, int c) -> T& {  // tile element (r, c), swizzled
    return reinterpret_cast<T*>(smem)[r * kCols + detail::slot<T, kCols, kWide>(r, c)];
  };

  // [corner]
  // Tile t's first input row (= first output column) and first input column (= output row).
  auto corner = [&](std::size_t t, Index& r0, Index& c0) {
    unsigned ty = unsigned(t / tiles_x);  // tile row (row-major tile order)
    unsigned tx = unsigned(t % tiles_x);  // tile column
    if constexpr ((kFeatures & kColumns) != 0) {
      ty = unsigned(t % tiles_y);  // down a tile column of `in` = along a tile row of `out`
      tx = unsigned(t / tiles_y);
    }
    r0 = Index(ty) * kRows - oy;
    c0 = Index(tx) * kCols - ox;
  };
  // [corner]

  // Runs body(check) for the tile at corner (r0, c0): check is std::false_type when the tile
  // lies inside the matrix (all tiles but those of the last tile row and column, and of the
  // first ones with kMovedGrid), so that its accesses compile without bounds checks, and
  // std::true_type otherwise.
  auto checked = [&](Index r0, Index c0, auto body) {
    using detail::negative;
    if (!negative(r0) && !negative(c0) && r0 + kRows <= Index(rows) && c0 + kCols <= Index(cols)) {
      body(std::false_type{});
    } else {
      body(std::true_type{});
    }
  };

  // Load phase: consecutive threads take consecutive accesses along an input row.
  // cp.async: the copies go straight to shared memory (wait for them before reading it).
  // Otherwise all kLoads loads are issued before the first shared-memory store (16-byte
  // chunks or elements, held in registers in between).
  auto load_tile = [&](std::size_t t) {
    Index r0, c0;
    corner(t, r0, c0);
    const Index base = r0 * cols + c0;  // in[base]: the tile's corner
    checked(r0, c0, [&](auto check) {
      using detail::negative;
      constexpr bool kCheck = decltype(check)::value;  // this tile needs bounds checks
      [[maybe_unused]] uint4 chunk[kWide && !kAsync ? kLoads : 1];
      [[maybe_unused]] T element[kWide ? 1 : kLoads];
#pragma unroll
      for (int i = 0; i < kLoads; ++i) {
        const int idx = threadIdx.x + i * kThreads;
        const int r = idx / (kCols / kE), c = idx % (kCols / kE) * kE;  // tile row, first column
        const Index x = base + Index(r) * cols + c;                        // in[x]: the access's first element
        const Index row = r0 + r, col = c0 + c;                             // its row and column in `in`
        if (kCheck && (negative(row) || row >= Index(rows) || negative(col + (kE - 1)) || col >= Index(cols))) continue;
        // A chunk across the first or last column of `in` reads the row above's last elements or
        // the row below's first ones into tile slots that no store reads: still inside `in`, but
        // for the matrix's first and last chunk, which go element by element.
        if (kMoved && kCheck && (negative(x) || x + kE > Index(rows) * cols)) {
#pragma unroll 1  // not unrolled: the loads of every unrolled chunk would hold registers
          for (int k = 0; k < kE; ++k) {
            if (!negative(x + k) && x + k < Index(rows) * cols) at(r, c + k) = in[x + k];
          }
          continue;
        }
        const T* p = in + x;
        if constexpr (kAsync) tp::cp_async16(&at(r, c), p);
        else if constexpr (kWide) chunk[i] = detail::load16<kEvictFirst>(p);
        else element[i] = *p;
      }
      if constexpr (kAsync) {
        detail::cp_async_commit();
      } else {
#pragma unroll
        for (int i = 0; i < kLoads; ++i) {
          const int idx = threadIdx.x + i * kThreads;
          const int r = idx / (kCols / kE), c = idx % (kCols / kE) * kE;
          if (kCheck && (r0 + r >= Index(rows) || c0 + c >= Index(cols))) continue;
          if constexpr (kWide) *reinterpret_cast<uint4*>(&at(r, c)) = chunk[i];  // one 16-byte shared store
          else at(r, c) = element[i];
        }
      }
    });
  };

  // Store phase: output row c0 + j, output columns r0 + q * kE ...: tile column j, rows
  // q * kE ... q * kE + kE - 1. 16-byte path: a warp takes 8 chunks (128 bytes) of 4 output
  // rows, or 16 chunks of 2 with kStore256 (store_chunk); with kPairs a thread takes the
  // same chunk of 2 output rows, j = 2 p and 2 p + 1. Element path: a warp takes 32
  // consecutive elements of one output row.
  auto store_tile = [&](std::size_t t) {
    Index r0, c0;
    corner(t, r0, c0);
    const Index y = c0 * rows + r0;  // out[y]: the tile's corner in `out`
    checked(r0, c0, [&](auto check) {
      using detail::negative;
      constexpr bool kCheck = decltype(check)::value;  // this tile needs bounds checks
      auto outside = [&](int j, int q) {
        const Index row = c0 + j, col = r0 + q * kE;  // output row and first column
        return kCheck &&
               (negative(row) || row >= Index(cols) || negative(col + (kE - 1)) || col >= Index(rows));
      };
      // 16-byte chunk q of output row j, where the chunk may be outside or, with kMovedGrid,
      // cross the first or last row of `in`.
      auto put = [&](int j, int q, uint4 packed) {
        if (kMoved && outside(j, q)) return;
        const Index col = r0 + q * kV;  // the chunk's first output column
        if (kMoved && kCheck && (negative(col) || col + kV > Index(rows))) {
          const int lo = negative(col) ? int(-col) : 0;                     // its elements inside `out`:
          const int hi = col + kV > Index(rows) ? int(Index(rows) - col) : kV;  // lo ... hi - 1
          detail::store16_part(out + (y + Index(j) * rows + q * kV + lo), packed, lo * int(sizeof(T)),
                               hi * int(sizeof(T)));
        } else {
          detail::store16<kEvictFirst>(out + (y + Index(j) * rows + q * kV), packed);
        }
      };
      // Unrolled by 2 only: stores need little latency hiding, and a full unroll would hold
      // every chunk's shared-memory reads in registers at once (over 160 for 2-byte types).
      if constexpr (kPair) {
#pragma unroll 2
        for (int i = 0; i < kStores / 2; ++i) {
          int q, p;  // chunk q of output rows 2 p and 2 p + 1
          detail::store_chunk<kRows / kV, kWarpChunks>(threadIdx.x + i * kThreads, q, p);
          const int j = 2 * p;
          // Without kMovedGrid c0 + j and cols are even (cols is a multiple of V), so row
          // j + 1 is inside where row j is; with it, either may be.
          if (outside(j, q) && (!kMoved || outside(j + 1, q))) continue;
          detail::Pair<T> w[kV];  // the column pair (j, j + 1) of the chunk's kV tile rows
#pragma unroll
          for (int k = 0; k < kV; ++k) w[k] = *reinterpret_cast<const detail::Pair<T>*>(&at(q * kV + k, j));
          uint4 first, second;
          detail::split_pairs<T>(w, first, second);
          put(j, q, first);
          put(j + 1, q, second);
        }
      } else {
#pragma unroll 2
        for (int i = 0; i < kStores; ++i) {
          const int idx = threadIdx.x + i * kThreads;
          int q, j;  // chunk q of output row j (of the tile)
          if constexpr (kWide) {
            detail::store_chunk<kRows / kV, kWarpChunks>(idx, q, j);
          } else {
            q = idx % kRows;
            j = idx / kRows;
          }
          if (outside(j, q)) continue;
          if constexpr (kWide) {
            // One element from each of kV tile rows: tile column j, rows q kV ... q kV + kV - 1.
            put(j, q, detail::pack16<T>([&](int k) { return at(q * kV + k, j); }));
          } else {
            out[y + Index(j) * rows + q] = at(q, j);
          }
        }
      }
    });
  };

  for (std::size_t u = blockIdx.x; u < detail::interleaved_slots(tiles, kRegions); u += gridDim.x) {
    const std::size_t t = detail::interleaved(u, tiles, kRegions);  // = u in one region
    if (t >= tiles) continue;                                        // a spare slot (whole block)
    load_tile(t);
    if constexpr (kAsync) tp::cp_async_wait_all();
    __syncthreads();
    store_tile(t);
    __syncthreads();  // the tile is free for the next iteration
  }
}
// [coarsen]

/// Dynamic shared memory per block that lets at most `blocks` blocks share an SM: the SM's
/// shared memory divided among them, less what the system reserves for each block.
inline std::size_t shared_for_blocks_per_sm(int blocks) {
  int device = 0, per_sm = 0, reserved = 0;
  TP_CUDA_CHECK(cudaGetDevice(&device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device));
  return std::size_t(per_sm / blocks - reserved);
}

/// The tile kernel with a chosen tile (bytes of an input row x bytes of an output row),
/// block size and features. blocks_per_sm > 0: at most that many blocks per SM (the occupancy
/// rows), by asking for more shared memory than the tile needs. kMovedGrid: the 16-byte path
/// wherever rows and cols are multiples of V, the grid moved by the places of `in` and `out`
/// past a multiple of the tile's bytes (detail::grid_offset); where both are 0, the kernel
/// without it (no signed corners, no edge code). kMinBlocks: as coarsen_kernel's.
// [launch]
template <int kInBytes, int kOutBytes, int kThreads, unsigned kFeatures, int kMinBlocks = 0, typename T>
void transpose_with(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0, int blocks_per_sm = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  constexpr bool kMoved = (kFeatures & kMovedGrid) != 0;
  const bool wide = (kFeatures & kVec16) != 0 &&
                    (kMoved ? detail::shape_16<T>(rows, cols) : detail::rows_16_aligned(out, in, rows, cols));
  const int oy = kMoved && wide ? detail::grid_offset<kOutBytes>(out) : 0;  // rows of the grid above in[0][0]
  const int ox = kMoved && wide ? detail::grid_offset<kInBytes>(in) : 0;    // columns left of it
  const unsigned tiles_x = ceil_div(unsigned(cols) + unsigned(ox), unsigned(kInBytes / sizeof(T)));
  const unsigned tiles_y = ceil_div(unsigned(rows) + unsigned(oy), unsigned(kOutBytes / sizeof(T)));
  const std::size_t tiles = std::size_t(tiles_x) * tiles_y;
  auto launch = [&](auto kernel) {
    std::size_t shared = std::size_t(kInBytes) * (kOutBytes / sizeof(T));  // one tile
    if (blocks_per_sm > 0) shared = std::max(shared, shared_for_blocks_per_sm(blocks_per_sm));
    allow_shared_memory(kernel, shared);  // above 48 KB a kernel must opt in
    const std::size_t blocks = std::min<std::size_t>(detail::interleaved_slots(tiles, detail::tile_regions(kFeatures)), INT_MAX);
    kernel<<<unsigned(blocks), kThreads, shared, stream>>>(out, in, rows, cols, tiles_x, tiles_y, tiles, oy, ox);
    TP_CHECK_LAUNCH("coarsen_kernel");
  };
  constexpr unsigned kPlain = kFeatures & ~kMovedGrid;  // the same kernel on a grid that does not move
  if (wide && (oy != 0 || ox != 0)) launch(coarsen_kernel<T, kInBytes, kOutBytes, kThreads, kFeatures, true, kMinBlocks>);
  else if (wide) launch(coarsen_kernel<T, kInBytes, kOutBytes, kThreads, kPlain, true, kMinBlocks>);
  else launch(coarsen_kernel<T, kInBytes, kOutBytes, kThreads, kPlain, false, kMinBlocks>);
}
// [launch]

/// 16-byte accesses, evict-first stores, cp.async loads, 256 bytes of an output row per warp,
/// tiles in row-major order (the ablation's row `runs256`).
constexpr unsigned kRuns256 = kVec16 | kStreaming | kCpAsync | kStore256;

/// kRuns256 with the tiles in column-major order (the ablation's row `columns`).
constexpr unsigned kColumnOrder = kRuns256 | kColumns;

/// The headline's features: kColumnOrder, and the store phase reads column pairs.
constexpr unsigned kHeadline = kColumnOrder | kPairs;

/// The record's 16-byte path (transpose_record_general): the headline with plain 16-byte stores
/// (no kStreaming) on a moved grid where the pointers call for one.
constexpr unsigned kRecordFeatures = (kHeadline & ~kStreaming) | kMovedGrid;

/// The pitch rule (two regions where the rows of `in` lie a multiple of 128 KB apart) is
/// step 07's: step07::pitch_is_128k_multiple.
using step07::pitch_is_128k_multiple;

/// The headline on the 16-byte path with square tiles of kTileBytes x kTileBytes bytes and
/// kThreads threads: kFeatures (a column-major order), with two interleaved regions of tiles
/// where the rows of `in` lie a multiple of 128 KB apart. Shapes and pointers without
/// 16-byte rows take the element path with the same tiles. kMinBlocks: as transpose_with's.
template <int kTileBytes, int kThreads, unsigned kFeatures = kHeadline, int kMinBlocks = 0, typename T>
void transpose_tiles(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  if (pitch_is_128k_multiple<T>(cols)) {
    transpose_with<kTileBytes, kTileBytes, kThreads, kFeatures | kInterleave, kMinBlocks>(out, in, rows, cols, stream);
  } else {
    transpose_with<kTileBytes, kTileBytes, kThreads, kFeatures, kMinBlocks>(out, in, rows, cols, stream);
  }
}

}  // namespace tp::lab::coarsen
