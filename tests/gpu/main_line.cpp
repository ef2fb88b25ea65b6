// tp_gpu_tests verifies the main line: every kernel of the registry, and the lab's record
// kernel that the tour shows after it.
#include "record.hpp"
#include "registry.hpp"
#include "tested_kernels.hpp"

std::vector<tp::Kernel> tp::testing::tested_kernels() {
  std::vector<tp::Kernel> kernels = tp::registry::all();
  kernels.push_back(tp::lab::record_kernel());
  return kernels;
}
