// tp_lab_tests verifies the lab: every kernel of tp::lab::all().
#include "lab_kernels.hpp"
#include "tested_kernels.hpp"

std::vector<tp::Kernel> tp::testing::tested_kernels() { return tp::lab::all(); }
