// 00_copy: the three copies of step 00 beside cudaMemcpy, the ceiling of every later step.
#include "00_copy/exercise.cuh"
#include "registry.cuh"

int main(int argc, char** argv) {
  tp::CliSpec spec;
  spec.description = "Step 00: copy kernels beside cudaMemcpy (cold L2, median of --reps runs)";
  spec.default_sizes = {1024, 2048, 4096, 8192, 16384};
  spec.exercise_flag = true;
  return tp::bench_main(argc, argv, spec, [](const tp::Options& options) {
    std::vector<tp::Kernel> kernels = tp::registry::step00();
    if (options.exercise) {
      kernels.push_back(tp::make_kernel("00_copy", "exercise_copy_vec16", tp::Op::copy,
                                        TP_LAUNCHER(tp::step00::exercise::copy_vec16)));
    }
    return kernels;
  });
}
