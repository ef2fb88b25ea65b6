/// @file steps/09_multi_gpu/kernel.cuh
/// @brief Step 09: a transpose across GPUs. Each GPU (a rank of an NCCL communicator) holds a
/// block of rows of the global rows x cols matrix and gets its block of rows of the
/// cols x rows transpose.
///
/// What the step adds to step 07 (whose kernel does the transposing half of the local work):
/// - The blocks. Rank i holds rows r_i .. of the input, all columns; rank j needs columns
///   c_j .. of the input (its rows of the transpose). So rank i owes rank j the block
///   (rows of i) x (columns of j), transposed: an all-to-all (blocks.hpp).
/// - Transposing while packing. Step 07 transposes a slab of my rows (slab x cols, contiguous
///   in `in`) into a send buffer (cols x slab): rows c_j .. of the result are exactly the
///   piece that rank j needs, already transposed and contiguous, so NCCL sends it as it is.
///   A received piece is (rows of the transpose) x slab and is copied into its columns of
///   `out` (copy_rows); my own piece is copied the same way and never leaves the GPU.
/// - Pipelining. The rows go in `chunks` slabs; the exchange of slab k runs on a second,
///   high-priority stream while the caller's stream transposes slab k + 1 and places the
///   pieces of slab k - 1. Two sets of buffers take turns.
///
/// Extra device memory: Layout::staging_elems(), buffers() x (cols x slab + rows of the
/// transpose x the slabs of all ranks) elements (two sets from 2 chunks on, one for 1 chunk):
/// with 4 chunks about one shard (the larger of my blocks of the input and of the
/// transpose), with 1 chunk about two.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "07_coarsen/kernel.cuh"
#include "09_multi_gpu/agree.cuh"
#include "09_multi_gpu/blocks.hpp"
#include "09_multi_gpu/resources.cuh"
#include "tp/error.hpp"
#include "tp/launch.cuh"
#include "tp/nccl.hpp"

namespace tp::step09 {

// [pack]
/// Slab k of my rows (slab x cols, contiguous in `in`) -> `send`, transposed: cols x slab.
template <typename T>
void pack(T* send, const T* in, const Layout& l, int k, cudaStream_t stream) {
  const long long first = l.slabs(l.rank).begin(k);  // the slab's first row in my block
  step07::transpose(send, in + first * l.cols, int(l.slab(l.rank, k)), int(l.cols), stream);
}
// [pack]

// [send_receive]
/// Chunk k's all-to-all: to each peer, the rows of `send` that it needs (from row c_peer on);
/// from each peer, its piece, into its place in `recv`.
template <typename T>
void send_receive(T* recv, const T* send, const Layout& l, int k, ncclComm_t comm, cudaStream_t stream) {
  const long long mine = l.slab(l.rank, k);  // my rows in this chunk = columns of each piece I send
  TP_NCCL_CHECK(ncclGroupStart());           // all sends and receives of the chunk at once
  for (int peer = 0; peer < l.ranks; ++peer) {
    if (peer == l.rank) continue;            // my own piece stays here (place_own)
    const std::size_t send_bytes = sizeof(T) * l.cols_of().size(peer) * mine;  // (its rows of the transpose) x mine
    const std::size_t recv_bytes = sizeof(T) * l.out_rows() * l.slab(peer, k);  // (my rows of it) x its slab
    if (send_bytes > 0) {  // row c_peer of the cols x mine send buffer: element c_peer x mine
      TP_NCCL_CHECK(ncclSend(send + l.cols_of().begin(peer) * mine, send_bytes, ncclUint8, peer, comm, stream));
    }
    if (recv_bytes > 0) TP_NCCL_CHECK(ncclRecv(recv + l.recv_offset(peer, k), recv_bytes, ncclUint8, peer, comm, stream));
  }
  TP_NCCL_CHECK(ncclGroupEnd());
}
// [send_receive]

// [copy_rows]
/// Row r of `height` rows, `width` bytes each: src + r spitch -> dst + r dpitch. Row r of the
/// grid (blockIdx.y, grid-stride over rows) copies row r, V bytes per access, 256 x 4 x V bytes
/// per block (16 KB with V = 16 bytes): each thread issues its four loads before its stores,
/// `stride` apart so that each of a warp's four accesses covers contiguous bytes.
template <typename V>
__global__ void copy_rows_kernel(char* __restrict__ dst, std::size_t dpitch, const char* __restrict__ src,
                                 std::size_t spitch, std::size_t width, std::size_t height) {
  constexpr int kUnroll = 4;
  const std::size_t per_row = width / sizeof(V), stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t r = blockIdx.y; r < height; r += gridDim.y) {
    const V* from = reinterpret_cast<const V*>(src + r * spitch);
    V* to = reinterpret_cast<V*>(dst + r * dpitch);
    for (std::size_t c = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; c < per_row; c += kUnroll * stride) {
      V v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if (c + u * stride < per_row) v[u] = from[c + u * stride];
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if (c + u * stride < per_row) to[c + u * stride] = v[u];
      }
    }
  }
}

// [copy_rows]

// [copy_rows_launch]
/// What cudaMemcpy2DAsync does, as a kernel the chapter can show: 16-byte accesses where both
/// pointers, both pitches and the width allow them, else 4, 2 or 1 bytes.
inline void copy_rows(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                      std::size_t height, cudaStream_t stream) {
  if (width == 0 || height == 0) return;
  const std::size_t all = reinterpret_cast<std::uintptr_t>(dst) | reinterpret_cast<std::uintptr_t>(src) | dpitch |
                          spitch | width;  // a common alignment of every address and size
  const auto launch = [&](auto v) {
    using V = decltype(v);
    constexpr unsigned kThreads = 256;
    const dim3 grid(unsigned(ceil_div(width / sizeof(V), std::size_t(4 * kThreads))),
                    unsigned(std::min<std::size_t>(height, kMaxGridY)));
    copy_rows_kernel<V><<<grid, kThreads, 0, stream>>>(static_cast<char*>(dst), dpitch,
                                                       static_cast<const char*>(src), spitch, width, height);
    TP_CHECK_LAUNCH("copy_rows_kernel");
  };
  if (all % 16 == 0) return launch(uint4{});
  if (all % 4 == 0) return launch(0u);
  if (all % 2 == 0) return launch(static_cast<unsigned short>(0));
  launch('\0');
}
// [copy_rows_launch]

// [place]
/// Piece (i, k) from rank i, out_rows x slab(i, k) and contiguous, -> its columns of `out`
/// (out_rows x rows).
template <typename T>
void place(T* out, const T* piece, const Layout& l, int i, int k, cudaStream_t stream) {
  const std::size_t width = sizeof(T) * l.slab(i, k);  // bytes of one row of the piece
  copy_rows(out + l.out_column(i, k), sizeof(T) * l.rows, piece, width, width, l.out_rows(), stream);
}

/// My own piece of chunk k: rows c_me .. of the send buffer, straight into `out`.
template <typename T>
void place_own(T* out, const T* send, const Layout& l, int k, cudaStream_t stream) {
  place(out, send + l.cols_of().begin(l.rank) * l.slab(l.rank, k), l, l.rank, k, stream);
}

/// The other ranks' pieces of chunk k, from the receive buffer.
template <typename T>
void place_received(T* out, const T* recv, const Layout& l, int k, cudaStream_t stream) {
  for (int i = 0; i < l.ranks; ++i) {
    if (i != l.rank) place(out, recv + l.recv_offset(i, k), l, i, k, stream);
  }
}
// [place]

// [plan]
/// A transpose planned once and run many times. The constructor is collective (every rank of
/// `comm`, with the same rows, cols and chunks): agree() checks the ranks' arguments (a mismatch,
/// or a null `in` or `out` where the block is not empty, throws std::invalid_argument on every
/// rank before anything is written; a null `comm` throws on its rank alone; buffer sizes are not
/// checked), waiting for `stream`; then the staging buffers are allocated. run() only enqueues.
/// `in`: this rank's rows of the rows x cols matrix; `out`: its rows of the transpose. Both stay
/// valid while the plan lives; its runs are ordered. `wait_flags`: the lab's events experiment.
template <typename T>
class Plan {
 public:
  Plan(T* out, const T* in, int rows, int cols, ncclComm_t comm, cudaStream_t stream = 0, int chunks = kChunks,
       unsigned wait_flags = cudaEventDefault)
      : l_(agree(out, in, rows, cols, chunks, comm, stream)), out_(out), in_(in), comm_(comm), side_(wait_flags),
        staging_(l_, side_.get()) {
    TP_CUDA_CHECK(cudaStreamSynchronize(side_.get()));  // the buffers exist: any stream may use them
  }

  /// Enqueues the transpose on `stream`: `out` holds it once `stream` gets past it.
  void run(cudaStream_t stream) {
    if (l_.rows == 0 || l_.cols == 0) return;
    for (int k = 0; k < l_.chunks; ++k) {
      T* send = staging_.send(k % l_.buffers());
      pack(send, in_, l_, k, stream);        // free: the exchange of k - 2 was waited for below
      side_.after(stream);                   // chunk k's exchange starts when its pack is done
      send_receive(staging_.recv(k % l_.buffers()), send, l_, k, comm_, side_.get());
      side_.exchanged(k);
      place_own(out_, send, l_, k, stream);  // hidden behind an exchange (chunk k - 1's or k's)
      if (k > 0) {                           // chunk k - 1 has arrived: place it
        side_.wait_exchanged(stream, k - 1);
        place_received(out_, staging_.recv((k - 1) % l_.buffers()), l_, k - 1, stream);
      }
    }
    side_.wait_exchanged(stream, l_.chunks - 1);
    place_received(out_, staging_.recv((l_.chunks - 1) % l_.buffers()), l_, l_.chunks - 1, stream);
    side_.after(stream);  // the buffers are freed on the side stream: after this run
  }

 private:
  Layout l_;
  T* out_;
  const T* in_;
  ncclComm_t comm_;
  SideStream side_;   // the exchanges run here (declared before staging_: it outlives it)
  Staging<T> staging_;
};
// [plan]

// [transpose]
/// One transpose: a plan, run once. Every call pays for the ranks' check, which waits for
/// `stream`; a program that transposes the same blocks again keeps a Plan instead.
template <typename T>
void transpose(T* out, const T* in, int rows, int cols, ncclComm_t comm, cudaStream_t stream = 0,
               int chunks = kChunks) {
  Plan<T>(out, in, rows, cols, comm, stream, chunks).run(stream);
}
// [transpose]

}  // namespace tp::step09

// The four instantiations, compiled once in kernels.cu (left out of the documentation).
/// @cond
#ifndef TP_STEP09_INSTANTIATE
#include <cuda_bf16.h>
#include <cuda_fp16.h>
extern template void tp::step09::transpose<float>(float*, const float*, int, int, ncclComm_t, cudaStream_t, int);
extern template void tp::step09::transpose<double>(double*, const double*, int, int, ncclComm_t, cudaStream_t, int);
extern template void tp::step09::transpose<__half>(__half*, const __half*, int, int, ncclComm_t, cudaStream_t, int);
extern template void tp::step09::transpose<__nv_bfloat16>(__nv_bfloat16*, const __nv_bfloat16*, int, int, ncclComm_t,
                                                          cudaStream_t, int);
extern template class tp::step09::Plan<float>;
extern template class tp::step09::Plan<double>;
extern template class tp::step09::Plan<__half>;
extern template class tp::step09::Plan<__nv_bfloat16>;
#endif
/// @endcond
