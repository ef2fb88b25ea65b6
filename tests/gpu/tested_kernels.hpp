// The kernels a gpu test binary verifies: the registry's (tp_gpu_tests, main_line.cpp) or
// the lab's (tp_lab_tests, lab/lab_line.cpp). test_steps.cu is the same suite for both.
#pragma once

#include <vector>

#include "tp/harness.hpp"

namespace tp::testing {
std::vector<Kernel> tested_kernels();
}
