// 04_vectorize: Step 04: 16-byte stores beside step 03, side by side.
#include "04_vectorize/exercise.cuh"
#include "registry.cuh"

int main(int argc, char** argv) {
  tp::CliSpec spec;
  spec.description = "Step 04: 16-byte stores beside step 03 (cold L2, median of --reps runs)";
  spec.default_sizes = {1024, 2048, 4096, 8192, 16384};
  spec.exercise_flag = true;
  return tp::bench_main(argc, argv, spec, [](const tp::Options& options) {
    std::vector<tp::Kernel> kernels = tp::registry::versus_previous(tp::registry::step03(), tp::registry::step04());
    if (options.exercise) {
      kernels.push_back(tp::make_kernel("04_vectorize", "exercise_vec16_store", tp::Op::transpose,
                                        TP_LAUNCHER(tp::step04::exercise::transpose)));
    }
    return kernels;
  });
}
