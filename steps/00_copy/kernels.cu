// Step 00's kernels, compiled once for the registry (steps/registry.hpp).
#include "00_copy/kernel.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace tp::registry {

std::vector<Kernel> step00() {
  return {make_kernel("00_copy", "copy_naive", Op::copy, TP_LAUNCHER(step00::copy_naive)),
          make_kernel("00_copy", "copy_2d", Op::copy, TP_LAUNCHER(step00::copy_2d)),
          in_tour(make_kernel("00_copy", "copy_vec16", Op::copy, TP_LAUNCHER(step00::copy_vec16))),
          make_kernel("00_copy", "copy_vec16_gridstride", Op::copy, TP_LAUNCHER(step00::copy_vec16_gridstride))};
}

}  // namespace tp::registry
