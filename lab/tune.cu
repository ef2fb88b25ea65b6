// lab_tune: the launch and tile tuning behind step 07's choice. Every configuration
// is the lab's 16-byte kernel (lab/tile_kernel.cuh) with one tile (bytes of an input row x
// bytes of an output row) and one block size, in column and in row-major tile order; the
// table of lab/README.md's "Tuning" section comes from this program's CSV. (Its L2 hints on
// the loads and double buffering are no longer built: their code is at commit 351e545.)
//
//   build/bin/lab_tune --dtype all --sizes 8192 --csv tune.csv
#include <string>
#include <utility>
#include <vector>

#include "launchers.hpp"
#include "registry.hpp"
#include "tile_kernel.cuh"

namespace {

template <int kInBytes, int kOutBytes, int kThreads, unsigned kFeatures>
tp::Kernel config() {
  using namespace tp::lab::coarsen;
  std::string name = "tile" + std::to_string(kInBytes) + "x" + std::to_string(kOutBytes) + "B_t" + std::to_string(kThreads);
  if (kFeatures & kStreaming) name += "_cs";
  if (kFeatures & kCpAsync) name += "_async";
  if (!(kFeatures & kColumns)) name += "_rows";
  return tp::make_kernel("lab", name, tp::Op::transpose,
                         TP_LAUNCHER((transpose_with<kInBytes, kOutBytes, kThreads, kFeatures>)));
}

/// One tile and block size with the headline's features, and with the tiles in row-major
/// order instead of column-major.
template <int kInBytes, int kOutBytes, int kThreads>
void add_tile(std::vector<tp::Kernel>& list) {
  using namespace tp::lab::coarsen;
  list.push_back(config<kInBytes, kOutBytes, kThreads, kHeadline>());
  list.push_back(config<kInBytes, kOutBytes, kThreads, kHeadline & ~kColumns>());
}

}  // namespace

int main(int argc, char** argv) {
  tp::CliSpec spec;
  spec.description = "Lab: step 07 tuning: tile shape (bytes) and block size of the 16-byte kernel (cold L2)";
  spec.default_sizes = {4096, 8192, 16384};
  spec.default_dtypes = {tp::DType::f32, tp::DType::f16};
  spec.kernels_flag = true;
  return tp::bench_main(argc, argv, spec, [](const tp::Options& options) {
    std::vector<tp::Kernel> list;
    add_tile<128, 128, 128>(list);
    add_tile<256, 256, 256>(list);
    add_tile<256, 256, 128>(list);
    add_tile<256, 128, 256>(list);
    add_tile<512, 256, 256>(list);
    add_tile<256, 512, 256>(list);
    add_tile<512, 512, 256>(list);
    add_tile<512, 512, 512>(list);
    return tp::registry::only_named(std::move(list), options.kernels);  // --kernels: only these
  });
}
