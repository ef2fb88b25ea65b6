// Step 08's kernels, compiled once for the registry (steps/registry.hpp).
#include "08_inplace/kernel.cuh"
#include "08_inplace/rect_reference.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace tp::registry {

std::vector<Kernel> step08() {
  // Any shape: squares take the tile pairs, rectangles two or three passes (rectangles.md).
  // rect_reference: the plain passes of rect_reference.cuh, tested and timed beside it.
  return {in_tour(takes_rectangles(
              make_kernel("08_inplace", "inplace", Op::transpose_inplace, TP_INPLACE_ANY_LAUNCHER(step08::transpose_inplace)))),
          takes_rectangles(make_kernel("08_inplace", "rect_reference", Op::transpose_inplace,
                                       TP_INPLACE_ANY_LAUNCHER(step08::reference::transpose_inplace)))};
}

}  // namespace tp::registry
