/// @file steps/09_multi_gpu/agree.cuh
/// @brief Before any rank writes a byte, the ranks compare what each was given (one small
/// all-gather); if one of them was given something wrong, every rank throws the same error,
/// so that none is left waiting for a partner that gave up.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "09_multi_gpu/blocks.hpp"
#include "tp/dtype.hpp"
#include "tp/error.hpp"
#include "tp/nccl.hpp"

namespace tp::step09 {

/// What one rank was asked to do (8-byte fields, so that it crosses the wire as it is);
/// `dtype` is a tp::DType.
struct Request {
  long long rows = 0, cols = 0, dtype = 0, chunks = 0, in_is_null = 0, out_is_null = 0;
};

/// The first problem among the ranks' requests (rank 0's request is the one the others must
/// match), or "" when there is none. Host code, tested on the CPU.
inline std::string first_problem(const std::vector<Request>& all) {
  const auto text = [](const Request& q) {
    const bool known = q.dtype >= 0 && q.dtype < static_cast<long long>(kAllDTypes.size());
    return std::to_string(q.rows) + " x " + std::to_string(q.cols) + " " +
           (known ? dtype_name(static_cast<DType>(q.dtype)) : "?") + " in " + std::to_string(q.chunks) + " chunks";
  };
  const int ranks = int(all.size());
  for (int r = 0; r < ranks; ++r) {
    const Request& q = all[r];
    const std::string who = "rank " + std::to_string(r) + " of " + std::to_string(ranks) + ": ";
    if (q.rows < 0 || q.cols < 0) return who + "negative shape " + text(q);
    if (q.chunks < 1) return who + "chunks must be at least 1, got " + std::to_string(q.chunks);
    if (q.rows != all[0].rows || q.cols != all[0].cols || q.dtype != all[0].dtype ||
        q.chunks != all[0].chunks) {
      return who + "was given " + text(q) + ", rank 0 " + text(all[0]) + " (every rank passes the global shape)";
    }
    const Layout mine{q.rows, q.cols, ranks, r, 1};
    if (q.in_is_null && mine.in_rows() * q.cols > 0) {
      return who + "`in` is null, but its block of the input is " + std::to_string(mine.in_rows()) + " x " +
             std::to_string(q.cols);
    }
    if (q.out_is_null && mine.out_rows() * q.rows > 0) {
      return who + "`out` is null, but its block of the transpose is " + std::to_string(mine.out_rows()) + " x " +
             std::to_string(q.rows);
    }
  }
  return "";
}

/// Collective (every rank calls it): gathers the requests, throws std::invalid_argument on
/// every rank if first_problem() finds one, and returns this rank's layout. (A null
/// communicator cannot be reported to the others: that rank alone throws.) The host waits
/// until everything enqueued on `stream` so far, and the all-gather, are done.
template <typename T>
Layout agree(const T* out, const T* in, long long rows, long long cols, int chunks, ncclComm_t comm,
             cudaStream_t stream) {
  if (comm == nullptr) throw std::invalid_argument("the NCCL communicator is null");
  int ranks = 0, rank = 0;
  TP_NCCL_CHECK(ncclCommCount(comm, &ranks));
  TP_NCCL_CHECK(ncclCommUserRank(comm, &rank));
  const Request mine{rows, cols, static_cast<long long>(dtype_of<T>()), chunks, in == nullptr, out == nullptr};
  std::vector<Request> all(ranks);
  Request* gathered = nullptr;  // from the stream-ordered pool: no cudaMalloc (it would wait for the GPU)
  TP_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&gathered), all.size() * sizeof(Request), stream));
  TP_CUDA_CHECK(cudaMemcpyAsync(gathered + rank, &mine, sizeof mine, cudaMemcpyHostToDevice, stream));
  TP_NCCL_CHECK(ncclAllGather(gathered + rank, gathered, sizeof mine, ncclUint8, comm, stream));
  TP_CUDA_CHECK(cudaMemcpyAsync(all.data(), gathered, all.size() * sizeof(Request), cudaMemcpyDeviceToHost, stream));
  TP_CUDA_CHECK(cudaFreeAsync(gathered, stream));
  TP_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::string problem = first_problem(all);
  if (!problem.empty()) throw std::invalid_argument(problem);
  return Layout{rows, cols, ranks, rank, chunks};
}

}  // namespace tp::step09
