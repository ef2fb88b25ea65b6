// Exercise 00: your copy_vec16 from steps/00_copy/exercise.cuh, against the CPU reference.
// Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 00
#include <gtest/gtest.h>

#include "../gpu_guard.hpp"
#include "00_copy/exercise.cuh"
#include "registry.cuh"

namespace {

class Exercise00Copy : public ::testing::TestWithParam<std::tuple<tp::DType, tp::Shape>> {
 protected:
  void SetUp() override { TP_GPU_TEST_GUARD(); }
};

TEST_P(Exercise00Copy, CopiesEveryElement) {
  const auto [dtype, shape] = GetParam();
  const tp::Kernel k = tp::make_kernel("00_copy", "exercise_copy_vec16", tp::Op::copy,
                                       TP_LAUNCHER(tp::step00::exercise::copy_vec16));
  tp::Case c(dtype, shape, 5);
  const tp::CompareResult r = c.verify(k, 0);
  EXPECT_TRUE(r.ok()) << tp::describe_case(dtype, shape) << ": " << r.describe();
}

// 1 x 7 and 31 x 33 leave a tail that does not fill a 16-byte vector.
INSTANTIATE_TEST_SUITE_P(Shapes, Exercise00Copy,
                         ::testing::Combine(::testing::ValuesIn(tp::kAllDTypes),
                                            ::testing::Values(tp::Shape{1, 1}, tp::Shape{1, 7},
                                                              tp::Shape{31, 33}, tp::Shape{64, 64},
                                                              tp::Shape{1000, 100},
                                                              tp::Shape{4096, 4096})),
                         [](const auto& info) {
                           return tp::dtype_name(std::get<0>(info.param)) + "_" +
                                  tp::shape_name(std::get<1>(info.param));
                         });

}  // namespace
