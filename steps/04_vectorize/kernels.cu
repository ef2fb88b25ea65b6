// Step 04's kernel, compiled once for the registry (steps/registry.hpp).
#include "04_vectorize/kernel.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace tp::registry {

std::vector<Kernel> step04() {
  return {in_tour(make_kernel("04_vectorize", "vec16_store", Op::transpose, TP_LAUNCHER(step04::transpose)))};
}

}  // namespace tp::registry
