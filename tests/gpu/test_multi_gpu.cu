// Step 09 on 2 and 4 GPUs (skipped with fewer): every dtype, shapes that split unevenly, with
// more GPUs than rows, one row, one column, several chunk counts; a plan run twice; bad input on one rank
// throws the same error on every rank and writes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "09_multi_gpu/kernel.cuh"
#include "09_multi_gpu/ranks.hpp"
#include "multi_gpu_check.hpp"

namespace {

using tp::testing::MultiGpuCase;

const std::vector<MultiGpuCase> kCases = {
    {1, 1, 1},       {1, 300, 4},  {300, 1, 4},    {3, 5, 4},     {129, 67, 3},   {1000, 1001, 4},
    {2048, 4096, 4}, {4096, 2048, 1}, {4097, 40, 7}, {0, 5, 4},   {640, 768, 16}};

void every_dtype_and_case(int gpus) {
  const auto transpose = [](auto* out, const auto* in, int rows, int cols, ncclComm_t comm, cudaStream_t stream,
                            int chunks) { tp::step09::transpose(out, in, rows, cols, comm, stream, chunks); };
  tp::step09::run_threads(gpus, [&](int rank, ncclComm_t comm) {
    for (tp::DType t : tp::kAllDTypes) {
      for (const MultiGpuCase& c : kCases) {
        tp::dispatch(t, [&](auto tag) { tp::testing::check_rank<decltype(tag)>(rank, comm, c, transpose); });
      }
    }
    return 0;
  });
}

TEST(MultiGpu, TwoGpusEveryDtypeAndShape) {
  TP_NEED_GPUS(2);
  every_dtype_and_case(2);
}

TEST(MultiGpu, FourGpusEveryDtypeAndShape) {
  TP_NEED_GPUS(4);
  every_dtype_and_case(4);
}

// A plan runs again: its output wiped between two runs, the second run alone must fill it.
TEST(MultiGpu, PlanRunTwiceGivesTheTransposeEachTime) {
  TP_NEED_GPUS(2);
  const auto plan_twice = [](auto* out, const auto* in, int rows, int cols, ncclComm_t comm, cudaStream_t stream,
                             int chunks) {
    using T = std::remove_pointer_t<decltype(out)>;
    tp::step09::Plan<T> plan(out, in, rows, cols, comm, stream, chunks);
    plan.run(stream);
    int ranks = 0, rank = 0;
    TP_NCCL_CHECK(ncclCommCount(comm, &ranks));
    TP_NCCL_CHECK(ncclCommUserRank(comm, &rank));
    const tp::step09::Layout l{rows, cols, ranks, rank, chunks};
    TP_CUDA_CHECK(cudaMemsetAsync(out, tp::kPoisonByte, std::size_t(l.out_rows() * l.rows) * sizeof(T), stream));
    plan.run(stream);
  };
  tp::step09::run_threads(2, [&](int rank, ncclComm_t comm) {
    for (tp::DType t : tp::kAllDTypes) {
      for (const MultiGpuCase& c :
           {MultiGpuCase{129, 67, 3}, MultiGpuCase{1000, 1001, 4}, MultiGpuCase{4096, 2048, 1}}) {
        tp::dispatch(t, [&](auto tag) { tp::testing::check_rank<decltype(tag)>(rank, comm, c, plan_twice); });
      }
    }
    return 0;
  });
}

// Rank 1 alone is given something wrong; every rank must throw std::invalid_argument naming
// rank 1, and no rank's output may be touched.
TEST(MultiGpu, BadInputOnOneRankThrowsOnEveryRankAndWritesNothing) {
  TP_NEED_GPUS(2);
  struct Bad { std::string what; int rows; bool null_in, null_out; int chunks; };
  for (const Bad& bad : {Bad{"another shape", 513, false, false, 4}, Bad{"a null input", 512, true, false, 4},
                         Bad{"a null output", 512, false, true, 4}, Bad{"no chunks", 512, false, false, 0}}) {
    tp::step09::run_threads(2, [&](int rank, ncclComm_t comm) {
      const bool me = rank == 1;
      const tp::step09::Layout l{512, 256, 2, rank, 4};
      tp::DeviceBuffer in(std::size_t(l.in_rows() * l.cols) * sizeof(float));
      tp::DeviceBuffer out(std::size_t(l.out_rows() * l.rows) * sizeof(float));
      out.poison();
      TP_CUDA_CHECK(cudaDeviceSynchronize());
      try {
        tp::step09::transpose(me && bad.null_out ? nullptr : out.as<float>(), me && bad.null_in ? nullptr : in.as<float>(),
                              me ? bad.rows : 512, 256, comm, 0, me ? bad.chunks : 4);
        ADD_FAILURE() << bad.what << " on rank 1: rank " << rank << " did not throw";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("rank 1 of 2"), std::string::npos) << bad.what << ": " << e.what();
      }
      const std::vector<unsigned char> bytes = tp::download<unsigned char>(out, out.bytes());
      const auto written = std::count_if(bytes.begin(), bytes.end(), [](unsigned char b) { return b != tp::kPoisonByte; });
      EXPECT_EQ(written, 0) << bad.what << ": bytes of rank " << rank << "'s output were written";
      return 0;
    });
  }
}

}  // namespace
