// lab_coarsen: the main line's headline (step 07) beside the lab's out-of-place variants
// (lab/lab_kernels.cu): the record kernel and its paths for odd shapes and offset pointers,
// the lean tile, the evict-first hints, the store layouts, the tile orders, the regions and
// the occupancy rows. The tables of lab/README.md come from this program's CSVs.
//
//   build/bin/lab_coarsen --dtype all --sizes 8192,16384 --csv lab.csv
//   build/bin/lab_coarsen --kernels record,elements64 --sizes 4896,4899   (a subset, by name)
#include <utility>
#include <vector>

#include "lab_kernels.hpp"
#include "registry.hpp"

int main(int argc, char** argv) {
  tp::CliSpec spec;
  spec.description = "Lab: step 07's headline beside the research variants (cold L2, median of --reps runs)";
  spec.default_sizes = {2048, 8192, 16384};
  spec.kernels_flag = true;
  return tp::bench_main(argc, argv, spec, [](const tp::Options& options) {
    std::vector<tp::Kernel> list{tp::registry::headline(tp::registry::step07())};
    for (tp::Kernel& k : tp::lab::coarsen_kernels()) list.push_back(std::move(k));
    return tp::registry::only_named(std::move(list), options.kernels);  // --kernels: only these
  });
}
