// More than 2^31 elements: every registered kernel must use 64-bit offsets. Label: large.
#include <gtest/gtest.h>

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

}  // namespace
