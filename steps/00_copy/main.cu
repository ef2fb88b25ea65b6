// 00_copy: the copies of step 00 beside cudaMemcpy, the ceiling of every later step.
#include "00_copy/exercise.cuh"
#include "step_main.cuh"

int main(int argc, char** argv) {
  return tp::step_main(argc, argv, "Step 00: copy kernels beside cudaMemcpy",
                       tp::registry::step00(),
                       tp::make_kernel("00_copy", "exercise_copy_vec16", tp::Op::copy,
                                       TP_LAUNCHER(tp::step00::exercise::copy_vec16)),
                       "copy_vec16");
}
