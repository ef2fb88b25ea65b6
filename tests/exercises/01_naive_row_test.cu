// Exercise 01: your naive transpose from steps/01_naive_row/exercise.cuh, against the CPU
// reference. Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 01
#include "01_naive_row/exercise.cuh"
#include "exercise_test.hpp"
#include "large_offsets.cuh"

namespace {

const tp::Kernel kExercise = tp::make_kernel("01_naive_row", "exercise_naive_row", tp::Op::transpose,
                                                 TP_LAUNCHER(tp::step01::exercise::transpose));

// 31 x 33 and 33 x 31 do not fill the 32 x 8 blocks; 1 x 7, 7 x 1, 100 x 1000 and
// 1000 x 100 are rectangles, where mixing up rows and cols shows; 600000 x 3 has more rows
// than one grid covers (65535 x 8), so the loop over r runs twice.
TP_EXERCISE_TEST(Exercise01NaiveRow, kExercise,
                 {{1, 1}, {1, 7}, {7, 1}, {31, 33}, {33, 31}, {64, 64}, {100, 1000}, {1000, 100}, {600000, 3}, {4096, 4096}});

// More than 2^32 elements, where an offset computed in 32 bits wraps (large_offsets.cuh).
TP_EXERCISE_TEST_PAST_2_32(Exercise01NaiveRowLarge, kExercise);

}  // namespace
