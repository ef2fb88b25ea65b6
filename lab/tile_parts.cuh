/// @file lab/tile_parts.cuh
/// @brief The device helpers that the lab's kernels share: the swizzle of a tile in shared
/// memory, 16-byte loads and stores (whole or in parts), the store phase's warp layout,
/// packing V elements into 16 bytes, interleaved regions and the moved grid's offset.
///
/// The tile kernel (tile_kernel.cuh), the shifted path (shifted_tiles.cuh, shifted.cuh), the
/// lean tile (lean_tile.cuh) and the in-place kernel (inplace_lab.cuh) are built from them.
/// Each helper is measured through the kernels that use it: the store layouts and regions in
/// lab/README.md's "Tuning" and "Tile orders" sections, the moved grid in "Odd shapes".
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "07_coarsen/kernel.cuh"  // slot, rows_16_aligned
#include "tp/async.cuh"

namespace tp::lab::coarsen::detail {

/// Shared-memory column of tile element (r, c) (tile width kCols elements, V = 16 / sizeof(T)).
/// 16-byte path: step 07's chunk swizzle (step07::slot). Element path: XOR the element index
/// with r, as step 06 did (within the first 32 columns).
template <typename T, int kCols, bool kWide>
__host__ __device__ constexpr int slot(int r, int c) {
  if constexpr (kWide) return step07::slot<T>(r, c);      // chunk ^ (r / V) % 8
  else return c ^ (r & ((kCols < 32 ? kCols : 32) - 1));  // element ^ r % 32 (or % kCols)
}

/// A 16-byte load; kStreaming: with the evict-first hint (ld.global.cs).
template <bool kStreaming>
__device__ __forceinline__ uint4 load16(const void* p) {
  const uint4* q = static_cast<const uint4*>(p);
  if constexpr (kStreaming) return __ldcs(q);  // ld.global.cs: evict first
  else return *q;
}

/// A 16-byte store; kStreaming: with the evict-first hint (st.global.cs).
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

/// Closes this thread's group of cp.async copies issued so far (tp::cp_async16 issues them,
/// tp::cp_async_wait_all waits for them).
__device__ __forceinline__ void cp_async_commit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
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

/// Column pairs (step 07's headline until e3624a5): two adjacent elements of a tile row,
/// read as one word: tile columns j and j + 1.
template <typename T>
using Pair = std::conditional_t<sizeof(T) == 2, unsigned, std::conditional_t<sizeof(T) == 4, uint2, uint4>>;

/// V words of column pairs (word k from tile row k of a chunk) -> chunk `first` (the low
/// elements: tile column j) and chunk `second` (the high elements: tile column j + 1).
template <typename T>
__device__ __forceinline__ void split_pairs(const Pair<T>* w, uint4& first, uint4& second) {
  if constexpr (sizeof(T) == 2) {  // 8 words of 2 halves: PRMT picks the low or the high halves
    unsigned lo[4], hi[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      lo[k] = __byte_perm(w[2 * k], w[2 * k + 1], 0x5410);  // low half of each word
      hi[k] = __byte_perm(w[2 * k], w[2 * k + 1], 0x7632);  // high half of each word
    }
    first = make_uint4(lo[0], lo[1], lo[2], lo[3]);
    second = make_uint4(hi[0], hi[1], hi[2], hi[3]);
  } else if constexpr (sizeof(T) == 4) {  // 4 words of 2 floats
    first = make_uint4(w[0].x, w[1].x, w[2].x, w[3].x);
    second = make_uint4(w[0].y, w[1].y, w[2].y, w[3].y);
  } else {  // 2 words of 2 doubles (a double is .x.y or .z.w)
    first = make_uint4(w[0].x, w[0].y, w[1].x, w[1].y);
    second = make_uint4(w[0].z, w[0].w, w[1].z, w[1].w);
  }
}

/// Interleaved regions: `items` work items split into `regions` contiguous regions of
/// L = ceil(items / regions) items, and slot u takes item (u % regions) L + u / regions.
/// Consecutive slots, i.e. the blocks in flight at once, then work in `regions` far-apart
/// parts of the matrix instead of one. A slot whose item is >= items has nothing to do.
/// The slots to launch: regions x L (at most regions - 1 more than items).
__host__ __device__ constexpr std::size_t interleaved_slots(std::size_t items, unsigned regions) {
  return (items + regions - 1) / regions * regions;
}
// [interleaved]
__host__ __device__ constexpr std::size_t interleaved(std::size_t u, std::size_t items, unsigned regions) {
  const std::size_t per_region = (items + regions - 1) / regions;
  return u % regions * per_region + u / regions;
}
// [interleaved]

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

}  // namespace tp::lab::coarsen::detail
