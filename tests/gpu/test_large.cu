// More than 2^31 elements: every registered kernel must use 64-bit offsets; and step 08 on the
// large rectangles its chapter measures. Label: large.
#include <gtest/gtest.h>

#include <vector>

#include "../gpu_guard.hpp"
#include "registry.hpp"
#include "tp/error.hpp"

namespace {

// 46344^2 = 2,147,766,336 elements: just past 2^31 = 2,147,483,648, and a multiple of 8, so
// that the 16-byte paths run (with part tiles at the edges). Half precision keeps each
// buffer at 4.3 GB. (The element paths index the same way; one size keeps the test near a
// minute, most of it the CPU reference.)
class LargeMatrix : public ::testing::TestWithParam<int> {};

TEST_P(LargeMatrix, EveryKernelMatchesTheReference) {
  TP_GPU_TEST_GUARD();
  const tp::Shape shape{GetParam(), GetParam()};
  const tp::DType dtype = tp::DType::f16;
  std::size_t free_bytes = 0, total = 0;
  TP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < tp::case_device_bytes(dtype, shape) + (1u << 30)) {
    GTEST_SKIP() << "needs " << tp::case_device_bytes(dtype, shape) / 1e9 << " GB of GPU memory";
  }
  tp::Case c(dtype, shape, 77);  // the input and its reference, made once for all kernels
  for (const tp::Kernel& k : tp::registry::all()) {
    const tp::CompareResult r = c.verify(k, 0);
    EXPECT_TRUE(r.ok()) << k.step << " " << k.name << " on " << tp::describe_case(dtype, shape) << ": " << r.describe();
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, LargeMatrix, ::testing::Values(46344));

// Step 08 on rectangles: the two shapes its chapter measures, in every dtype, and one of more
// than 2^31 elements of a 2-byte type (40000 x 53688 = 2,147,520,000; gcd 8, so all three
// passes run). Each is transposed, then transposed back with the shape swapped.
struct RectCase {
  tp::DType dtype;
  tp::Shape shape;
};

class LargeRectangle : public ::testing::TestWithParam<RectCase> {};

TEST_P(LargeRectangle, StepEightIsTheExactTransposeBothWays) {
  TP_GPU_TEST_GUARD();
  const auto [dtype, shape] = GetParam();
  std::size_t free_bytes = 0, total = 0;
  TP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < tp::case_device_bytes(dtype, shape) + (1u << 30)) {
    GTEST_SKIP() << "needs " << tp::case_device_bytes(dtype, shape) / 1e9 << " GB of GPU memory";
  }
  const tp::Kernel k = tp::registry::headline(tp::registry::step08());
  ASSERT_TRUE(tp::runs_on(k, shape));
  tp::Case c(dtype, shape, 78);
  const tp::CompareResult once = c.verify(k, 0);
  ASSERT_TRUE(once.ok()) << k.name << " on " << tp::describe_case(dtype, shape) << ": " << once.describe();
  c.launch(k, 0);  // cols x rows, back to rows x cols
  const tp::CompareResult twice = c.verify_inplace_state(0);
  EXPECT_TRUE(twice.ok()) << k.name << " on " << tp::describe_case(dtype, shape) << ", back: " << twice.describe();
}

std::vector<RectCase> rect_cases() {
  std::vector<RectCase> cases;
  for (tp::DType dtype : tp::kAllDTypes) {
    for (tp::Shape shape : {tp::Shape{8192, 16384}, tp::Shape{10000, 7000}}) cases.push_back({dtype, shape});
  }
  cases.push_back({tp::DType::f16, {40000, 53688}});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Step08, LargeRectangle, ::testing::ValuesIn(rect_cases()),
                         [](const ::testing::TestParamInfo<RectCase>& info) {
                           return tp::dtype_name(info.param.dtype) + "_" + tp::shape_name(info.param.shape);
                         });

}  // namespace
