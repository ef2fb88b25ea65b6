// Exercise 05: your shared-memory transpose from steps/05_shared/exercise.cuh, against the CPU
// reference. Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 05
#include "05_shared/exercise.cuh"
#include "exercise_test.hpp"
#include "large_offsets.cuh"

namespace {

const tp::Kernel kExercise = tp::make_kernel("05_shared", "exercise_shared", tp::Op::transpose,
                                                 TP_LAUNCHER(tp::step05::exercise::transpose));

// One block moves a 32 x 32 tile. Every shape takes the same path; what differs is how the
// tiles fit: 1 x 1 is a single element of one tile; 31 x 33 and 33 x 31 leave partial tiles in
// both directions (lanes and tile rows outside the matrix in both phases); 64 x 64 and
// 4096 x 4096 are whole tiles; 100 x 1000 and 1000 x 100 are rectangles both ways, where
// mixing up `rows` and `cols` in an offset shows.
TP_EXERCISE_TEST(Exercise05Shared, kExercise,
                 {{1, 1}, {31, 33}, {33, 31}, {64, 64}, {100, 1000}, {1000, 100}, {4096, 4096}});

// More than 2^32 elements, where an offset computed in 32 bits wraps (large_offsets.cuh).
TP_EXERCISE_TEST_PAST_2_32(Exercise05SharedLarge, kExercise);

}  // namespace
