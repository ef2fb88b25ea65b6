/// @file steps/extra_kernels.hpp
/// @brief A hook for kernels from outside the main line. The main line neither includes nor
/// links the lab; with -DTP_LAB=ON, the lab's CMakeLists.txt defines tp::extra::kernels() in a source
/// of its own, links it into a program (the tour, lab_profile_once) and sets TP_EXTRA_KERNELS
/// there, so that the program shows those kernels after the main line's.
#pragma once

#include <vector>

#include "tp/harness.hpp"

namespace tp::extra {

/// The kernels to show after the main line's (defined only where TP_EXTRA_KERNELS is set).
std::vector<Kernel> kernels();

}  // namespace tp::extra
