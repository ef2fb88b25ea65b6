// 04_vectorize: 16-byte stores beside step 03, side by side.
#include "04_vectorize/exercise.cuh"
#include "step_main.cuh"

int main(int argc, char** argv) {
  return tp::step_main(argc, argv, "Step 04: 16-byte stores beside step 03",
                       tp::registry::versus_previous(tp::registry::step03(), tp::registry::step04()),
                       tp::make_kernel("04_vectorize", "exercise_vec16_store", tp::Op::transpose,
                                       TP_LAUNCHER(tp::step04::exercise::transpose)),
                       "vec16_store");
}
