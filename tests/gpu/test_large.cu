// More than 2^31 elements: every registered kernel must use 64-bit offsets. Label: large.
#include <gtest/gtest.h>

#include "../gpu_guard.hpp"
#include "registry.hpp"
#include "tp/error.hpp"

namespace {

// 46341^2 = 2,147,488,281 elements: just past 2^31 = 2,147,483,648. Half precision keeps
// each buffer at 4.3 GB.
constexpr tp::Shape kShape{46341, 46341};
constexpr tp::DType kDType = tp::DType::f16;

class LargeMatrix : public ::testing::TestWithParam<std::size_t> {
 protected:
  void SetUp() override {
    TP_GPU_TEST_GUARD();
    std::size_t free_bytes = 0, total = 0;
    TP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (free_bytes < tp::case_device_bytes(kDType, kShape) + (1u << 30)) {
      GTEST_SKIP() << "needs " << tp::case_device_bytes(kDType, kShape) / 1e9 << " GB of GPU memory";
    }
  }
};

TEST_P(LargeMatrix, MoreThan2To31ElementsMatchTheReference) {
  static const std::vector<tp::Kernel> kernels = tp::registry::all();
  const tp::Kernel& k = kernels[GetParam()];
  tp::Case c(kDType, kShape, 77);
  const tp::CompareResult r = c.verify(k, 0);
  EXPECT_TRUE(r.ok()) << k.name << ": " << r.describe();
}

INSTANTIATE_TEST_SUITE_P(Registry, LargeMatrix, ::testing::Range<std::size_t>(0, tp::registry::all().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& info) {
                           const tp::Kernel k = tp::registry::all()[info.param];
                           return k.step + "_" + k.name;
                         });

}  // namespace
