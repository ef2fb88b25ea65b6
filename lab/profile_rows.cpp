// lab_profile_once's extra kernels (steps/extra_kernels.hpp): every kernel of the lab.
#include "extra_kernels.hpp"
#include "lab_kernels.hpp"

std::vector<tp::Kernel> tp::extra::kernels() { return tp::lab::all(); }
