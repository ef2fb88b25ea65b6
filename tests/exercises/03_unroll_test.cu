// Exercise 03: your unrolled transpose from steps/03_unroll/exercise.cuh, against the CPU
// reference. Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 03
#include "03_unroll/exercise.cuh"
#include "exercise_test.hpp"
#include "large_offsets.cuh"

namespace {

const tp::Kernel kExercise = tp::make_kernel("03_unroll", "exercise_unroll", tp::Op::transpose,
                                                 TP_LAUNCHER(tp::step03::exercise::transpose));

// A block covers 32 output columns x 32 output rows (8 warps x 4 rows each). 1 x 7, 31 x 33
// and 1023 x 1025 leave partial blocks in both directions, so some of a thread's four rows
// fall outside the matrix; 100 x 1000 and 1000 x 100 are rectangles both ways.
TP_EXERCISE_TEST(Exercise03Unroll, kExercise,
                 {{1, 1}, {1, 7}, {7, 1}, {31, 33}, {64, 64}, {100, 1000}, {1000, 100}, {1023, 1025}});

// More than 2^32 elements, where an offset computed in 32 bits wraps (large_offsets.cuh).
TP_EXERCISE_TEST_PAST_2_32(Exercise03UnrollLarge, kExercise);

}  // namespace
