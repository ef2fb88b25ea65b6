// The kernels a gpu test binary verifies. Each binary built from test_steps.cu defines this
// list once: tp_gpu_tests, in main_line.cpp, as the registry's kernels.
#pragma once

#include <vector>

#include "tp/harness.hpp"

namespace tp::testing {
std::vector<Kernel> tested_kernels();
}
