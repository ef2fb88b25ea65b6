// Exercise 02: your transpose from steps/02_naive_col/exercise.cuh, against the CPU reference.
// Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 02
#include <gtest/gtest.h>

#include "../gpu_guard.hpp"
#include "02_naive_col/exercise.cuh"
#include "registry.cuh"

namespace {

class Exercise02NaiveCol : public ::testing::TestWithParam<std::tuple<tp::DType, tp::Shape>> {
 protected:
  void SetUp() override { TP_GPU_TEST_GUARD(); }
};

TEST_P(Exercise02NaiveCol, TransposesEveryElement) {
  const auto [dtype, shape] = GetParam();
  const tp::Kernel k = tp::make_kernel("02_naive_col", "exercise_naive_col", tp::Op::transpose,
                                       TP_LAUNCHER(tp::step02::exercise::transpose));
  tp::Case c(dtype, shape, 2);
  const tp::CompareResult r = c.verify(k, 0);
  EXPECT_TRUE(r.ok()) << tp::describe_case(dtype, shape) << ": " << r.describe();
}

// 31 x 33 and 33 x 31 fill neither a 32-wide nor an 8-tall block; 100 x 1000 and 1000 x 100
// are rectangles, where mixing up `rows` and `cols` in an offset shows; 3 x 70000 and
// 70000 x 3 are far from square.
INSTANTIATE_TEST_SUITE_P(Shapes, Exercise02NaiveCol,
                         ::testing::Combine(::testing::ValuesIn(tp::kAllDTypes),
                                            ::testing::Values(tp::Shape{1, 1}, tp::Shape{1, 7},
                                                              tp::Shape{7, 1}, tp::Shape{31, 33},
                                                              tp::Shape{33, 31}, tp::Shape{100, 1000},
                                                              tp::Shape{1000, 100}, tp::Shape{3, 70000},
                                                              tp::Shape{70000, 3}, tp::Shape{1024, 1024})),
                         [](const auto& info) {
                           return tp::dtype_name(std::get<0>(info.param)) + "_" +
                                  tp::shape_name(std::get<1>(info.param));
                         });

}  // namespace
