// 07_coarsen: the ablation of step 07, one change per row, beside step 06.
#include "07_coarsen/exercise.cuh"
#include "step_main.cuh"

int main(int argc, char** argv) {
  return tp::step_main(argc, argv, "Step 07: coarsening and 16-byte accesses beside step 06",
                       tp::registry::versus_previous(tp::registry::step06(), tp::registry::step07()),
                       tp::make_kernel("07_coarsen", "exercise_coarsen", tp::Op::transpose,
                                       TP_LAUNCHER(tp::step07::exercise::transpose)),
                       "coarsen");
}
