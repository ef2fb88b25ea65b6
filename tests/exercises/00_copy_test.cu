// Exercise 00: your copy_vec16 from steps/00_copy/exercise.cuh, against the CPU reference.
// Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 00
#include "00_copy/exercise.cuh"
#include "exercise_test.hpp"

namespace {

// 1 x 7 and 31 x 33 leave a tail that does not fill a 16-byte vector.
TP_EXERCISE_TEST(Exercise00Copy,
                 tp::make_kernel("00_copy", "exercise_copy_vec16", tp::Op::copy,
                                 TP_LAUNCHER(tp::step00::exercise::copy_vec16)),
                 {{1, 1}, {1, 7}, {31, 33}, {64, 64}, {1000, 100}, {4096, 4096}});

}  // namespace
