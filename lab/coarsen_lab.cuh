/// @file lab/coarsen_lab.cuh
/// @brief The lab's out-of-place research kernel: step 07's kernel with every idea the
/// research tried as a switch (Feature), and the record's configuration for every shape
/// (transpose_record_general; the record itself, lab/record.cuh, takes a lean tile before it).
/// The main line (steps/07_coarsen/kernel.cuh) keeps the headline alone; this file is where
/// the tile orders, regions, tile sizes, double buffering, bulk stores and L2 hints live.
///
/// What this kernel adds to step 06 (as step 07 does, and more):
/// - Tiles are measured in BYTES, so that every element type moves the same bytes: a tile
///   of kInBytes x kOutBytes covers kInBytes of each input row and kOutBytes of each output
///   row. 256 x 256 bytes is 64 x 64 floats, 128 x 128 halves, 32 x 32 doubles.
/// - Each thread moves several 16-byte chunks per tile (4 to 8 instead of 4 elements), and
///   issues all its loads before its first shared-memory store: more bytes in flight.
/// - Loads are 16 bytes (V = 16 / sizeof(T) elements of an input row), stores are 16 bytes
///   (V elements of an output row, i.e. one element from each of V input rows, packed into
///   a uint4 in registers: PRMT instructions for 2-byte types).
/// - The tile is swizzled at 16-byte granularity: chunk c / V of tile row r is stored at
///   chunk (c / V) XOR ((r / V) mod 8). Rows stay 16-byte aligned for the 16-byte shared
///   stores, and the column reads of the store phase, laid out as 8 chunks of 4 output rows
///   per warp, hit 32 different banks (see the chapter's bank picture).
/// - A warp's 16-byte stores can instead cover 16 chunks of 2 output rows (kStore256): 256
///   bytes of each output row at once. For 8-byte types the column reads still take the
///   fewest wavefronts; for 4- and 2-byte types they take twice as many.
/// - With kPairs a thread of the store phase reads 2 adjacent tile columns at once (one
///   2-element word per tile row: 4 bytes for 2-byte types, 8 for float, 16 for double) and
///   splits the words into chunks of 2 output rows: half the shared-memory reads.
/// - The 16-byte path needs rows and cols that are multiples of V and 16-byte aligned
///   pointers; otherwise the same kernel runs with one element per access (an XOR swizzle
///   per element, as in step 06).
/// - Tiles inside the matrix run without bounds checks (only the last tile row and column
///   need them).
/// - The shifted path (transpose_shifted; the record's path, but for `double`, where rows
///   are not a multiple of 16 bytes or a pointer is not 16-byte aligned): aligned 16-byte
///   copies of each tile row into a shared-memory row one chunk longer, read back at the
///   row's shift; aligned 16-byte stores of each output row, starting on a 32-byte sector
///   (or a 16-byte boundary), the chunk that crosses into the next tile included (the tile
///   loads 2 V - 1 or V - 1 rows more); element by element only at the matrix's edges.
/// - The ablation's switches (Feature): evict-first cache hints on the stores, L2 hints on
///   the loads (prefetch, evict-first; measured by the tuning program), cp.async copies from
///   global straight to shared memory, 256-byte store runs, five tile orders (column-major,
///   diagonal, bands of tile rows or of tile columns (the latter measured by the orders
///   program), two interleaved regions), double buffering and bulk (TMA)
///   stores; and a persistent grid in the launcher. The headline (kHeadline) keeps what the
///   measurements said helped: 16-byte accesses, cp.async loads, evict-first stores,
///   256-byte store runs, column pairs and the column-major order (with two regions where
///   the rows of `in` lie a multiple of 128 KB apart), and 128 x 128-byte tiles for small
///   matrices.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "07_coarsen/kernel.cuh"  // slot, Pair, split_pairs, rows_16_aligned, pitch_is_128k_multiple
#include "tp/async.cuh"
#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::lab::coarsen {

/// Switches of the ablation, as bit flags of the kernel's template.
enum Feature : unsigned {
  kVec16 = 1u << 0,      ///< 16-byte global loads and stores, when shape and alignment allow
  kStreaming = 1u << 1,  ///< evict-first hints (.cs) on BOTH the 16-byte stores and the loads without cp.async
  kDiagonal = 1u << 2,   ///< diagonal tile order: block t takes tile column (t + tile row) mod tiles_x
  kCpAsync = 1u << 3,    ///< 16-byte loads by cp.async, straight from global to shared memory
  kGrouped = 1u << 4,    ///< tiles in bands of kBand tile rows, column by column within a band
  kDoubleBuffer = 1u << 5,  ///< with kCpAsync: two tiles in shared memory; the next tile loads while this one stores
  kStore256 = 1u << 6,   ///< 16-byte stores: a warp writes 256 bytes of 2 output rows instead of 128 bytes of 4
  kInterleave = 1u << 7, ///< tiles from 2 interleaved regions (detail::interleaved): blocks in flight in 2 far-apart regions
  kColumns = 1u << 8,    ///< column-major tile order: the blocks in flight write whole rows of `out`
  kBulkStore = 1u << 9,  ///< the transposed tile is staged in shared memory; bulk copies (TMA) write its output rows
  kPairs = 1u << 10,     ///< 16-byte stores: a thread reads 2 adjacent tile columns at once and writes 2 output rows
  kL2Prefetch = 1u << 11,  ///< with kCpAsync: the copies ask L2 to fetch the whole 256-byte block around them (.L2::256B)
  kEvictFirstLoads = 1u << 12,  ///< with kCpAsync: the copies read with an evict-first L2 policy (createpolicy)
  kColumnBands = 1u << 13,  ///< the column order in bands of kBandColumns tile columns, across a band's tile row first
  kMovedGrid = 1u << 14,  ///< the tile grid moves with the pointers, so that offset pointers get the aligned tiles' rows
};

/// The tile orders; a kernel takes at most one (none: row-major, the launch order).
constexpr unsigned kOrders = kDiagonal | kGrouped | kColumns | kColumnBands;

/// Tile rows per band of the grouped order: the ~1000 tiles in flight at once then cover
/// about kBand x 32 tiles, a compact region of `in` AND of `out`.
constexpr unsigned kBand = 32;

/// Tile columns per band of the column-band order: 4 neighbouring blocks read 4 neighbouring
/// 256-byte pieces (1 KB) of the same input rows at once, and write 4 tile rows of `out`.
constexpr unsigned kBandColumns = 4;

namespace detail {

/// Shared-memory column of tile element (r, c) (tile width kCols elements, V = 16 / sizeof(T)).
/// 16-byte path: step 07's chunk swizzle (step07::slot). Element path: XOR the element index
/// with r, as step 06 did (within the first 32 columns).
template <typename T, int kCols, bool kWide>
__host__ __device__ constexpr int slot(int r, int c) {
  if constexpr (kWide) return step07::slot<T>(r, c);      // chunk ^ (r / V) % 8
  else return c ^ (r & ((kCols < 32 ? kCols : 32) - 1));  // element ^ r % 32 (or % kCols)
}

template <bool kStreaming>
__device__ __forceinline__ uint4 load16(const void* p) {
  const uint4* q = static_cast<const uint4*>(p);
  if constexpr (kStreaming) return __ldcs(q);  // ld.global.cs: evict first
  else return *q;
}

template <bool kStreaming>
__device__ __forceinline__ void store16(void* p, uint4 v) {
  if constexpr (kStreaming) tp::store16_evict_first(p, v);  // st.global.cs: evict first
  else tp::store16(p, v);  // one 16-byte store (see tp::store16)
}

/// Stores bytes [lo, hi) of the 16-byte chunk v, whose first byte goes 16-byte aligned: the
/// moved grid's chunks across the first or last column of `out`. first: the address of byte lo.
/// At most 3 aligned stores (pieces of 2, 4 and 8 bytes up to an 8-byte boundary, then of 8, 4
/// and 2 bytes), with each piece shifted out of v in registers; lo and hi are even.
__device__ __forceinline__ void store16_part(void* first, uint4 v, int lo, int hi) {
  auto put = [&](auto piece, int byte) {  // the sizeof(piece) bytes of v from `byte` on
    using P = decltype(piece);
    const unsigned long long half = (byte & 8) != 0 ? (static_cast<unsigned long long>(v.w) << 32 | v.z)
                                                    : (static_cast<unsigned long long>(v.y) << 32 | v.x);
    *reinterpret_cast<P*>(static_cast<char*>(first) + (byte - lo)) = P(half >> (8 * (byte & 7)));
  };
  int at = lo;
  auto head = [&](auto piece) {  // a piece that brings `at` to the next boundary of twice its size
    if ((at & int(sizeof(piece))) != 0 && at + int(sizeof(piece)) <= hi) {
      put(piece, at);
      at += sizeof(piece);
    }
  };
  auto tail = [&](auto piece) {  // a piece from an aligned `at`, while that many bytes are left
    if (hi - at >= int(sizeof(piece))) {
      put(piece, at);
      at += sizeof(piece);
    }
  };
  head(std::uint16_t{}), head(std::uint32_t{}), head(std::uint64_t{});
  tail(std::uint64_t{}), tail(std::uint32_t{}), tail(std::uint16_t{});
}

/// Copies 16 bytes from global to shared memory without passing through registers.
/// kPrefetch: with the hint that L2 fetch the whole 256-byte block around the 16 bytes.
/// kEvictFirst: the line is read with an evict-first L2 policy (it leaves L2 first).
template <bool kPrefetch = false, bool kEvictFirst = false>
__device__ __forceinline__ void cp_async16(void* shared, const void* global) {
  if constexpr (!kPrefetch && !kEvictFirst) {
    tp::cp_async16(shared, global);  // no hint: the common copy (tp/async.cuh)
  } else {
#if __CUDA_ARCH__ >= 800
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared));
    if constexpr (kEvictFirst) {
      std::uint64_t policy;  // not volatile, so the compiler may create it once and reuse it
      asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(policy));
      if constexpr (kPrefetch) {
        asm volatile("cp.async.cg.shared.global.L2::cache_hint.L2::256B [%0], [%1], 16, %2;\n" ::"r"(s),
                     "l"(global), "l"(policy) : "memory");
      } else {
        asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;\n" ::"r"(s), "l"(global),
                     "l"(policy) : "memory");
      }
    } else {
      asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;\n" ::"r"(s), "l"(global) : "memory");
    }
#else
    tp::cp_async16(shared, global);  // before cp.async (compute capability 8.0) there are no hints
#endif
  }
}

/// Closes this thread's group of cp.async copies issued so far.
__device__ __forceinline__ void cp_async_commit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

using tp::cp_async_wait_all;  // waits for all of this thread's cp.async copies

/// Waits for this thread's cp.async groups except the latest one.
__device__ __forceinline__ void cp_async_wait_prior() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group 1;\n" ::: "memory");
#endif
}

/// Copies `bytes` (a multiple of 16) from shared to global memory with one bulk copy, done
/// by the TMA unit (sm_90); older GPUs copy them in 16-byte pieces. The copy reads shared
/// memory asynchronously: bulk_wait_read() before the source is written again.
__device__ __forceinline__ void bulk_store(void* global, const void* shared, unsigned bytes) {
#if __CUDA_ARCH__ >= 900
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(global), "r"(s), "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#else
  for (unsigned k = 0; k < bytes / 16; ++k) static_cast<uint4*>(global)[k] = static_cast<const uint4*>(shared)[k];
#endif
}

/// Makes this thread's shared-memory writes visible to the bulk copies issued after a barrier.
__device__ __forceinline__ void bulk_fence() {
#if __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/// Waits until this thread's bulk copies have read their shared-memory source.
__device__ __forceinline__ void bulk_wait_read() {
#if __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
#endif
}

/// Waits until this thread's bulk copies are complete.
__device__ __forceinline__ void bulk_wait_all() {
#if __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
#endif
}

/// The store phase of the 16-byte path: access idx (threadIdx.x + i * threads) -> chunk q
/// of output row j of the tile, whose output rows have kRowChunks 16-byte chunks. A warp
/// takes kWarpChunks consecutive chunks of each of 32 / kWarpChunks consecutive output rows.
/// With the swizzle of slot(), its shared-memory reads (one element from each of kV tile
/// rows, kV reads per chunk) take the fewest wavefronts for kWarpChunks = 8 (any type), and
/// for kWarpChunks = 16 with 8-byte types.
// [store_chunk]
template <int kRowChunks, int kWarpChunks>
__host__ __device__ constexpr void store_chunk(int idx, int& q, int& j) {
  static_assert(kRowChunks % kWarpChunks == 0 && 32 % kWarpChunks == 0, "whole warps per output row");
  constexpr int kGroups = kRowChunks / kWarpChunks;  // warps along one output row
  const int warp = idx / 32, lane = idx % 32;
  q = (warp % kGroups) * kWarpChunks + lane % kWarpChunks;
  j = (warp / kGroups) * (32 / kWarpChunks) + lane / kWarpChunks;
}
// [store_chunk]

/// Output rows from the chunk of access 0 to the chunk of access `threads` (store_chunk), or
/// -1 where the two are not the same chunk q: a block of `threads` threads then takes, in
/// each pass, the same chunk of output rows this many further on.
template <int kRowChunks, int kWarpChunks>
__host__ __device__ constexpr int store_step(int threads) {
  int q0 = 0, j0 = 0, q1 = 0, j1 = 0;
  store_chunk<kRowChunks, kWarpChunks>(0, q0, j0);
  store_chunk<kRowChunks, kWarpChunks>(threads, q1, j1);
  return q0 == q1 ? j1 - j0 : -1;
}

/// kV = 16 / sizeof(T) elements, element k given by element(k), packed into 16 bytes (for
/// 2-byte types the compiler packs pairs with PRMT instructions).
template <typename T, typename Element>
__device__ __forceinline__ uint4 pack16(Element element) {
  constexpr int kV = 16 / sizeof(T);
  T v[kV];
#pragma unroll
  for (int k = 0; k < kV; ++k) v[k] = element(k);
  uint4 packed;
  memcpy(&packed, v, sizeof(packed));
  return packed;
}

/// Column pairs: step 07's word of 2 adjacent elements of a tile row and its split into two
/// chunks (step07::Pair, step07::split_pairs).
using step07::Pair;
using step07::split_pairs;

/// Band orders: `lines` lines of tiles (tile rows or tile columns), each `length` tiles long,
/// grouped in bands of `band` neighbouring lines (the last band may be narrower). Tile t is
/// taken across its band first: the band's lines at one position, then the next position.
/// Sets the tile's line and its position along the line.
__host__ __device__ constexpr void banded(std::size_t t, unsigned band, unsigned lines, unsigned length,
                                          unsigned& line, unsigned& along) {
  const std::size_t band_tiles = std::size_t(band) * length;                  // tiles in a full band
  const unsigned b = unsigned(t / band_tiles);                                 // which band
  const unsigned width = lines - b * band < band ? lines - b * band : band;   // lines in this band
  const unsigned i = unsigned(t - b * band_tiles);                             // position within the band
  line = b * band + i % width;                                                 // across the band first,
  along = i / width;                                                           // then one tile further
}

/// Interleaved regions: `items` work items split into `regions` contiguous regions of
/// L = ceil(items / regions) items, and slot u takes item (u % regions) L + u / regions.
/// Consecutive slots, i.e. the blocks in flight at once, then work in `regions` far-apart
/// parts of the matrix instead of one. A slot whose item is >= items has nothing to do.
/// The slots to launch: regions x L (at most regions - 1 more than items).
// [interleaved]
__host__ __device__ constexpr std::size_t interleaved_slots(std::size_t items, unsigned regions) {
  return (items + regions - 1) / regions * regions;
}
__host__ __device__ constexpr std::size_t interleaved(std::size_t u, std::size_t items, unsigned regions) {
  const std::size_t per_region = (items + regions - 1) / regions;
  return u % regions * per_region + u / regions;
}
// [interleaved]

/// What a feature set makes of the kernel, derived in one place for the kernel and its
/// launcher. wide: the 16-byte path. Double buffering needs cp.async, and both it and the
/// staged tile of bulk stores need the 16-byte path; either takes a second tile of shared
/// memory.
__host__ __device__ constexpr bool double_buffered(unsigned features, bool wide) {
  return (features & kDoubleBuffer) != 0 && (features & kCpAsync) != 0 && wide;
}
__host__ __device__ constexpr bool bulk_stored(unsigned features, bool wide) { return (features & kBulkStore) != 0 && wide; }
__host__ __device__ constexpr int shared_tiles(unsigned features, bool wide) {
  return double_buffered(features, wide) || bulk_stored(features, wide) ? 2 : 1;
}
/// Interleaved regions of tiles: 2 with kInterleave, else 1.
__host__ __device__ constexpr unsigned tile_regions(unsigned features) { return (features & kInterleave) != 0 ? 2 : 1; }

/// Whether rows and cols are multiples of V = 16 / sizeof(T): every row of `in` and `out` is
/// a whole number of 16-byte chunks (the pitches are multiples of 16 bytes).
template <typename T>
constexpr bool shape_16(int rows, int cols) {
  constexpr int kV = 16 / sizeof(T);
  return rows % kV == 0 && cols % kV == 0;
}

using step07::rows_16_aligned;  // the 16-byte path's condition: 16-byte aligned rows

/// The moved grid's offset for a tile side of kBytes: the elements of T from the last
/// multiple of kBytes to p. A grid that starts this many elements before p gives every tile
/// the places in memory (mod kBytes) that it has where p is a multiple of kBytes.
template <int kBytes, typename T>
int grid_offset(const T* p) {
  static_assert((kBytes & (kBytes - 1)) == 0, "a power of 2");
  return int(reinterpret_cast<std::uintptr_t>(p) % kBytes / sizeof(T));
}

/// v < 0 for a signed index; false for an unsigned one, without comparing it with 0.
template <typename I>
__device__ constexpr bool negative([[maybe_unused]] I v) {
  if constexpr (std::is_signed_v<I>) return v < 0;
  else return false;
}

}  // namespace detail

// [coarsen]
/// One block moves one kInBytes x kOutBytes tile at a time (grid-stride over the tiles).
/// kWide: the 16-byte path (chosen by the launcher), otherwise one element per access.
/// Shared memory (dynamic): one tile, or two with kDoubleBuffer. kMinBlocks > 0 asks the
/// compiler for that many resident blocks per SM (__launch_bounds__: fewer registers per
/// thread); 0 asks nothing.
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
  constexpr bool kPrefetch = (kFeatures & kL2Prefetch) != 0;          // L2 hints on the cp.async loads
  constexpr bool kEvictFirstIn = (kFeatures & kEvictFirstLoads) != 0;
  constexpr bool kDouble = detail::double_buffered(kFeatures, kWide);
  constexpr int kWarpChunks = (kFeatures & kStore256) != 0 && kRows / kV >= 16 ? 16 : 8;  // per output row
  constexpr unsigned kRegions = detail::tile_regions(kFeatures);  // tile regions (interleaved)
  static_assert(kRegions == 1 || !kDouble, "double buffering walks the tiles in one region");
  constexpr bool kBulk = detail::bulk_stored(kFeatures, kWide);  // staged tile + bulk copies
  constexpr bool kPair = (kFeatures & kPairs) != 0 && kWide && kStores % 2 == 0;  // column pairs
  static_assert(!(kBulk && kDouble), "the second tile of shared memory is either the staged tile or the next one");
  static_assert((kFeatures & kOrders & ((kFeatures & kOrders) - 1)) == 0, "one tile order at most");
  // kMovedGrid: the tile grid starts oy rows above and ox columns left of in[0][0] (the
  // launcher's grid_y and grid_x; 0 without it). The tiles at the matrix's edges then hold
  // chunks that cross its first or last row or column: loaded whole from the row beside,
  // stored in pieces (store16_part).
  constexpr bool kMoved = (kFeatures & kMovedGrid) != 0 && kWide;
  static_assert(!kMoved || (kAsync && !kBulk && !kDouble), "the moved grid loads by cp.async, one tile at a time");
  const int oy = kMoved ? grid_y : 0, ox = kMoved ? grid_x : 0;
  // Tile corners and places in `in` and `out`: signed with the moved grid, whose first tiles
  // start before the matrix (negative() is then the check that unsigned ones do not need).
  using Index = std::conditional_t<kMoved, std::ptrdiff_t, std::size_t>;

  extern __shared__ uint4 smem[];  // uint4: 16-byte aligned rows
  auto at = [&](int buffer, int r, int c) -> T& {  // tile element (r, c), swizzled
    return reinterpret_cast<T*>(smem)[(buffer * kRows + r) * kCols + detail::slot<T, kCols, kWide>(r, c)];
  };
  // kBulkStore: the transposed tile, kCols output rows of kRows elements (16-byte aligned).
  [[maybe_unused]] uint4* staged = smem + kRows * kCols / kV;

  // Tile t's first input row (= first output column) and first input column (= output row).
  auto corner = [&](std::size_t t, Index& r0, Index& c0) {
    unsigned ty = unsigned(t / tiles_x);  // tile row (row-major tile order)
    unsigned tx = unsigned(t % tiles_x);  // tile column
    if constexpr ((kFeatures & kColumns) != 0) {
      ty = unsigned(t % tiles_y);  // down a tile column of `in` = along a tile row of `out`
      tx = unsigned(t / tiles_y);
    }
    if constexpr ((kFeatures & kDiagonal) != 0) tx = (tx + ty) % tiles_x;
    // Bands of kBand tile rows, down a band's tile column first, then the next column.
    if constexpr ((kFeatures & kGrouped) != 0) detail::banded(t, kBand, tiles_y, tiles_x, ty, tx);
    // Bands of kBandColumns tile columns, across a band's tile row first, then the next row.
    if constexpr ((kFeatures & kColumnBands) != 0) detail::banded(t, kBandColumns, tiles_x, tiles_y, tx, ty);
    r0 = Index(ty) * kRows - oy;
    c0 = Index(tx) * kCols - ox;
  };

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
  auto load_tile = [&](std::size_t t, int buffer) {
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
            if (!negative(x + k) && x + k < Index(rows) * cols) at(buffer, r, c + k) = in[x + k];
          }
          continue;
        }
        const T* p = in + x;
        if constexpr (kAsync) detail::cp_async16<kPrefetch, kEvictFirstIn>(&at(buffer, r, c), p);
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
          if constexpr (kWide) *reinterpret_cast<uint4*>(&at(buffer, r, c)) = chunk[i];  // one 16-byte shared store
          else at(buffer, r, c) = element[i];
        }
      }
    });
  };

  // Store phase: output row c0 + j, output columns r0 + q * kE ...: tile column j, rows
  // q * kE ... q * kE + kE - 1. 16-byte path: a warp takes 8 chunks (128 bytes) of 4 output
  // rows, or 16 chunks of 2 with kStore256 (store_chunk); with kPairs a thread takes the
  // same chunk of 2 output rows, j = 2 p and 2 p + 1. Element path: a warp takes 32
  // consecutive elements of one output row.
  auto store_tile = [&](std::size_t t, int buffer) {
    Index r0, c0;
    corner(t, r0, c0);
    const Index y = c0 * rows + r0;  // out[y]: the tile's corner in `out`
    // 16-byte chunk q of output row j: to `out`, or to the staged tile with kBulkStore.
    auto put = [&](int j, int q, uint4 packed) {
      if constexpr (kBulk) staged[j * (kRows / kV) + q] = packed;
      else detail::store16<kEvictFirst>(out + (y + Index(j) * rows + q * kV), packed);
    };
    checked(r0, c0, [&](auto check) {
      using detail::negative;
      constexpr bool kCheck = decltype(check)::value;  // this tile needs bounds checks
      auto outside = [&](int j, int q) {
        const Index row = c0 + j, col = r0 + q * kE;  // output row and first column
        return kCheck &&
               (negative(row) || row >= Index(cols) || negative(col + (kE - 1)) || col >= Index(rows));
      };
      // put() where the chunk may be outside or, with kMovedGrid, cross the first or last row of `in`.
      auto put_checked = [&](int j, int q, uint4 packed) {
        if (kMoved && outside(j, q)) return;
        const Index col = r0 + q * kV;  // the chunk's first output column
        if (kMoved && kCheck && (negative(col) || col + kV > Index(rows))) {
          const int lo = negative(col) ? int(-col) : 0;                     // its elements inside `out`:
          const int hi = col + kV > Index(rows) ? int(Index(rows) - col) : kV;  // lo ... hi - 1
          detail::store16_part(out + (y + Index(j) * rows + q * kV + lo), packed, lo * int(sizeof(T)),
                               hi * int(sizeof(T)));
        } else {
          put(j, q, packed);
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
          for (int k = 0; k < kV; ++k) w[k] = *reinterpret_cast<const detail::Pair<T>*>(&at(buffer, q * kV + k, j));
          uint4 first, second;
          detail::split_pairs<T>(w, first, second);
          put_checked(j, q, first);
          put_checked(j + 1, q, second);
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
            put_checked(j, q, detail::pack16<T>([&](int k) { return at(buffer, q * kV + k, j); }));
          } else {
            out[y + Index(j) * rows + q] = at(buffer, q, j);
          }
        }
      }
    });
  };

  // kBulkStore, after the store phase and a barrier: thread j copies output row j of the
  // staged tile (its part inside the matrix) to `out`.
  auto bulk_store_tile = [&](std::size_t t) {
    Index r0, c0;
    corner(t, r0, c0);
    const int j = threadIdx.x;
    if (j >= kCols || c0 + j >= Index(cols)) return;
    const unsigned length = min(unsigned(kRows), unsigned(rows - r0));  // elements, a multiple of kV
    detail::bulk_store(out + (c0 + j) * rows + r0, staged + j * (kRows / kV), length * unsigned(sizeof(T)));
  };

  if constexpr (kDouble) {
    // Two buffers: tile t + gridDim.x is in flight while tile t is stored.
    int buffer = 0;
    if (blockIdx.x < tiles) load_tile(blockIdx.x, 0);
    for (std::size_t t = blockIdx.x; t < tiles; t += gridDim.x, buffer ^= 1) {
      if (t + gridDim.x < tiles) {
        load_tile(t + gridDim.x, buffer ^ 1);  // the next tile goes in flight,
        detail::cp_async_wait_prior();         // and this tile's copies have landed
      } else {
        detail::cp_async_wait_all();
      }
      __syncthreads();
      store_tile(t, buffer);
      __syncthreads();  // the buffer is free: the next iteration's loads refill it
    }
  } else {
    for (std::size_t u = blockIdx.x; u < detail::interleaved_slots(tiles, kRegions); u += gridDim.x) {
      const std::size_t t = detail::interleaved(u, tiles, kRegions);  // = u in one region
      if (t >= tiles) continue;                                        // a spare slot (whole block)
      load_tile(t, 0);
      if constexpr (kAsync) detail::cp_async_wait_all();
      if constexpr (kBulk) detail::bulk_wait_read();  // the last tile's bulk copies have read `staged`
      __syncthreads();
      store_tile(t, 0);
      if constexpr (kBulk) detail::bulk_fence();
      __syncthreads();  // the tile is free for the next iteration (and `staged` is written)
      if constexpr (kBulk) bulk_store_tile(t);
    }
    if constexpr (kBulk) detail::bulk_wait_all();
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

/// The step's transpose with a chosen tile (bytes of an input row x bytes of an output row),
/// block size and features. persistent: launch only as many blocks as fit on the GPU at once.
/// blocks_per_sm > 0: at most that many blocks per SM (the occupancy study), by asking for
/// more shared memory than the tile needs. kMovedGrid: the 16-byte path wherever rows and
/// cols are multiples of V, the grid moved by the places of `in` and `out` past a multiple
/// of the tile's bytes (detail::grid_offset); where both are 0, the kernel without it (no
/// signed corners, no edge code). kMinBlocks: as coarsen_kernel's; kMovedMinBlocks: the same
/// for the kernel on a moved grid only.
// [launch]
template <int kInBytes, int kOutBytes, int kThreads, unsigned kFeatures, int kMinBlocks = 0,
          int kMovedMinBlocks = kMinBlocks, typename T>
void transpose_with(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0, bool persistent = false,
                    int blocks_per_sm = 0) {
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
    std::size_t shared = std::size_t(kInBytes) * (kOutBytes / sizeof(T)) * detail::shared_tiles(kFeatures, wide);
    if (blocks_per_sm > 0) shared = std::max(shared, shared_for_blocks_per_sm(blocks_per_sm));
    allow_shared_memory(kernel, shared);  // above 48 KB a kernel must opt in
    std::size_t blocks = std::min<std::size_t>(detail::interleaved_slots(tiles, detail::tile_regions(kFeatures)), INT_MAX);
    if (persistent || detail::double_buffered(kFeatures, wide)) {
      blocks = std::min<std::size_t>(blocks, resident_blocks(kernel, kThreads, shared));  // double buffering: persistent
    }
    kernel<<<unsigned(blocks), kThreads, shared, stream>>>(out, in, rows, cols, tiles_x, tiles_y, tiles, oy, ox);
    TP_CHECK_LAUNCH("coarsen_kernel");
  };
  constexpr unsigned kPlain = kFeatures & ~kMovedGrid;  // the same kernel on a grid that does not move
  if (wide && (oy != 0 || ox != 0)) launch(coarsen_kernel<T, kInBytes, kOutBytes, kThreads, kFeatures, true, kMovedMinBlocks>);
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

/// Whether `tiles` blocks give the GPU fewer than `waves` waves of blocks, a wave being as
/// many blocks of 256 threads as the SMs hold (gpu.wave(256): 8 per SM of 2048 threads).
inline bool fewer_waves(std::size_t tiles, int waves, const Residency& gpu) {
  return tiles < std::size_t(waves) * gpu.wave(256);
}

/// Whether a matrix of `tiles` tiles gives the GPU fewer than 3 waves of blocks. The last wave
/// is then a large part of the time, and a partly filled one leaves SMs idle.
inline bool few_waves(std::size_t tiles, const Residency& gpu) { return fewer_waves(tiles, 3, gpu); }

/// The 256 x 256-byte tiles of a rows x cols matrix of T (the record's large tiles).
template <typename T>
std::size_t tiles256(int rows, int cols) {
  constexpr unsigned kSide = 256 / sizeof(T);  // elements of a tile side
  return std::size_t(ceil_div(unsigned(cols), kSide)) * ceil_div(unsigned(rows), kSide);
}

/// Whether `double` without 16-byte rows takes the shifted path's packed 256 x 256-byte tiles
/// rather than the element path: where there are fewer than 24 waves of them, squares up to
/// n = 5088 on 132 SMs. lab_double_odd measured the packed tiles ahead at 2051 to 4899 and
/// behind from 6143 up (three runs); the switch lies between.
inline bool packed_double(std::size_t tiles, const Residency& gpu) { return fewer_waves(tiles, 24, gpu); }

/// Whether `tiles` blocks of 256 threads fill at most one wave (the shifted path's choice of
/// 128-byte tiles for odd cols).
inline bool one_wave_or_less(std::size_t tiles, const Residency& gpu) { return tiles <= gpu.wave(256); }

/// The headline on the 16-byte path with square tiles of kTileBytes x kTileBytes bytes and
/// kThreads threads: kFeatures (a column-major order), with two interleaved regions of tiles
/// where the rows of `in` lie a multiple of 128 KB apart. Shapes and pointers without
/// 16-byte rows take the element path with the same tiles. kMinBlocks, kMovedMinBlocks: as
/// transpose_with's.
template <int kTileBytes, int kThreads, unsigned kFeatures = kHeadline, int kMinBlocks = 0,
          int kMovedMinBlocks = kMinBlocks, typename T>
void transpose_tiles(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  if (pitch_is_128k_multiple<T>(cols)) {
    transpose_with<kTileBytes, kTileBytes, kThreads, kFeatures | kInterleave, kMinBlocks, kMovedMinBlocks>(
        out, in, rows, cols, stream);
  } else {
    transpose_with<kTileBytes, kTileBytes, kThreads, kFeatures, kMinBlocks, kMovedMinBlocks>(out, in, rows, cols, stream);
  }
}

// ---- Rows that are not a multiple of 16 bytes: the shifted path ---------------------------

/// kStartBytes of the shifted path's split tiles: output chunks start on 16-byte boundaries and
/// the tile loads no rows below it; the chunk of an output row that crosses into the tile
/// below is split between the two tiles, each storing its part in pieces (store16_part).
constexpr int kSplit = 0;

namespace detail {

/// The rows that the shifted path's tile loads below its kR rows: A - 1 for chunks that start
/// on boundaries of kStartBytes (A = kStartBytes / sizeof(T)), none for split tiles.
template <typename T, int kStartBytes>
__host__ __device__ constexpr int rows_below() {
  return kStartBytes == kSplit ? 0 : kStartBytes / int(sizeof(T)) - 1;
}

/// Does nothing: move_shifted_tile's default between-phases step.
struct NoOp {
  __device__ void operator()() const {}
};

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
/// its first a_j elements belong to the chunk that the tile above writes. Split tiles
/// (kStartBytes = kSplit, A = V) load no rows below: the chunk that crosses the tile's lower
/// edge takes its last a_j elements from the tile's first rows instead (its rows counted mod
/// kR), and goes out in two parts, the first to the end of the tile's run, the second to its
/// start (the rest of each part's 16 bytes is the neighbouring tiles'). kLineTile: the tile in
/// shared memory is the line tile (LineTile), else the packed one (PackedTile). kEdge: the tile
/// is at an edge of the matrix (its first tile row, its last tile column, a tile without A rows
/// below it), where rows, columns and chunks are checked and the ends of the output rows are
/// written element by element (all other tiles skip the checks). kRing: the tile's rows sit
/// in shared memory as a ring that starts at row `base` (tile row r at row (base + r) mod
/// kRows), and its first `kept` rows are there already (the strip kernel: the A - 1 rows below
/// the tile above it, which the same block moved last). The tile loads its rows from `kept`
/// up to `end` (the pair kernel: rows from `end` on come from another block's shared memory),
/// and calls between() after the load phase, before the store phase (the pair kernel's copy).
// [shifted]
template <typename T, int kR, int kC, int kThreads, bool kLineTile, int kStartBytes, bool kEdge, bool kRing = false,
          bool kEvictFirst = false, typename Between = NoOp>
__device__ __forceinline__ void move_shifted_tile(T* tile, T* __restrict__ out, const T* __restrict__ in,
                                                  int rows, int cols, std::size_t r0, std::size_t c0,
                                                  int base = 0, int kept = 0, int end = INT_MAX,
                                                  Between between = {}) {
  using Tile = std::conditional_t<kLineTile, LineTile<T, kR, kC, kStartBytes>, PackedTile<T, kR, kC, kStartBytes>>;
  constexpr int kV = Tile::kV;
  constexpr int kRowChunks = Tile::kRowChunks;                                   // chunks a tile row holds
  constexpr int kLoads = (Tile::kRows * kRowChunks + kThreads - 1) / kThreads;  // per thread
  constexpr int kStores = kR * kC / kV / kThreads;                              // output chunks per thread
  static_assert(kStores >= 1 && kR * kC % (kV * kThreads) == 0, "whole output chunks per thread");
  constexpr int kWarpChunks = shifted_warp_chunks<T, kR>();  // a warp's chunks per output row
  constexpr int kStep = store_step<kR / kV, kWarpChunks>(kThreads);  // output rows between a thread's chunks
  constexpr bool kSplitTile = kStartBytes == kSplit;
  constexpr int kA = (kSplitTile ? 16 : kStartBytes) / int(sizeof(T));  // elements of the chunks' boundary
  static_assert(kSplitTile || kStartBytes == 16 || kStartBytes == 32, "chunks start on 16 or 32 bytes");
  static_assert(kLineTile || !kRing, "the ring keeps whole rows: the line tile");
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
  auto ring = [&](int r) {  // the row of shared memory that holds tile row r
    if constexpr (!kRing) return r;
    const int k = base + r;
    return k < Tile::kRows ? k : k - Tile::kRows;
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
    if ((kRing && r < kept) || r >= below || r >= end || c >= width || c + kV <= 0) continue;  // kept, past the matrix or the end, or none of the tile's columns
    const std::ptrdiff_t x = std::ptrdiff_t((r0 + r) * cols + c0) + c;  // in[x]: the chunk's first element
    T* dst = &tile[Tile::at(ring(r), q * kV)];
    if (!kEdge || (x >= 0 && std::size_t(x) + kV <= n)) {
      cp_async16(dst, in + x);  // in + x is 16-byte aligned
    } else {                    // the chunk starts before in[0] or ends past in[n - 1]: its elements inside
#pragma unroll
      for (int k = 0; k < kV; ++k) {
        if (x + k >= 0 && std::size_t(x + k) < n) dst[k] = in[x + k];
      }
    }
  }
  cp_async_wait_all();  // this thread's copies have landed
  __syncthreads();      // and everyone else's
  between();

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
    int r = shifted_step_row<kV>(q, a, k);
    if (kSplitTile && r >= kR) r -= kR;  // the split chunk's last elements: the tile's first rows
    start[k] = Tile::at(ring(r), place(r));
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
    chunk = rotate_down<T>(chunk, u);           // element e at position e
    if (kEdge ? first + kV <= below : (!kSplitTile || first + kV <= kR)) {
      store16<kEvictFirst>(dst + first, chunk);  // the whole chunk: one 16-byte store
    } else if (!kEdge) {  // a split tile's chunk across its lower edge: rows first ... kR - 1, then 0 ... a_j - 1
      const int lo = (kR - first) * int(sizeof(T));  // its bytes in the tile's last rows
      store16_part(dst + first, chunk, 0, lo);
      store16_part(dst, chunk, lo, 16);
    } else {  // the chunk passes the last row of `in` (the output row ends inside it), or is split
      T w[kV];
      memcpy(w, &chunk, sizeof(w));
#pragma unroll
      for (int e = 0; e < kV; ++e) {
        const int r = kSplitTile && first + e >= kR ? first + e - kR : first + e;  // its tile row
        if (r < below) dst[r] = w[e];
      }
    }
    // The first tile row: the a_j elements before the first chunk (the rest of their chunk
    // ends the output row before, which its tile writes up to the row's end). A split tile
    // writes them itself.
    if (kEdge && !kSplitTile && r0 == 0 && q == 0) {
      for (int r = 0; r < a && r < below; ++r) dst[r] = tile[Tile::at(ring(r), j + place(r))];
    }
  }
  __syncthreads();  // the tile is free for the next one
}
// [shifted]

/// move_shifted_tile for the tile at (r0, c0), with the checks only where it needs them.
/// Tiles at an edge take the checks: the first tile row (it writes the first elements of the
/// output rows; the first tile's first chunk may start before in[0]), the last tile column,
/// and the tiles without A rows of `in` below them.
template <typename T, int kR, int kC, int kThreads, bool kLineTile, int kStartBytes, bool kRing = false,
          bool kEvictFirst = false, typename Between = NoOp>
__device__ __forceinline__ void move_shifted_tile_at(T* tile, T* __restrict__ out, const T* __restrict__ in, int rows,
                                                     int cols, std::size_t r0, std::size_t c0, int base = 0,
                                                     int kept = 0, int end = INT_MAX, Between between = {}) {
  constexpr int kBelow = rows_below<T, kStartBytes>();  // a tile's chunks reach up to A - 1 rows below it
  if (r0 > 0 && c0 + kC <= std::size_t(cols) && r0 + kR + kBelow + 1 <= std::size_t(rows)) {
    move_shifted_tile<T, kR, kC, kThreads, kLineTile, kStartBytes, false, kRing, kEvictFirst>(
        tile, out, in, rows, cols, r0, c0, base, kept, end, between);
  } else {
    move_shifted_tile<T, kR, kC, kThreads, kLineTile, kStartBytes, true, kRing, kEvictFirst>(
        tile, out, in, rows, cols, r0, c0, base, kept, end, between);
  }
}

/// The shifted path's tiles of kR rows and kC columns: tiles_y of them down the rows, and the
/// count in all, which must fit in 32 bits (the kernels' tile indices). Throws otherwise.
template <unsigned kR, unsigned kC>
std::size_t shifted_tiles(int rows, int cols, unsigned& tiles_y) {
  tiles_y = ceil_div(unsigned(rows), kR);
  const std::size_t tiles = std::size_t(tiles_y) * ceil_div(unsigned(cols), kC);
  if (tiles >= UINT_MAX) throw std::invalid_argument("transpose_shifted: 2^32 - 1 tiles or more");
  return tiles;
}

}  // namespace detail

/// The shifted path: one block moves one tile at a time, kInBytes of each of kOutBytes /
/// sizeof(T) input rows (the bytes of an input row x the bytes of an output row, as in
/// transpose_with), in column order, with two interleaved regions when kRegions is 2
/// (grid-stride over the slots, as step 07 does), through the line tile (kLineTile) or the
/// packed one. Tile indices fit in 32 bits (the launcher checks). kMinBlocks > 0 asks the
/// compiler for that many resident blocks per SM (__launch_bounds__); 0 asks nothing (an
/// explicit 1 is not the same: it gave the flat tile's `half` kernel 72 registers, not 58).
/// kEvictFirst: evict-first hints on the 16-byte stores (the lab's rows `*_cs`); plain ones
/// otherwise.
template <typename T, int kInBytes, int kOutBytes, int kThreads, unsigned kRegions, bool kLineTile, int kStartBytes,
          int kMinBlocks = 0, bool kEvictFirst = false>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    shifted_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols, unsigned tiles_y,
                   unsigned tiles) {
  constexpr int kR = kOutBytes / sizeof(T), kC = kInBytes / sizeof(T);  // tile rows and columns
  extern __shared__ uint4 smem[];  // uint4: 16-byte aligned chunks
  T* tile = reinterpret_cast<T*>(smem);
  const unsigned per_region = (tiles + kRegions - 1) / kRegions;
  for (std::size_t slot = blockIdx.x; slot < std::size_t(per_region) * kRegions; slot += gridDim.x) {
    const unsigned u = unsigned(slot);
    const unsigned t = u % kRegions * per_region + u / kRegions;  // the tile of slot u (= u in one region)
    if (t >= tiles) continue;                                      // a spare slot (the whole block)
    const std::size_t r0 = std::size_t(t % tiles_y) * kR;  // first input row = first output column
    const std::size_t c0 = std::size_t(t / tiles_y) * kC;  // first input column = first output row
    detail::move_shifted_tile_at<T, kR, kC, kThreads, kLineTile, kStartBytes, false, kEvictFirst>(tile, out, in, rows,
                                                                                                  cols, r0, c0);
  }
}

/// The shifted path's strip kernel, for odd cols (the line tile): each block moves a run of
/// consecutive tiles in column order, tiles [tiles x b / G, tiles x (b + 1) / G) for block b
/// of G, so that most of its tiles lie just below the one it moved before. The A - 1 rows
/// below a tile, which the tile below needs again, then stay in shared memory (a ring of the
/// tile's rows) instead of being loaded twice.
template <typename T, int kInBytes, int kOutBytes, int kThreads, int kStartBytes>
__global__ void __launch_bounds__(kThreads)
    shifted_strip_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols, unsigned tiles_y,
                         unsigned tiles) {
  constexpr int kR = kOutBytes / sizeof(T), kC = kInBytes / sizeof(T);  // tile rows and columns
  constexpr int kA = kStartBytes / int(sizeof(T));
  constexpr int kRows = detail::LineTile<T, kR, kC, kStartBytes>::kRows;  // rows of the ring
  extern __shared__ uint4 smem[];
  T* tile = reinterpret_cast<T*>(smem);
  const unsigned begin = unsigned(std::uint64_t(tiles) * blockIdx.x / gridDim.x);
  const unsigned end = unsigned(std::uint64_t(tiles) * (blockIdx.x + 1) / gridDim.x);
  for (unsigned t = begin; t < end; ++t) {
    const unsigned ty = t % tiles_y;
    const std::size_t r0 = std::size_t(ty) * kR, c0 = std::size_t(t / tiles_y) * kC;
    const int kept = t > begin && ty > 0 ? kA - 1 : 0;  // the tile above was this block's last
    const int base = int(unsigned(r0) % unsigned(kRows));  // tile row 0 in the ring
    detail::move_shifted_tile_at<T, kR, kC, kThreads, true, kStartBytes, true>(tile, out, in, rows, cols, r0, c0, base,
                                                                               kept);
  }
}

/// The shifted path's pair kernel, for odd cols (the line tile): clusters of 2 blocks, one
/// tile each, the tiles t and t + 1 of the column order, so that the second lies just below
/// the first (unless t + 1 starts the next tile column). The first tile's A - 1 rows below it
/// are the second tile's first rows: it does not load them but copies them from the second
/// block's shared memory (distributed shared memory, compute capability 9.0), so each pair
/// asks L2 for those rows once. Without clusters (a build for an older GPU) every tile loads
/// them.
template <typename T, int kInBytes, int kOutBytes, int kThreads, int kStartBytes>
__global__ void __launch_bounds__(kThreads)
    shifted_pair_kernel(T* __restrict__ out, const T* __restrict__ in, int rows, int cols, unsigned tiles_y,
                        unsigned tiles) {
  constexpr int kR = kOutBytes / sizeof(T), kC = kInBytes / sizeof(T);  // tile rows and columns
  using Tile = detail::LineTile<T, kR, kC, kStartBytes>;
  extern __shared__ uint4 smem[];
  T* tile = reinterpret_cast<T*>(smem);
  const unsigned t = blockIdx.x;  // the grid is the tiles, rounded up to whole pairs
  const std::size_t r0 = std::size_t(t % tiles_y) * kR, c0 = std::size_t(t / tiles_y) * kC;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  const cg::cluster_group cluster = cg::this_cluster();
  const bool upper = cluster.block_rank() == 0;
  const unsigned lower_tile = t - cluster.block_rank() + 1;  // the pair's second tile
  const bool below = lower_tile < tiles && lower_tile % tiles_y != 0;  // it lies just below the first
  // Two phases of the cluster's barrier, each thread arriving once and waiting once in each.
  // First: the second block's rows have landed (it arrives once they have, the first block at
  // the start); the first block waits for that, then copies the rows below its tile from the
  // second block's shared memory (whole rows of the line tile, 16 bytes at a time). Second:
  // the first block has copied them, so the second block's shared memory may go. The second
  // block stores its tile in between, and waits for the first phase only at its end.
  auto share = [&] {  // between the load phase and the store phase
    if (upper) {
      cluster.barrier_wait();
      if (below) {
        const uint4* theirs = cluster.map_shared_rank(smem, 1);
        for (int i = threadIdx.x; i < (Tile::kRows - kR) * Tile::kRowChunks; i += kThreads) {
          smem[kR * Tile::kRowChunks + i] = theirs[i];
        }
        __syncthreads();
      }
    }
    cluster.barrier_arrive();  // the first block: second phase; the second block: first phase
  };
  if (upper) cluster.barrier_arrive();  // first phase
  if (t < tiles) {
    detail::move_shifted_tile_at<T, kR, kC, kThreads, true, kStartBytes>(tile, out, in, rows, cols, r0, c0, 0, 0,
                                                                         upper && below ? kR : Tile::kRows, share);
  } else {
    share();  // the spare block of the last pair still takes part in the barriers
  }
  if (!upper) {
    cluster.barrier_wait();    // first phase
    cluster.barrier_arrive();  // second phase
  }
  cluster.barrier_wait();  // second phase: the first block has copied what it needs from the second
#else
  if (t < tiles) detail::move_shifted_tile_at<T, kR, kC, kThreads, true, kStartBytes>(tile, out, in, rows, cols, r0, c0);
#endif
}

/// Out-of-place transpose on the shifted path, for any shape and any (element-aligned)
/// pointers: tiles of kInBytes x kOutBytes bytes (as in transpose_with), kThreads threads,
/// the column order, and two regions where the rows of `in` lie a multiple of 128 KB apart.
/// The line tile where cols is odd (unless kLineTile is false: the lab's `shifted_packed`
/// rows), the packed tile otherwise. kMinBlocks: as shifted_kernel's, for the line tile only
/// (the lab's rows `shifted_*_Nblocks`). kEvictFirst: as shifted_kernel's.
template <int kInBytes, int kOutBytes, int kThreads, bool kLineTile = true, int kStartBytes = 32, int kMinBlocks = 0,
          bool kEvictFirst = false, typename T>
void transpose_shifted_with(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  constexpr unsigned kR = kOutBytes / sizeof(T), kC = kInBytes / sizeof(T);  // tile rows and columns
  unsigned tiles_y;
  const std::size_t tiles = detail::shifted_tiles<kR, kC>(rows, cols, tiles_y);
  auto launch = [&](auto kernel, unsigned regions, std::size_t shared) {  // shared: the tile's bytes
    const std::size_t slots = ceil_div(tiles, std::size_t(regions)) * regions;
    const unsigned blocks = unsigned(std::min<std::size_t>(slots, INT_MAX));  // beyond: the grid-stride loop
    allow_shared_memory(kernel, shared);
    kernel<<<blocks, kThreads, shared, stream>>>(out, in, rows, cols, tiles_y, unsigned(tiles));
  };
  constexpr std::size_t kLineBytes = detail::LineTile<T, kR, kC, kStartBytes>::kBytes;
  constexpr std::size_t kPackedBytes = detail::PackedTile<T, kR, kC, kStartBytes>::kBytes;
  if (kLineTile && detail::line_tile_for(cols)) {  // (an odd pitch is never a multiple of 128 KB)
    launch(shifted_kernel<T, kInBytes, kOutBytes, kThreads, 1, true, kStartBytes, kMinBlocks, kEvictFirst>, 1,
           kLineBytes);
  } else if (pitch_is_128k_multiple<T>(cols)) {
    launch(shifted_kernel<T, kInBytes, kOutBytes, kThreads, 2, false, kStartBytes, 0, kEvictFirst>, 2, kPackedBytes);
  } else {
    launch(shifted_kernel<T, kInBytes, kOutBytes, kThreads, 1, false, kStartBytes, 0, kEvictFirst>, 1, kPackedBytes);
  }
  TP_CHECK_LAUNCH("shifted_kernel");
}

/// The shifted path with the strip kernel for odd cols: kPerBlock tiles per block, or (0) as
/// many blocks as fit on the GPU at once, each moving a run of tiles down the columns; as
/// transpose_shifted_with for even cols. The lab's rows `shifted_strip*` (not the record's:
/// each measured slower than the flat tiles one per block, lab/README.md says why).
template <int kInBytes, int kOutBytes, int kThreads, int kPerBlock = 0, int kStartBytes = 32, typename T>
void transpose_shifted_strip(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  static_assert(kPerBlock == 0 || kPerBlock >= 2, "0 (the resident grid), or runs of 2 tiles or more");
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  if (!detail::line_tile_for(cols)) {
    return transpose_shifted_with<kInBytes, kOutBytes, kThreads, true, kStartBytes>(out, in, rows, cols, stream);
  }
  constexpr unsigned kR = kOutBytes / sizeof(T), kC = kInBytes / sizeof(T);
  unsigned tiles_y;
  const std::size_t tiles = detail::shifted_tiles<kR, kC>(rows, cols, tiles_y);
  const auto kernel = shifted_strip_kernel<T, kInBytes, kOutBytes, kThreads, kStartBytes>;
  const std::size_t shared = detail::LineTile<T, kR, kC, kStartBytes>::kBytes;
  allow_shared_memory(kernel, shared);
  const unsigned blocks = unsigned(kPerBlock > 0 ? ceil_div(tiles, std::size_t(kPerBlock))
                                                : std::min<std::size_t>(tiles, resident_blocks(kernel, kThreads, shared)));
  kernel<<<blocks, kThreads, shared, stream>>>(out, in, rows, cols, tiles_y, unsigned(tiles));
  TP_CHECK_LAUNCH("shifted_strip_kernel");
}

/// The shifted path with the pair kernel for odd cols, where the GPU and the build have
/// clusters (the kernel compiled for compute capability 9.0 or newer); as
/// transpose_shifted_with otherwise. The lab's row `shifted_pair` (flat tiles).
template <int kInBytes, int kOutBytes, int kThreads, int kStartBytes = 32, typename T>
void transpose_shifted_pairs(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  constexpr unsigned kR = kOutBytes / sizeof(T), kC = kInBytes / sizeof(T);
  unsigned tiles_y;
  const std::size_t tiles = detail::shifted_tiles<kR, kC>(rows, cols, tiles_y);
  const auto kernel = shifted_pair_kernel<T, kInBytes, kOutBytes, kThreads, kStartBytes>;
  cudaFuncAttributes built{};
  TP_CUDA_CHECK(cudaFuncGetAttributes(&built, kernel));
  // Even cols, no clusters in the build, or past the grid's limit (one block per tile):
  if (!detail::line_tile_for(cols) || built.ptxVersion < 90 || tiles == 0 || tiles >= std::size_t(INT_MAX)) {
    return transpose_shifted_with<kInBytes, kOutBytes, kThreads, true, kStartBytes>(out, in, rows, cols, stream);
  }
  const std::size_t shared = detail::LineTile<T, kR, kC, kStartBytes>::kBytes;
  allow_shared_memory(kernel, shared);
  cudaLaunchAttribute pair;
  const cudaLaunchConfig_t config =
      cluster_launch_config(pair, 2, unsigned(ceil_div(tiles, std::size_t(2)) * 2), kThreads, shared, stream);
  TP_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, out, in, rows, cols, tiles_y, unsigned(tiles)));
  TP_CHECK_LAUNCH("shifted_pair_kernel");
}

/// The shifted path with square tiles of kTileBytes x kTileBytes bytes.
template <int kTileBytes, int kThreads, bool kLineTile = true, int kStartBytes = 32, bool kEvictFirst = false,
          typename T>
void transpose_shifted(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  transpose_shifted_with<kTileBytes, kTileBytes, kThreads, kLineTile, kStartBytes, 0, kEvictFirst>(out, in, rows, cols,
                                                                                                   stream);
}

/// The shifted path's large tile: kLargeRows input rows of kLargeRowBytes bytes each.
constexpr int kLargeRows = 128, kLargeRowBytes = 512;

/// The shifted path with large tiles for large matrices (kLargeRows x kLargeRowBytes: 512 x 512
/// bytes for `float`, 512 x 256 for 2-byte types) and 512 threads; 86 KB (`float`) to 92 KB
/// (2-byte types) of shared memory as line tiles, two blocks per SM.
template <int kStartBytes = 32, bool kEvictFirst = false, typename T>
void transpose_shifted_large(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  transpose_shifted_with<kLargeRowBytes, kLargeRows * int(sizeof(T)), 512, true, kStartBytes, 0, kEvictFirst>(
      out, in, rows, cols, stream);
}

/// The shifted path with flat tiles: 256 bytes of each of 128 / sizeof(T) input rows (64 rows of
/// 128 elements for 2-byte types, half the rows of the square 256-byte tile), 256 threads, chunks
/// from 32-byte sectors. A warp then stores 8 chunks (128 bytes) of 4 output rows.
template <bool kEvictFirst = false, typename T>
void transpose_shifted_flat(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  transpose_shifted_with<256, 128, 256, true, 32, 0, kEvictFirst>(out, in, rows, cols, stream);
}

/// The element path: the lab kernel with 64 x 64-element tiles in column order, one element per
/// access, for every shape; the record's for `double` without 16-byte rows beyond
/// packed_double() (row `elements64`). No store hint: kStreaming acts on 16-byte accesses only
/// (with it, this kernel compiles to the same PTX).
template <typename T>
void transpose_elements64(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  constexpr int kElementTile = 64 * sizeof(T);  // 64 elements, in bytes
  transpose_with<kElementTile, kElementTile, 256, kColumns>(out, in, rows, cols, stream);
}

/// Whether the record starts the output chunks of 2-byte types on 16 bytes (their tiles then
/// load 8 rows fewer) rather than on 32-byte sectors, at few waves: unless that would put
/// every output row's chunks off their sectors. That happens where all output rows lie at one
/// place of their sectors (the pitch, rows x sizeof(T), a multiple of 32 bytes: offset
/// pointers) and that place is 1 to 16 bytes into a sector; the first 16-byte boundary of each
/// row is then 16 bytes into a sector.
template <typename T>
bool few_wave_start16(const T* out, int rows) {
  if (sizeof(T) != 2) return false;
  const unsigned place = unsigned(reinterpret_cast<std::uintptr_t>(out) % 32);  // of out[0][0], in bytes
  return std::size_t(rows) * sizeof(T) % 32 != 0 || place == 0 || place > 16;
}

/// The shifted path with square tiles of kTileBytes and kThreads threads at few waves: chunks
/// from 16 bytes where few_wave_start16 says so, else from 32-byte sectors.
template <int kTileBytes, int kThreads, bool kEvictFirst, typename T>
void transpose_shifted_few_waves(T* out, const T* in, int rows, int cols, cudaStream_t stream) {
  if constexpr (sizeof(T) == 2) {
    if (few_wave_start16(out, rows)) {
      return transpose_shifted<kTileBytes, kThreads, true, 16, kEvictFirst>(out, in, rows, cols, stream);
    }
  }
  transpose_shifted<kTileBytes, kThreads, true, 32, kEvictFirst>(out, in, rows, cols, stream);
}

/// The lab's record configuration for every shape, type and pointer (the record, lab/record.cuh,
/// takes the lean tile of lean_tile.cuh before it for `float` and 2-byte types at a few waves): the main line's
/// headline (kHeadline, 256 x 256-byte tiles, 256
/// threads, two regions where the rows of `in` lie a multiple of 128 KB apart), with 128 x 128-byte
/// tiles and 128 threads where the large tiles would give fewer than 3 waves of blocks (4 times the
/// tiles; a `double` thread then has one chunk per tile, and no column pairs). Where rows and cols
/// are multiples of V but a pointer is not a multiple of the tile's bytes, the same tiles on a
/// grid moved with the pointers (kMovedGrid). Shapes without 16-byte rows take the shifted path
/// (16-byte accesses on both sides, shifted in shared memory and in registers), its output
/// chunks starting on 32-byte sectors: for odd cols (the
/// line tile) with 128 x 128-byte tiles where the 256-byte ones would give less than one wave,
/// with 256 x 256-byte tiles, whose warps store 256 bytes of each output row, where the large
/// tiles of transpose_shifted_large would give fewer than 3 waves (a block of 512 threads
/// counting as two), but for 2-byte types the flat tiles of transpose_shifted_flat there (64
/// input rows), and with the large tiles beyond; for even cols (the packed tile) with the
/// same choice of tiles as the 16-byte path. At the few-wave sizes of the square tiles the
/// 2-byte types start their chunks on 16-byte boundaries instead where that keeps the output
/// rows' runs on their sectors (few_wave_start16). Each choice measured faster (rows
/// `shifted*` of lab_unaligned; the moved grid: `record_offset*`); but `double` without 16-byte
/// rows takes the packed 256 x 256-byte tiles where packed_double() says so, else the element
/// path with 64 x 64-element tiles, each measured faster there (lab_double_odd).
/// Its 16-byte stores are plain ones; kEvictFirst gives them the evict-first hint instead (the
/// lab's row `record_cs`, the record until plain stores measured as fast or faster).
template <bool kEvictFirst = false, typename T>
void transpose_record_general(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  constexpr unsigned kFeatures = kRecordFeatures | (kEvictFirst ? kStreaming : 0u);
  check_shape(rows, cols);
  const bool rows16 = detail::shape_16<T>(rows, cols);  // 16-byte rows, wherever the pointers are
  const std::size_t tiles = tiles256<T>(rows, cols);
  const Residency gpu = residency();
  const bool small = few_waves(tiles, gpu);
  if (!rows16 && sizeof(T) == 8) {
    if (packed_double(tiles, gpu)) return transpose_shifted<256, 256, false, 32, kEvictFirst>(out, in, rows, cols, stream);
    return transpose_elements64(out, in, rows, cols, stream);
  }
  if (rows16) {
    if (small) transpose_tiles<128, 128, kFeatures>(out, in, rows, cols, stream);
    else transpose_tiles<256, 256, kFeatures>(out, in, rows, cols, stream);
  } else if (!detail::line_tile_for(cols)) {
    if (small) transpose_shifted_few_waves<128, 128, kEvictFirst>(out, in, rows, cols, stream);
    else transpose_shifted<256, 256, true, 32, kEvictFirst>(out, in, rows, cols, stream);
  } else {
    const std::size_t large_tiles = std::size_t(ceil_div(unsigned(rows), unsigned(kLargeRows))) *
                                    ceil_div(unsigned(cols), unsigned(kLargeRowBytes / sizeof(T)));
    if (one_wave_or_less(tiles, gpu)) transpose_shifted_few_waves<128, 128, kEvictFirst>(out, in, rows, cols, stream);
    else if (!few_waves(2 * large_tiles, gpu)) transpose_shifted_large<32, kEvictFirst>(out, in, rows, cols, stream);
    else if constexpr (sizeof(T) == 2) transpose_shifted_flat<kEvictFirst>(out, in, rows, cols, stream);
    else transpose_shifted<256, 256, true, 32, kEvictFirst>(out, in, rows, cols, stream);
  }
}

}  // namespace tp::lab::coarsen
