// The registry's shape: needs no GPU, only the kernels' host-side launchers.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "registry.cuh"

namespace {

TEST(Registry, EveryStepHasExactlyOneTourKernel) {
  std::vector<std::string> steps, in_tour;
  for (const tp::Kernel& k : tp::registry::all()) {
    if (steps.empty() || steps.back() != k.step) steps.push_back(k.step);
    if (k.in_tour) in_tour.push_back(k.step);
    for (tp::DType t : tp::kAllDTypes) EXPECT_TRUE(k.supports(t)) << k.name << " " << tp::dtype_name(t);
  }
  EXPECT_EQ(steps, in_tour);
}

TEST(Registry, LaunchersRejectNegativeShapesBeforeTouchingTheGpu) {
  for (const tp::Kernel& k : tp::registry::all()) {
    for (tp::DType t : tp::kAllDTypes) {
      EXPECT_THROW(k.run(t, nullptr, nullptr, -3, 2, 0), std::invalid_argument) << k.name;
    }
  }
}

}  // namespace
