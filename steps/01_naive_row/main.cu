// 01_naive_row: naive row transpose beside step 00's copy, side by side.
#include "01_naive_row/exercise.cuh"
#include "step_main.cuh"

int main(int argc, char** argv) {
  return tp::step_main(argc, argv, "Step 01: naive row transpose beside step 00's copy",
                       tp::registry::versus_previous(tp::registry::step00(), tp::registry::step01()),
                       tp::make_kernel("01_naive_row", "exercise_naive_row", tp::Op::transpose,
                                       TP_LAUNCHER(tp::step01::exercise::transpose)),
                       "naive_row");
}
