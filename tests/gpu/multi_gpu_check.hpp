// Step 09's gpu checks, shared by its test suite and its exercise: one rank transposes its
// block of a case and compares the result with the CPU bit for bit.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime.h>
#include <nccl.h>

#include <string>
#include <vector>

#include "../gpu_guard.hpp"
#include "09_multi_gpu/blocks.hpp"
#include "09_multi_gpu/shards.hpp"
#include "tp/buffer.hpp"
#include "tp/data.hpp"
#include "tp/device.hpp"
#include "tp/dtype.hpp"
#include "tp/error.hpp"
#include "tp/nccl.hpp"

/// First lines of a test that needs `n` GPUs: skipped with fewer (even with TP_REQUIRE_GPU=1,
/// which still fails the test when there is no GPU at all).
#define TP_NEED_GPUS(n)                                                                          \
  TP_GPU_TEST_GUARD();                                                                           \
  if (::tp::device_count() < (n))                                                                \
  GTEST_SKIP() << "needs " << (n) << " GPUs; this machine has " << ::tp::device_count()

namespace tp::testing {

/// A global shape and the chunks to transpose it in.
struct MultiGpuCase {
  int rows, cols, chunks;
  std::string name() const {
    return std::to_string(rows) + " x " + std::to_string(cols) + " in " + std::to_string(chunks) + " chunks";
  }
};

/// Rank `rank` of `comm`: its block of the case's input in, `transpose(out, in, rows, cols,
/// comm, stream, chunks)` run, its block of the transpose compared with the CPU.
template <typename T, typename Transpose>
void check_rank(int rank, ncclComm_t comm, const MultiGpuCase& c, Transpose transpose) {
  int ranks = 0;
  TP_NCCL_CHECK(ncclCommCount(comm, &ranks));
  const step09::Layout l{c.rows, c.cols, ranks, rank, c.chunks};
  const std::uint64_t seed = 11;
  DeviceBuffer in(std::size_t(l.in_rows() * l.cols) * sizeof(T)), out(std::size_t(l.out_rows() * l.rows) * sizeof(T));
  const std::vector<T> input = step09::input_block<T>(l, seed);
  if (in.bytes() > 0) in.upload(input.data(), in.bytes());
  cudaStream_t stream;
  TP_CUDA_CHECK(cudaStreamCreate(&stream));
  out.poison(stream);
  transpose(out.as<T>(), in.as<T>(), c.rows, c.cols, comm, stream, c.chunks);
  TP_CUDA_CHECK(cudaStreamSynchronize(stream));
  TP_CUDA_CHECK(cudaStreamDestroy(stream));
  std::vector<T> got(std::size_t(l.out_rows() * l.rows));
  if (out.bytes() > 0) out.download(got.data(), out.bytes());
  const std::vector<T> expected = step09::expected_block<T>(l, seed);
  const CompareResult result = compare_bits(expected.data(), got.data(), l.out_rows(), l.rows);
  EXPECT_TRUE(result.ok()) << dtype_name(dtype_of<T>()) << " " << c.name() << ", rank " << rank << " of " << ranks
                           << ": " << result.describe();
}

}  // namespace tp::testing
