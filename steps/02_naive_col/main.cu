// 02_naive_col: Step 02: naive column transpose beside step 01, side by side.
#include "02_naive_col/exercise.cuh"
#include "registry.cuh"

int main(int argc, char** argv) {
  tp::CliSpec spec;
  spec.description = "Step 02: naive column transpose beside step 01 (cold L2, median of --reps runs)";
  spec.default_sizes = {1024, 2048, 4096, 8192, 16384};
  spec.exercise_flag = true;
  return tp::bench_main(argc, argv, spec, [](const tp::Options& options) {
    std::vector<tp::Kernel> kernels = tp::registry::versus_previous(tp::registry::step01(), tp::registry::step02());
    if (options.exercise) {
      kernels.push_back(tp::make_kernel("02_naive_col", "exercise_naive_col", tp::Op::transpose,
                                        TP_LAUNCHER(tp::step02::exercise::transpose)));
    }
    return kernels;
  });
}
