/// @file steps/09_multi_gpu/exercise.cuh
/// @brief Exercise 09: the pipelined transpose across GPUs, with its three offsets left to you.
///
/// The schedule (streams, events, buffers) is given; what is missing is where each piece
/// comes from and where it goes (blocks.hpp has every size you need):
/// 1. pack: where slab k of my rows starts in `in`;
/// 2. piece_for: where, in the transposed slab, the rows that rank j needs start;
/// 3. place: where piece (i, k), from rank i, goes in `out`, i.e. its first column.
/// As in blocks.hpp, i names a sender and j a receiver.
/// Check: ctest --test-dir build -L exercise -R 09 (on a machine with 2 GPUs or more), or
/// build/bin/09_multi_gpu --exercise. Hints: the chapter's figure of the blocks; a slab of
/// my rows is contiguous in `in`; after the transpose, row c of the send buffer is column c
/// of the slab; the columns of `out` are the global rows of the input.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>

#include "07_coarsen/kernel.cuh"
#include "09_multi_gpu/agree.cuh"
#include "09_multi_gpu/blocks.hpp"
#include "09_multi_gpu/kernel.cuh"  // copy_rows
#include "09_multi_gpu/resources.cuh"
#include "tp/error.hpp"
#include "tp/nccl.hpp"

namespace tp::step09::exercise {

template <typename T>
void pack(T* send, const T* in, const Layout& l, int k, cudaStream_t stream) {
  const T* slab = in;  // TODO 1: the first element of slab k of my rows (l.slabs(l.rank) knows where it starts)
  step07::transpose(send, slab, int(l.slab(l.rank, k)), int(l.cols), stream);
}

/// The rows of the transposed slab in `send` that rank j needs (my own piece for j == my rank):
/// here j is the receiver.
template <typename T>
const T* piece_for(const T* send, [[maybe_unused]] const Layout& l, [[maybe_unused]] int j, [[maybe_unused]] int k) {
  return send;  // TODO 2: the first element of the rows of the send buffer that rank j needs
}

template <typename T>
void send_receive(T* recv, const T* send, const Layout& l, int k, ncclComm_t comm, cudaStream_t stream) {
  const long long mine = l.slab(l.rank, k);
  TP_NCCL_CHECK(ncclGroupStart());
  for (int peer = 0; peer < l.ranks; ++peer) {
    if (peer == l.rank) continue;
    const std::size_t send_bytes = sizeof(T) * l.cols_of().size(peer) * mine;
    const std::size_t recv_bytes = sizeof(T) * l.out_rows() * l.slab(peer, k);
    if (send_bytes > 0) TP_NCCL_CHECK(ncclSend(exercise::piece_for(send, l, peer, k), send_bytes, ncclUint8, peer, comm, stream));
    if (recv_bytes > 0) TP_NCCL_CHECK(ncclRecv(recv + l.recv_offset(peer, k), recv_bytes, ncclUint8, peer, comm, stream));
  }
  TP_NCCL_CHECK(ncclGroupEnd());
}

/// Piece (i, k) from rank i into its columns of `out`.
template <typename T>
void place(T* out, const T* piece, const Layout& l, int i, int k, cudaStream_t stream) {
  const std::size_t width = sizeof(T) * l.slab(i, k);
  T* to = out;  // TODO 3: where piece (i, k) starts in `out`: its first column
  copy_rows(to, sizeof(T) * l.rows, piece, width, width, l.out_rows(), stream);
}

/// The same schedule as tp::step09::Plan::run, in one call (the check included), on the
/// functions above (named with exercise::, since the step's own functions of the same names are
/// found too: Layout lives in tp::step09).
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, ncclComm_t comm, cudaStream_t stream = 0,
               int chunks = kChunks) {
  const Layout l = agree(out, in, rows, cols, chunks, comm, stream);
  if (rows == 0 || cols == 0) return;
  Staging<T> staging(l, stream);
  SideStream side;
  const auto place_received = [&](int k) {
    for (int i = 0; i < l.ranks; ++i) {
      if (i != l.rank) exercise::place(out, staging.recv(k % l.buffers()) + l.recv_offset(i, k), l, i, k, stream);
    }
  };
  for (int k = 0; k < chunks; ++k) {
    T* send = staging.send(k % l.buffers());
    exercise::pack(send, in, l, k, stream);
    side.after(stream);
    exercise::send_receive(staging.recv(k % l.buffers()), send, l, k, comm, side.get());
    side.exchanged(k);
    exercise::place(out, exercise::piece_for<T>(send, l, l.rank, k), l, l.rank, k, stream);  // my own piece
    if (k > 0) {
      side.wait_exchanged(stream, k - 1);
      place_received(k - 1);
    }
  }
  side.wait_exchanged(stream, chunks - 1);
  place_received(chunks - 1);
}

}  // namespace tp::step09::exercise
