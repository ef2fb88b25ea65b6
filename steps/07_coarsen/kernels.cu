// Step 07's kernels, compiled once for the registry (steps/registry.hpp): the ablation, one
// idea per row, from step 06's kernel to the headline `coarsen`.
#include "07_coarsen/ablation.cuh"
#include "07_coarsen/kernel.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace tp::registry {

std::vector<Kernel> step07() {
  namespace ab = step07::ablation;
  auto row = [](const char* name, auto launch) { return make_kernel("07_coarsen", name, Op::transpose, launch); };
  return {row("tile256B_elem", TP_LAUNCHER(ab::transpose<ab::Coarsened>)),
          row("tile256B_vec16", TP_LAUNCHER(ab::transpose<ab::Vec16>)),
          row("evict_first_stores", TP_LAUNCHER(ab::transpose<ab::EvictFirstStores>)),
          row("cp_async", TP_LAUNCHER(ab::transpose<ab::CpAsync>)),
          row("column_pairs", TP_LAUNCHER(ab::transpose<ab::ColumnPairs>)),
          in_tour(row("coarsen", TP_LAUNCHER(step07::transpose)))};
}

}  // namespace tp::registry
