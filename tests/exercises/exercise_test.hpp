// The one test every exercise gets: the learner's kernel, for every element type and a list of
// shapes, verified bit for bit against the CPU reference by the harness (tp::Case::verify).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "../gpu_guard.hpp"
#include "launchers.hpp"

namespace tp::exercise_test {

using Param = std::tuple<DType, Shape>;

class Fixture : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override { TP_GPU_TEST_GUARD(); }
  void verify(const Kernel& k) const {
    const auto [dtype, shape] = GetParam();
    Case c(dtype, shape, /*seed=*/5);
    const CompareResult r = c.verify(k, 0);
    EXPECT_TRUE(r.ok()) << k.name << " on " << describe_case(dtype, shape) << ": " << r.describe();
  }
};

inline auto params(const std::vector<Shape>& shapes) {
  return ::testing::Combine(::testing::ValuesIn(kAllDTypes), ::testing::ValuesIn(shapes));
}

inline std::string name(const ::testing::TestParamInfo<Param>& info) {
  return dtype_name(std::get<0>(info.param)) + "_" + shape_name(std::get<1>(info.param));
}

}  // namespace tp::exercise_test

/// Defines the test Suite.MatchesTheCpuReference/Shapes/<dtype>_<RxC>: `kernel` (a tp::Kernel)
/// for every element type and every shape of `shapes` (a braced list of tp::Shape).
#define TP_EXERCISE_TEST(Suite, kernel, ...)                                    \
  class Suite : public ::tp::exercise_test::Fixture {};                         \
  TEST_P(Suite, MatchesTheCpuReference) { verify(kernel); }                     \
  INSTANTIATE_TEST_SUITE_P(Shapes, Suite,                                        \
                           ::tp::exercise_test::params(std::vector<tp::Shape> __VA_ARGS__), \
                           ::tp::exercise_test::name)
