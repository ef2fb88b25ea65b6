// Step 08's kernel, compiled once for the registry (steps/registry.hpp).
#include "08_inplace/kernel.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace tp::registry {

std::vector<Kernel> step08() {
  return {in_tour(make_kernel("08_inplace", "inplace", Op::transpose_inplace, TP_INPLACE_LAUNCHER(step08::transpose_inplace)))};
}

}  // namespace tp::registry
