// Step 07's kernels, compiled once for the registry (steps/registry.hpp): its three parts, from
// step 06's kernel to the headline `coarsen`.
#include "07_coarsen/kernel.cuh"
#include "07_coarsen/wide.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace tp::registry {

std::vector<Kernel> step07() {
  auto row = [](const char* name, auto launch) { return make_kernel("07_coarsen", name, Op::transpose, launch); };
  return {row("wide_tiles", TP_LAUNCHER(step07::transpose_wide<false>)),  // (a) 16-byte accesses, wide tiles
          row("cp_async", TP_LAUNCHER(step07::transpose_wide<true>)),     // (b) + cp.async loads
          in_tour(row("coarsen", TP_LAUNCHER(step07::transpose)))};       // (c) + the tile order
}

}  // namespace tp::registry
