// 02_naive_col: naive column transpose beside step 01, side by side.
#include "02_naive_col/exercise.cuh"
#include "step_main.cuh"

int main(int argc, char** argv) {
  return tp::step_main(argc, argv, "Step 02: naive column transpose beside step 01",
                       tp::registry::versus_previous(tp::registry::step01(), tp::registry::step02()),
                       tp::make_kernel("02_naive_col", "exercise_naive_col", tp::Op::transpose,
                                       TP_LAUNCHER(tp::step02::exercise::transpose)),
                       "naive_col");
}
