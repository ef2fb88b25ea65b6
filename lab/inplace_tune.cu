// lab_inplace_tune: the tile, block size, store width, pair order and regions behind step 08's
// choice.
// Every configuration is the lab's in-place kernel; the deep dive's tuning table comes from this
// program's CSV.
//
//   build/bin/lab_inplace_tune --dtype all --sizes 8192,16384 --csv tune.csv
#include <string>
#include <vector>

#include "inplace_lab.cuh"
#include "launchers.hpp"

namespace {

using tp::lab::inplace::Grid;

/// One configuration. Two tiles of kBytes x kBytes / sizeof(T) bytes each must fit in a
/// block's shared memory: 512-byte tiles are for 4- and 8-byte types only.
template <int kBytes, int kThreads, Grid kGrid, int kStoreBytes, unsigned kRegions>
tp::Kernel config() {
  std::string name = "tile" + std::to_string(kBytes) + "B_t" + std::to_string(kThreads) + "_s" + std::to_string(kStoreBytes);
  name += kGrid == Grid::columns ? "_columns" : kGrid == Grid::diagonals ? "_diagonals" : "_square";
  name += "_x" + std::to_string(kRegions);  // interleaved regions of pairs
  tp::Kernel k = tp::make_kernel("lab", name, tp::Op::transpose_inplace,
                                 TP_INPLACE_LAUNCHER((tp::lab::inplace::transpose_inplace_with<kBytes, kThreads, kGrid, kStoreBytes, kRegions>)));
  if (kBytes > 256) {
    k.launch[tp::Kernel::index(tp::DType::f16)] = nullptr;
    k.launch[tp::Kernel::index(tp::DType::bf16)] = nullptr;
  }
  return k;
}

/// Both pair orders for one tile, block size and store width (at most one output row of
/// the tile: 128 bytes for 128-byte tiles), the columns in one and in two regions.
template <int kBytes, int kThreads, int kStoreBytes>
void add(std::vector<tp::Kernel>& list) {
  list.push_back(config<kBytes, kThreads, Grid::columns, kStoreBytes, 1>());
  list.push_back(config<kBytes, kThreads, Grid::columns, kStoreBytes, 2>());
  list.push_back(config<kBytes, kThreads, Grid::diagonals, kStoreBytes, 1>());
}

}  // namespace

int main(int argc, char** argv) {
  tp::CliSpec spec;
  spec.description = "Lab: step 08 tuning: tile (bytes per row), block size, store width, pair order and regions of the in-place kernel (cold L2)";
  spec.default_sizes = {8192, 16384};
  spec.default_dtypes = {tp::DType::f32, tp::DType::f64, tp::DType::f16};
  return tp::bench_main(argc, argv, spec, [](const tp::Options&) {
    std::vector<tp::Kernel> list;
    add<128, 128, 128>(list);
    add<256, 256, 128>(list);
    add<256, 128, 256>(list);
    add<256, 256, 256>(list);
    list.push_back(config<256, 256, Grid::columns, 256, 4>());  // the headline with more regions
    list.push_back(config<256, 256, Grid::columns, 256, 8>());
    add<256, 512, 256>(list);
    add<512, 256, 256>(list);
    add<512, 512, 256>(list);
    return list;
  });
}
