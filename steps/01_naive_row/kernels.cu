// Step 01's kernel, compiled once for the registry (steps/registry.hpp).
#include "01_naive_row/kernel.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace tp::registry {

std::vector<Kernel> step01() {
  return {in_tour(make_kernel("01_naive_row", "naive_row", Op::transpose, TP_LAUNCHER(step01::transpose)))};
}

}  // namespace tp::registry
