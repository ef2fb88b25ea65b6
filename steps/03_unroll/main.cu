// 03_unroll: several elements per thread beside step 02, side by side.
#include "03_unroll/exercise.cuh"
#include "step_main.cuh"

int main(int argc, char** argv) {
  return tp::step_main(argc, argv, "Step 03: several elements per thread beside step 02",
                       tp::registry::versus_previous(tp::registry::step02(), tp::registry::step03()),
                       tp::make_kernel("03_unroll", "exercise_unroll", tp::Op::transpose,
                                       TP_LAUNCHER(tp::step03::exercise::transpose)),
                       "unroll4");
}
