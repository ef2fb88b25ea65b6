// Exercise 09: your offsets in steps/09_multi_gpu/exercise.cuh, on 2 GPUs (skipped with
// fewer). Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 09
#include <gtest/gtest.h>

#include "09_multi_gpu/exercise.cuh"
#include "09_multi_gpu/ranks.hpp"
#include "../gpu/multi_gpu_check.hpp"

namespace {

// Uneven blocks (1001 rows over 2 GPUs), more chunks than one GPU's rows, and a 16-byte shape.
TEST(Exercise09MultiGpu, MatchesTheCpuOnTwoGpus) {
  TP_NEED_GPUS(2);
  const auto transpose = [](auto* out, const auto* in, int rows, int cols, ncclComm_t comm, cudaStream_t stream,
                            int chunks) { tp::step09::exercise::transpose(out, in, rows, cols, comm, stream, chunks); };
  tp::step09::run_threads(2, [&](int rank, ncclComm_t comm) {
    for (tp::DType t : {tp::DType::f32, tp::DType::f16}) {
      for (const tp::testing::MultiGpuCase& c : {tp::testing::MultiGpuCase{1001, 77, 4}, {3, 9, 4}, {512, 1024, 2}}) {
        tp::dispatch(t, [&](auto tag) { tp::testing::check_rank<decltype(tag)>(rank, comm, c, transpose); });
      }
    }
    return 0;
  });
}

}  // namespace
