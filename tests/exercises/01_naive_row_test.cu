// Exercise 01: your naive transpose from steps/01_naive_row/exercise.cuh, against the CPU
// reference. Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 01
#include <gtest/gtest.h>

#include "../gpu_guard.hpp"
#include "01_naive_row/exercise.cuh"
#include "registry.cuh"

namespace {

class Exercise01NaiveRow : public ::testing::TestWithParam<std::tuple<tp::DType, tp::Shape>> {
 protected:
  void SetUp() override { TP_GPU_TEST_GUARD(); }
};

TEST_P(Exercise01NaiveRow, TransposesEveryElement) {
  const auto [dtype, shape] = GetParam();
  const tp::Kernel k = tp::make_kernel("01_naive_row", "exercise_naive_row", tp::Op::transpose,
                                       TP_LAUNCHER(tp::step01::exercise::transpose));
  tp::Case c(dtype, shape, 5);
  const tp::CompareResult r = c.verify(k, 0);
  EXPECT_TRUE(r.ok()) << tp::describe_case(dtype, shape) << ": " << r.describe();
}

// 31 x 33 and 33 x 31 do not fill the 32 x 8 blocks; 1 x 7, 7 x 1, 100 x 1000 and
// 1000 x 100 are rectangles, where mixing up rows and cols shows; 600000 x 3 has more rows
// than one grid covers (65535 x 8), so the loop over r runs twice.
INSTANTIATE_TEST_SUITE_P(Shapes, Exercise01NaiveRow,
                         ::testing::Combine(::testing::ValuesIn(tp::kAllDTypes),
                                            ::testing::Values(tp::Shape{1, 1}, tp::Shape{1, 7},
                                                              tp::Shape{7, 1}, tp::Shape{31, 33},
                                                              tp::Shape{33, 31}, tp::Shape{64, 64},
                                                              tp::Shape{100, 1000}, tp::Shape{1000, 100},
                                                              tp::Shape{600000, 3}, tp::Shape{4096, 4096})),
                         [](const auto& info) {
                           return tp::dtype_name(std::get<0>(info.param)) + "_" +
                                  tp::shape_name(std::get<1>(info.param));
                         });

}  // namespace
