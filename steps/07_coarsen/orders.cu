// 07_coarsen_orders: the headline's 256-byte tiles in the column order beside the same tiles
// in bands of tile columns (kColumnBands), where neighbouring blocks read neighbouring
// 256-byte pieces of the same input rows at once. The chapter's table of tile orders comes
// from this program's CSV; run it also at the part-tile sizes (11584 for 2-byte types), whose
// rows start 128 bytes off a 256-byte boundary.
//
//   build/bin/07_coarsen_orders --dtype all --sizes 8192,16384,11520,11584 --csv orders.csv
#include <vector>

#include "07_coarsen/kernel.cuh"
#include "registry.cuh"

int main(int argc, char** argv) {
  using namespace tp::step07;
  tp::CliSpec spec;
  spec.description = "Step 07 tile orders: the column order against bands of tile columns (cold L2)";
  spec.default_sizes = {8192, 16384};
  spec.default_dtypes = {tp::DType::f32, tp::DType::f16};
  return tp::bench_main(argc, argv, spec, [](const tp::Options&) {
    return std::vector<tp::Kernel>{
        tp::make_kernel("07_coarsen", "coarsen_tile256", tp::Op::transpose, TP_LAUNCHER((transpose_tiles<256, 256>))),
        tp::make_kernel("07_coarsen", "coarsen_bands", tp::Op::transpose,
                        TP_LAUNCHER((transpose_tiles<256, 256, (kHeadline & ~kOrders) | kColumnBands>)))};
  });
}
