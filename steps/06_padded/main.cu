// 06_padded: the padded and swizzled tiles, and the tile-shape study, beside step 05.
#include "06_padded/exercise.cuh"
#include "step_main.cuh"

int main(int argc, char** argv) {
  return tp::step_main(argc, argv, "Step 06: no bank conflicts (padding, swizzle, tile shapes) beside step 05",
                       tp::registry::versus_previous(tp::registry::step05(), tp::registry::step06()),
                       tp::make_kernel("06_padded", "exercise_swizzled", tp::Op::transpose,
                                       TP_LAUNCHER(tp::step06::exercise::transpose)),
                       "swizzled_32x8");
}
