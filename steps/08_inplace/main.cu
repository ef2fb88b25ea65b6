// 08_inplace: the in-place transpose beside step 07's out-of-place one, on the same n
// (bytes counted the same: 2 x n x n x sizeof(T)).
#include "08_inplace/exercise.cuh"
#include "step_main.cuh"

int main(int argc, char** argv) {
  return tp::step_main(argc, argv, "Step 08: in place beside step 07 out of place",
                       tp::registry::versus_previous(tp::registry::step07(), tp::registry::step08()),
                       tp::make_kernel("08_inplace", "exercise_inplace", tp::Op::transpose_inplace,
                                       TP_INPLACE_LAUNCHER(tp::step08::exercise::transpose_inplace)),
                       "inplace");
}
