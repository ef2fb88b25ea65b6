// Step 08's kernel, compiled once for the registry (steps/registry.hpp).
#include "08_inplace/kernel.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace tp::registry {

std::vector<Kernel> step08() {
  // Any shape: squares take the tile pairs, rectangles the three passes of rect.cuh.
  return {in_tour(takes_rectangles(
      make_kernel("08_inplace", "inplace", Op::transpose_inplace, TP_INPLACE_ANY_LAUNCHER(step08::transpose_inplace))))};
}

}  // namespace tp::registry
