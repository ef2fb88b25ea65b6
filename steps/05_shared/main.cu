// 05_shared: the shared-memory tile beside step 04, side by side.
#include "05_shared/exercise.cuh"
#include "step_main.cuh"

int main(int argc, char** argv) {
  return tp::step_main(argc, argv, "Step 05: a tile in shared memory beside step 04",
                       tp::registry::versus_previous(tp::registry::step04(), tp::registry::step05()),
                       tp::make_kernel("05_shared", "exercise_shared", tp::Op::transpose,
                                       TP_LAUNCHER(tp::step05::exercise::transpose)),
                       "shared_32x8");
}
