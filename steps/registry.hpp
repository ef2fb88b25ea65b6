/// @file steps/registry.hpp
/// @brief The one list of all steps' kernels. The gpu test suite verifies every kernel
/// listed here, and the tour times the kernel of each step marked `in_tour`. Each step's
/// kernels are compiled once, in its steps/NN_name/kernels.cu (the library tp_steps); this
/// header only declares them, so that the tour, the tests and the step mains compile fast.
/// A new step joins by defining its function in its kernels.cu and adding it to all().
#pragma once

#include <string>
#include <vector>

#include "tp/harness.hpp"

namespace tp::registry {

std::vector<Kernel> step00();  ///< copies: the ceiling
std::vector<Kernel> step01();  ///< naive, threads along input rows
std::vector<Kernel> step02();  ///< naive, threads along output rows
std::vector<Kernel> step03();  ///< unrolled
std::vector<Kernel> step04();  ///< 16-byte stores
std::vector<Kernel> step05();  ///< shared-memory tile
std::vector<Kernel> step06();  ///< padded and swizzled tiles, tile shapes
std::vector<Kernel> step07();  ///< the ablation up to the headline
std::vector<Kernel> step08();  ///< in place

/// Marks the kernel that represents its step in the tour.
Kernel in_tour(Kernel k);

/// The kernel that represents a step (the one marked in_tour).
Kernel headline(const std::vector<Kernel>& step);

/// What a step's benchmark shows: the previous step's headline kernel, then this step's kernels.
std::vector<Kernel> versus_previous(const std::vector<Kernel>& previous, std::vector<Kernel> current);

/// Every registered kernel, in step order.
std::vector<Kernel> all();

/// The kernels whose name is in `names` (--kernels), in the list's order; a name that matches
/// no kernel is a UsageError. An empty `names` keeps them all.
std::vector<Kernel> only_named(std::vector<Kernel> kernels, const std::vector<std::string>& names);

}  // namespace tp::registry
