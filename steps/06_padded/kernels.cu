// Step 06's kernels, compiled once for the registry (steps/registry.hpp): the padded tile
// (headline), the swizzled one, and the tile shapes of the chapter's study.
#include "06_padded/kernel.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace tp::registry {

std::vector<Kernel> step06() {
  using step06::Layout;
  auto shape = [](const char* name, auto launch) { return make_kernel("06_padded", name, Op::transpose, launch); };
  return {in_tour(shape("padded_32x8", TP_LAUNCHER(step06::transpose))),
          shape("swizzled_32x8", TP_LAUNCHER(step06::transpose_swizzled)),
          shape("padded_16x16", TP_LAUNCHER((step06::transpose_with<16, 16, Layout::padded>))),
          shape("padded_32x16", TP_LAUNCHER((step06::transpose_with<32, 16, Layout::padded>))),
          shape("padded_32x32", TP_LAUNCHER((step06::transpose_with<32, 32, Layout::padded>)))};
}

}  // namespace tp::registry
