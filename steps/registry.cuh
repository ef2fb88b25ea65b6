/// @file steps/registry.cuh
/// @brief The one list of all steps' kernels. The gpu test suite verifies every kernel
/// listed here, and the tour times the kernel of each step marked `in_tour`. A new step joins
/// both by adding its function here and to all().
#pragma once

#include <vector>

#include "00_copy/kernel.cuh"
#include "tp/harness.hpp"

/// A generic launcher for make_kernel(): forwards (out, in, rows, cols, stream) to `fn`.
#define TP_LAUNCHER(fn) \
  [](auto* out, const auto* in, int rows, int cols, cudaStream_t stream) { fn(out, in, rows, cols, stream); }

namespace tp::registry {

/// Marks the kernel that represents its step in the tour.
inline Kernel in_tour(Kernel k) {
  k.in_tour = true;
  return k;
}

inline std::vector<Kernel> step00() {
  return {make_kernel("00_copy", "copy_naive", Op::copy, TP_LAUNCHER(step00::copy_naive)),
          make_kernel("00_copy", "copy_2d", Op::copy, TP_LAUNCHER(step00::copy_2d)),
          in_tour(make_kernel("00_copy", "copy_vec16", Op::copy, TP_LAUNCHER(step00::copy_vec16))),
          make_kernel("00_copy", "copy_vec16_gridstride", Op::copy,
                      TP_LAUNCHER(step00::copy_vec16_gridstride))};
}

/// Every registered kernel, in step order.
inline std::vector<Kernel> all() { return step00(); }

}  // namespace tp::registry
