// Step 03's kernels, compiled once for the registry (steps/registry.hpp).
#include "03_unroll/kernel.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace tp::registry {

std::vector<Kernel> step03() {
  return {make_kernel("03_unroll", "unroll2", Op::transpose, TP_LAUNCHER(step03::transpose_unroll<2>)),
          in_tour(make_kernel("03_unroll", "unroll4", Op::transpose, TP_LAUNCHER(step03::transpose_unroll<4>))),
          make_kernel("03_unroll", "unroll8", Op::transpose, TP_LAUNCHER(step03::transpose_unroll<8>))};
}

}  // namespace tp::registry
