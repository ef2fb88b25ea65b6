/// @file steps/08_inplace/cycles.cuh
/// @brief Step 08 for rectangles whose sides share a large factor: the second of two passes,
/// which moves whole chunks of g elements along the cycles of their permutation.
///
/// m = rows, n = cols, g = gcd(m, n), m = p g, n = q g: the matrix is a p x q grid of g x g
/// squares.
/// - Pass 1 (kernel.cuh, transpose_squares): every square is transposed in place where it
///   stands. Row c of square (i, j) now holds, in g consecutive elements, what must become
///   part of row j g + c of the n x m transpose.
/// - Pass 2 (this file): the matrix is a sequence of chunks of g consecutive elements,
///   chunk (i, c, j) = row i g + c, columns j g .. j g + g - 1. Chunk (i, c, j) moves, whole,
///   to position (j, c, i) of the transpose. A permutation is a set of cycles; each cycle is
///   followed in place: every position takes the chunk of the position it is fed from, in
///   order along the cycle (the first chunk held aside for the last position), so each
///   chunk is read before it is overwritten.
///
/// The host finds the cycles once per shape (their lengths run from 1 to tens of thousands
/// of chunks) and cuts long ones into segments, so that there is work for every SM. A
/// segment cannot read the chunk that the next segment of its cycle overwrites first, so a
/// small kernel saves that one chunk per cut segment in scratch memory before the cycles
/// move. One GPU thread follows one segment for 16 bytes of every chunk: consecutive threads
/// take consecutive 16 bytes of the same chunks, each segment whole warps, and each thread
/// has two chunks in flight.
///
/// Extra device memory: one chunk of scratch per cut segment, at most (number of SMs) x
/// max(rows, cols) elements, and 16 bytes per segment for the table of segments.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <tuple>
#include <vector>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step08::cycles {

// [layout]
/// The chunks of an m x n matrix with g = gcd(m, n), m = p g, n = q g: chunk (i, c, j),
/// 0 <= i < p, 0 <= c < g, 0 <= j < q, is row i g + c, columns j g .. j g + g - 1; its
/// position is (i g + c) q + j, in units of g elements.
struct Layout {
  long long p, g, q;
  long long chunks() const { return p * g * q; }
};

inline Layout layout_of(long long m, long long n) {
  const long long g = std::gcd(m, n);
  return Layout{m / g, g, n / g};
}

/// The position whose chunk moves to position y: y is chunk (j, c, i) of the transpose (q x
/// g x p), which is chunk (i, c, j) of the matrix before.
__host__ __device__ inline long long source(const Layout& l, long long y) {
  const long long i = y % l.p, c = y / l.p % l.g, j = y / (l.p * l.g);
  return (i * l.g + c) * l.q + j;
}
// [layout]

/// source() in 32-bit arithmetic, as the kernel computes it (a 32-bit division is a few
/// instructions; a 64-bit one is a long software routine). Exact for fewer than 2^32
/// chunks; takes() allows at most 2^24.
struct Sources {
  unsigned p, g, q;
  explicit Sources(const Layout& l) : p(unsigned(l.p)), g(unsigned(l.g)), q(unsigned(l.q)) {}
  __host__ __device__ unsigned operator()(unsigned y) const {
    const unsigned i = y % p, t = y / p, c = t % g, j = t / g;
    return (i * g + c) * q + j;
  }
};

// [segments]
/// A piece of a cycle: positions y_0 = start, y_1 = source(y_0), ..., y_length = tail.
/// Position y_k takes the chunk of y_(k+1). A whole cycle is one segment with tail ==
/// start (slot -1); a cut one reads its tail's chunk from scratch slot `slot`, because
/// the next segment overwrites the tail first.
struct Segment {
  unsigned start, tail;  // positions: fewer than 2^24 (takes)
  int length, slot;
};

/// Every cycle of the chunk permutation except fixed points, cut into segments of at most
/// max_length positions. Cut segments come first (slots 0, 1, ...), then the whole cycles,
/// each group longest first, so that the longest work starts first.
inline std::vector<Segment> find_segments(const Layout& l, long long max_length) {
  std::vector<Segment> cut, whole;
  std::vector<char> seen(std::size_t(l.chunks()), 0);
  for (long long y0 = 0; y0 < l.chunks(); ++y0) {
    if (seen[y0]) continue;
    long long length = 0;
    for (long long y = y0; !seen[y]; y = source(l, y)) {  // walk the cycle once: its length
      seen[y] = 1;
      ++length;
    }
    if (length == 1) continue;  // a fixed point stays
    if (length <= max_length) {
      whole.push_back({unsigned(y0), unsigned(y0), int(length), -1});
      continue;
    }
    const long long pieces = (length + max_length - 1) / max_length;  // equal lengths, +-1
    long long y = y0;
    for (long long s = 0; s < pieces; ++s) {  // walk it again, cutting
      const long long piece = length / pieces + (s < length % pieces);
      Segment seg{unsigned(y), 0, int(piece), int(cut.size())};
      for (long long k = 0; k < piece; ++k) y = source(l, y);
      seg.tail = unsigned(y);  // the next segment's start (y0 for the last one)
      cut.push_back(seg);
    }
  }
  auto longer = [](const Segment& a, const Segment& b) { return a.length > b.length; };
  std::stable_sort(whole.begin(), whole.end(), longer);
  std::vector<Segment> segments(cut);  // cut ones keep their slot order: slot == index
  segments.insert(segments.end(), whole.begin(), whole.end());
  return segments;
}
// [segments]

/// The longest segment for `sms` SMs: long enough that at most sms x max(p, q) segments are
/// cut (their scratch is then at most sms x max(m, n) elements), and at least 64.
inline long long max_segment_length(const Layout& l, int sms) {
  const long long cuts = std::max<long long>(1, (long long)sms * std::max(l.p, l.q));
  return std::max<long long>(64, (2 * l.chunks() + cuts - 1) / cuts);  // cut <= 2 chunks / max_length
}

/// The segments of a shape, found once per (layout, max_length) and kept: finding them
/// walks every chunk on the host, which at 10000 x 7000 takes longer than both passes take
/// on an H200. The first call for a shape pays for it (a benchmark's warm-up does).
inline std::shared_ptr<const std::vector<Segment>> segments_for(const Layout& l, long long max_length) {
  static std::mutex mutex;
  static std::map<std::tuple<long long, long long, long long, long long>, std::shared_ptr<const std::vector<Segment>>> kept;
  const auto key = std::make_tuple(l.p, l.g, l.q, max_length);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = kept.find(key);
  if (it != kept.end()) return it->second;
  if (kept.size() >= 64) kept.clear();  // a bound on what is kept
  auto segments = std::make_shared<const std::vector<Segment>>(find_segments(l, max_length));
  kept.emplace(key, segments);
  return segments;
}

/// Whether rows x cols of T takes the two passes: its sides share a factor g with chunks
/// of 512 bytes or more, made of whole 16-byte pieces from a 16-byte aligned pointer; at
/// most 16 chunks per row or per column of squares (min(p, q) <= 16, which bounds the
/// table of segments by 16 max(m, n) / g entries); at most 2^24 chunks (the host's walk
/// stays under a second); at most 65535 squares (one grid row of blocks each). Other shapes
/// take rect.cuh's three passes.
template <typename T>
bool takes(const T* data, long long m, long long n) {
  const Layout l = layout_of(m, n);
  constexpr long long kV = 16 / sizeof(T);
  return l.g * (long long)sizeof(T) >= 512 && l.g % kV == 0 && reinterpret_cast<std::uintptr_t>(data) % 16 == 0 &&
         std::min(l.p, l.q) <= 16 && l.chunks() <= (1 << 24) && l.p * l.q <= 65535;
}

/// Scratch slot k = the tail chunk of cut segment k (segments 0 .. cut - 1), 16 bytes a
/// thread (Chunk = uint4). Runs before follow_cycles, which overwrites the tails.
template <typename Chunk>
__global__ void save_tails(const Chunk* data, const Segment* segments, long long cut, long long per_chunk,
                           Chunk* scratch) {
  const long long threads = cut * per_chunk;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < threads; t += (long long)gridDim.x * blockDim.x) {
    const long long s = t / per_chunk, v = t % per_chunk;
    scratch[s * per_chunk + v] = data[segments[s].tail * per_chunk + v];
  }
}

// [follow]
/// One thread's share of a segment: the 16 bytes v of each of its chunks (per_chunk
/// 16-byte pieces per chunk). Positions y_0, y_1, ... come from source(); kU chunks are
/// loaded, then kU stored, so that each position is read before it is written, by the same
/// thread.
template <int kU>
__device__ __forceinline__ void follow(uint4* data, const Sources& from, const Segment& seg, long long v,
                                       long long per_chunk, const uint4* scratch) {
  auto at = [&](unsigned y) -> uint4& { return data[y * per_chunk + v]; };
  const uint4 last = seg.slot < 0 ? at(seg.start) : scratch[seg.slot * per_chunk + v];  // y_length's chunk
  unsigned y = seg.start;
  for (int k0 = 0; k0 < seg.length; k0 += kU) {
    unsigned pos[kU + 1];
    uint4 chunk[kU];
    pos[0] = y;
#pragma unroll
    for (int u = 0; u < kU; ++u) pos[u + 1] = from(pos[u]);
#pragma unroll
    for (int u = 0; u < kU; ++u) {  // the loads first, all in flight at once
      const int k = k0 + u;
      if (k < seg.length) chunk[u] = k + 1 == seg.length ? last : at(pos[u + 1]);
    }
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      if (k0 + u < seg.length) at(pos[u]) = chunk[u];
    }
    y = pos[kU];
  }
}
// [follow]

/// Each segment takes whole warps: `lanes` = per_chunk rounded up to 32 threads, so that no
/// warp follows two segments (of different lengths, at different addresses). Thread t
/// follows segment t / lanes for the 16 bytes v = t mod lanes of each of its chunks.
template <int kU>
__global__ void __launch_bounds__(256) follow_cycles(uint4* data, Sources from, const Segment* segments,
                                                     long long count, long long per_chunk, const uint4* scratch) {
  const long long lanes = (per_chunk + 31) / 32 * 32, threads = count * lanes;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < threads; t += (long long)gridDim.x * blockDim.x) {
    const long long v = t % lanes;
    if (v < per_chunk) follow<kU>(data, from, segments[t / lanes], v, per_chunk, scratch);
  }
}
/// What pass 2 needs, allocated (and the segments found and uploaded) before pass 1 writes
/// anything: if any of it fails, the matrix is untouched.
struct ChunkPass {
  Layout layout;
  long long per_chunk = 0;                          // 16-byte pieces per chunk
  long long count = 0, cut = 0;                     // segments, cut segments
  void* device = nullptr;                           // the table of segments, then the scratch
  std::shared_ptr<const std::vector<Segment>> segments;
};

/// Bytes of the table of `count` segments, rounded up to 256 so that the scratch after it
/// is aligned for 16-byte accesses.
inline std::size_t table_bytes(long long count) { return (std::size_t(count) * sizeof(Segment) + 255) / 256 * 256; }

template <typename T>
ChunkPass prepare(long long m, long long n, cudaStream_t stream) {
  ChunkPass pass;
  pass.layout = layout_of(m, n);
  pass.per_chunk = pass.layout.g * (long long)sizeof(T) / 16;
  pass.segments = segments_for(pass.layout, max_segment_length(pass.layout, sm_count()));
  pass.count = (long long)pass.segments->size();
  pass.cut = std::count_if(pass.segments->begin(), pass.segments->end(), [](const Segment& s) { return s.slot >= 0; });
  const std::size_t table = table_bytes(pass.count);
  const std::size_t scratch = std::size_t(pass.cut * pass.per_chunk) * 16;
  if (pass.count == 0) return pass;
  TP_CUDA_CHECK(cudaMallocAsync(&pass.device, table + scratch, stream));
  TP_CUDA_CHECK(cudaMemcpyAsync(pass.device, pass.segments->data(), pass.count * sizeof(Segment),
                                cudaMemcpyHostToDevice, stream));
  return pass;
}

/// Pass 2 on `data`, enqueued on `stream`; frees what prepare allocated.
template <typename T>
void run(const ChunkPass& pass, T* data, cudaStream_t stream) {
  if (pass.count == 0) return;
  const auto* table = static_cast<const Segment*>(pass.device);
  uint4* scratch = reinterpret_cast<uint4*>(static_cast<char*>(pass.device) + table_bytes(pass.count));
  uint4* chunks = reinterpret_cast<uint4*>(data);
  auto blocks_for = [](long long threads) { return unsigned(std::min<long long>(ceil_div(threads, 256), INT_MAX)); };
  if (pass.cut > 0) {
    save_tails<<<blocks_for(pass.cut * pass.per_chunk), 256, 0, stream>>>(chunks, table, pass.cut, pass.per_chunk, scratch);
    TP_CHECK_LAUNCH("save_tails");
  }
  const long long lanes = (pass.per_chunk + 31) / 32 * 32;  // threads per segment, whole warps
  follow_cycles<2><<<blocks_for(pass.count * lanes), 256, 0, stream>>>(  // 2 chunks in flight: the
      chunks, Sources(pass.layout), table, pass.count, pass.per_chunk, scratch);  // fastest of 2, 4, 8 and 16
  TP_CHECK_LAUNCH("follow_cycles");
  TP_CUDA_CHECK(cudaFreeAsync(pass.device, stream));
}

}  // namespace tp::step08::cycles
