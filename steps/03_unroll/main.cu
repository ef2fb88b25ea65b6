// 03_unroll: Step 03: several elements per thread beside step 02, side by side.
#include "03_unroll/exercise.cuh"
#include "registry.cuh"

int main(int argc, char** argv) {
  tp::CliSpec spec;
  spec.description = "Step 03: several elements per thread beside step 02 (cold L2, median of --reps runs)";
  spec.default_sizes = {1024, 2048, 4096, 8192, 16384};
  spec.exercise_flag = true;
  return tp::bench_main(argc, argv, spec, [](const tp::Options& options) {
    std::vector<tp::Kernel> kernels = tp::registry::versus_previous(tp::registry::step02(), tp::registry::step03());
    if (options.exercise) {
      kernels.push_back(tp::make_kernel("03_unroll", "exercise_unroll", tp::Op::transpose,
                                        TP_LAUNCHER(tp::step03::exercise::transpose)));
    }
    return kernels;
  });
}
