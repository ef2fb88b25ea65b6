// Exercise 02: your transpose from steps/02_naive_col/exercise.cuh, against the CPU reference.
// Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 02
#include "02_naive_col/exercise.cuh"
#include "exercise_test.hpp"
#include "large_offsets.cuh"

namespace {

const tp::Kernel kExercise = tp::make_kernel("02_naive_col", "exercise_naive_col", tp::Op::transpose,
                                                 TP_LAUNCHER(tp::step02::exercise::transpose));

// 31 x 33 and 33 x 31 fill neither a 32-wide nor an 8-tall block; 100 x 1000 and 1000 x 100
// are rectangles, where mixing up `rows` and `cols` in an offset shows; 3 x 70000 and
// 70000 x 3 are far from square.
TP_EXERCISE_TEST(Exercise02NaiveCol, kExercise,
                 {{1, 1}, {1, 7}, {7, 1}, {31, 33}, {33, 31}, {100, 1000}, {1000, 100}, {3, 70000}, {70000, 3}, {1024, 1024}});

// More than 2^32 elements, where an offset computed in 32 bits wraps (large_offsets.cuh).
TP_EXERCISE_TEST_PAST_2_32(Exercise02NaiveColLarge, kExercise);

}  // namespace
