// 08_inplace_tune: the tile, block size and grid order behind step 08's choice. Every
// configuration is step 08's kernel; the chapter's tuning table comes from this program's CSV.
//
//   build/bin/08_inplace_tune --dtype all --sizes 8192,16384 --csv tune.csv
#include <string>
#include <vector>

#include "08_inplace/kernel.cuh"
#include "registry.cuh"

namespace {

using tp::step08::Grid;

/// One configuration. Two tiles of kBytes x kBytes / sizeof(T) bytes each must fit in a
/// block's shared memory: 512-byte tiles are for 4- and 8-byte types only.
template <int kBytes, int kThreads, Grid kGrid>
tp::Kernel config() {
  std::string name = "tile" + std::to_string(kBytes) + "B_t" + std::to_string(kThreads);
  name += kGrid == Grid::columns ? "_columns" : kGrid == Grid::diagonals ? "_diagonals" : "_square";
  tp::Kernel k = tp::make_kernel("08_inplace", name, tp::Op::transpose_inplace,
                                 TP_INPLACE_LAUNCHER((tp::step08::transpose_inplace_with<kBytes, kThreads, kGrid>)));
  if (kBytes > 256) {
    k.launch[tp::Kernel::index(tp::DType::f16)] = nullptr;
    k.launch[tp::Kernel::index(tp::DType::bf16)] = nullptr;
  }
  return k;
}

template <int kBytes, int kThreads>
void add_tile(std::vector<tp::Kernel>& list) {
  list.push_back(config<kBytes, kThreads, Grid::columns>());
  list.push_back(config<kBytes, kThreads, Grid::diagonals>());
}

}  // namespace

int main(int argc, char** argv) {
  tp::CliSpec spec;
  spec.description = "Step 08 tuning: tile (bytes per row), block size and pair order of the in-place kernel (cold L2)";
  spec.default_sizes = {8192, 16384};
  spec.default_dtypes = {tp::DType::f32, tp::DType::f64, tp::DType::f16};
  return tp::bench_main(argc, argv, spec, [](const tp::Options&) {
    std::vector<tp::Kernel> list;
    add_tile<128, 128>(list);
    add_tile<256, 128>(list);
    add_tile<256, 256>(list);
    add_tile<256, 512>(list);
    add_tile<512, 256>(list);
    add_tile<512, 512>(list);
    return list;
  });
}
