// 01_naive_row: Step 01: naive row transpose beside step 00's copy, side by side.
#include "01_naive_row/exercise.cuh"
#include "registry.cuh"

int main(int argc, char** argv) {
  tp::CliSpec spec;
  spec.description = "Step 01: naive row transpose beside step 00's copy (cold L2, median of --reps runs)";
  spec.default_sizes = {1024, 2048, 4096, 8192, 16384};
  spec.exercise_flag = true;
  return tp::bench_main(argc, argv, spec, [](const tp::Options& options) {
    std::vector<tp::Kernel> kernels = tp::registry::versus_previous(tp::registry::step00(), tp::registry::step01());
    if (options.exercise) {
      kernels.push_back(tp::make_kernel("01_naive_row", "exercise_naive_row", tp::Op::transpose,
                                        TP_LAUNCHER(tp::step01::exercise::transpose)));
    }
    return kernels;
  });
}
