/// @file steps/09_multi_gpu/blocks.hpp
/// @brief Step 09's arithmetic: which rows each GPU holds, what it sends to whom, chunk by
/// chunk, and where each received piece lands. Host code only, tested on the CPU.
#pragma once

#include <algorithm>
#include <cstddef>

namespace tp::step09 {

/// Chunks of a transpose by default: about one shard of staging (Layout::staging_elems()).
/// More chunks hide more local work in the model but make more grouped calls; 4 and 8
/// measured alike (the chapter).
constexpr int kChunks = 4;

/// n things (rows, columns) shared by `parts` owners as evenly as possible: the first
/// n % parts owners get one more. Owner p has things begin(p) .. begin(p) + size(p) - 1.
/// \headerfile blocks.hpp "09_multi_gpu/blocks.hpp"
struct Split {
  long long n = 0;
  int parts = 1;
  long long size(int p) const { return n / parts + (p < n % parts ? 1 : 0); }
  long long begin(int p) const { return p * (n / parts) + std::min<long long>(p, n % parts); }
  long long largest() const { return (n + parts - 1) / parts; }
};

/// What rank `rank` of `ranks` holds, sends and receives when the rows x cols matrix is
/// transposed in `chunks` chunks. Rank i holds rows rows_of().begin(i) .. of the input (its
/// row block, all columns); rank j gets rows cols_of().begin(j) .. of the cols x rows
/// transpose, i.e. those columns of the input. Chunk k of rank i is slab k of its rows:
/// slabs(i). By convention i names a sender (whose rows a piece comes from), j a receiver.
/// \headerfile blocks.hpp "09_multi_gpu/blocks.hpp"
struct Layout {
  long long rows = 0, cols = 0;
  int ranks = 1, rank = 0, chunks = 1;

  Split rows_of() const { return {rows, ranks}; }                 // input rows per rank
  Split cols_of() const { return {cols, ranks}; }                 // transpose rows per rank
  Split slabs(int i) const { return {rows_of().size(i), chunks}; }  // rank i's rows per chunk

  long long in_rows() const { return rows_of().size(rank); }   // my block of the input: in_rows x cols
  long long out_rows() const { return cols_of().size(rank); }  // my block of the transpose: out_rows x rows

  /// Rows of rank i's input in chunk k: the columns of the transpose that chunk k fills from i.
  long long slab(int i, int k) const { return slabs(i).size(k); }
  /// The first of those columns in the transpose.
  long long out_column(int i, int k) const { return rows_of().begin(i) + slabs(i).begin(k); }
  /// Where rank i's piece of chunk k starts in my receive buffer (elements): the pieces lie
  /// one after the other, rank by rank, each out_rows x slab(i, k).
  long long recv_offset(int i, int k) const {
    long long before = 0;
    for (int p = 0; p < i; ++p) before += slab(p, k);
    return out_rows() * before;
  }

  /// Elements of one send buffer (a transposed slab: cols x slab) and of one receive buffer.
  std::size_t send_elems() const { return std::size_t(cols) * std::size_t(slabs(rank).largest()); }
  std::size_t recv_elems() const {  // chunk 0 is the largest of every rank (Split)
    long long rows_in_chunk0 = 0;
    for (int i = 0; i < ranks; ++i) rows_in_chunk0 += slabs(i).largest();
    return std::size_t(out_rows()) * std::size_t(rows_in_chunk0);
  }
  /// One set of buffers for one chunk; two (chunk k + 1 packs while chunk k is in flight) for more.
  int buffers() const { return chunks > 1 ? 2 : 1; }
  /// The extra device memory of a transpose, in elements: buffers() x (send + receive).
  std::size_t staging_elems() const { return std::size_t(buffers()) * (send_elems() + recv_elems()); }
};

}  // namespace tp::step09
