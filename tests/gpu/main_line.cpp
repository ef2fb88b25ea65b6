// tp_gpu_tests verifies the main line: every kernel of the registry.
#include "registry.hpp"
#include "tested_kernels.hpp"

std::vector<tp::Kernel> tp::testing::tested_kernels() { return tp::registry::all(); }
