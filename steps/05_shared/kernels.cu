// Step 05's kernel, compiled once for the registry (steps/registry.hpp).
#include "05_shared/kernel.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace tp::registry {

std::vector<Kernel> step05() {
  return {make_kernel("05_shared", "shared_copy_32x8", Op::copy, TP_LAUNCHER(step05::copy_shared)),  // the control
          in_tour(make_kernel("05_shared", "shared_32x8", Op::transpose, TP_LAUNCHER(step05::transpose)))};
}

}  // namespace tp::registry
