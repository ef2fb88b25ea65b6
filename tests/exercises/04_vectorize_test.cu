// Exercise 04: your transpose from steps/04_vectorize/exercise.cuh, against the CPU reference.
// Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 04
#include <gtest/gtest.h>

#include "../gpu_guard.hpp"
#include "04_vectorize/exercise.cuh"
#include "registry.cuh"

namespace {

class Exercise04Vectorize : public ::testing::TestWithParam<std::tuple<tp::DType, tp::Shape>> {
 protected:
  void SetUp() override { TP_GPU_TEST_GUARD(); }
};

TEST_P(Exercise04Vectorize, TransposesEveryElement) {
  const auto [dtype, shape] = GetParam();
  const tp::Kernel k = tp::make_kernel("04_vectorize", "exercise_vec16_store", tp::Op::transpose,
                                       TP_LAUNCHER(tp::step04::exercise::transpose));
  tp::Case c(dtype, shape, 4);
  const tp::CompareResult r = c.verify(k, 0);
  EXPECT_TRUE(r.ok()) << tp::describe_case(dtype, shape) << ": " << r.describe();
}

// The 16-byte path runs when an output row (rows elements) is a multiple of 16 bytes: for
// every type at 64 x 64, 72 x 1001, 1000 x 100 and 4096 x 4096. 72 x 1001 fills neither a
// block's 32 chunks nor its 8 output rows, and like 1000 x 100 it is a rectangle, where
// mixing up `rows` and `cols` shows. 1 x 1, 31 x 33 and 100 x 1000 (for 2-byte types) take
// the scalar path with its partial last chunk.
INSTANTIATE_TEST_SUITE_P(Shapes, Exercise04Vectorize,
                         ::testing::Combine(::testing::ValuesIn(tp::kAllDTypes),
                                            ::testing::Values(tp::Shape{1, 1}, tp::Shape{31, 33},
                                                              tp::Shape{64, 64}, tp::Shape{72, 1001},
                                                              tp::Shape{100, 1000}, tp::Shape{1000, 100},
                                                              tp::Shape{4096, 4096})),
                         [](const auto& info) {
                           return tp::dtype_name(std::get<0>(info.param)) + "_" +
                                  tp::shape_name(std::get<1>(info.param));
                         });

}  // namespace
