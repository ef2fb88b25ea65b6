// lab_inplace: step 07 (out of place) and step 08's headline beside the lab's in-place
// variants: one region of pairs, the square grid, the diagonal numbering.
//
//   build/bin/lab_inplace --dtype all --sizes 8192,16384 --csv lab_inplace.csv
#include <utility>
#include <vector>

#include "lab_kernels.hpp"
#include "registry.hpp"

int main(int argc, char** argv) {
  tp::CliSpec spec;
  spec.description = "Lab: step 08's headline beside its variants (cold L2, median of --reps runs)";
  spec.default_sizes = {8192, 16384};
  return tp::bench_main(argc, argv, spec, [](const tp::Options&) {
    std::vector<tp::Kernel> list{tp::registry::headline(tp::registry::step07()),
                                 tp::registry::headline(tp::registry::step08())};
    for (tp::Kernel& k : tp::lab::inplace_kernels()) list.push_back(std::move(k));
    return list;
  });
}
