// Step 02's kernel, compiled once for the registry (steps/registry.hpp).
#include "02_naive_col/kernel.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace tp::registry {

std::vector<Kernel> step02() {
  return {in_tour(make_kernel("02_naive_col", "naive_col", Op::transpose, TP_LAUNCHER(step02::transpose)))};
}

}  // namespace tp::registry
