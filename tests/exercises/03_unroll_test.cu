// Exercise 03: your unrolled transpose from steps/03_unroll/exercise.cuh, against the CPU
// reference. Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 03
#include <gtest/gtest.h>

#include "../gpu_guard.hpp"
#include "03_unroll/exercise.cuh"
#include "registry.cuh"

namespace {

class Exercise03Unroll : public ::testing::TestWithParam<std::tuple<tp::DType, tp::Shape>> {
 protected:
  void SetUp() override { TP_GPU_TEST_GUARD(); }
};

TEST_P(Exercise03Unroll, TransposesEveryElement) {
  const auto [dtype, shape] = GetParam();
  const tp::Kernel k = tp::make_kernel("03_unroll", "exercise_unroll", tp::Op::transpose,
                                       TP_LAUNCHER(tp::step03::exercise::transpose));
  tp::Case c(dtype, shape, 3);
  const tp::CompareResult r = c.verify(k, 0);
  EXPECT_TRUE(r.ok()) << tp::describe_case(dtype, shape) << ": " << r.describe();
}

// A block covers 32 output columns x 32 output rows (8 warps x 4 rows each). 1 x 7, 31 x 33
// and 1023 x 1025 leave partial blocks in both directions, so some of a thread's four rows
// fall outside the matrix; 100 x 1000 and 1000 x 100 are rectangles both ways.
INSTANTIATE_TEST_SUITE_P(Shapes, Exercise03Unroll,
                         ::testing::Combine(::testing::ValuesIn(tp::kAllDTypes),
                                            ::testing::Values(tp::Shape{1, 1}, tp::Shape{1, 7},
                                                              tp::Shape{7, 1}, tp::Shape{31, 33},
                                                              tp::Shape{64, 64}, tp::Shape{100, 1000},
                                                              tp::Shape{1000, 100},
                                                              tp::Shape{1023, 1025})),
                         [](const auto& info) {
                           return tp::dtype_name(std::get<0>(info.param)) + "_" +
                                  tp::shape_name(std::get<1>(info.param));
                         });

}  // namespace
