// Exercise 07: your 16-byte stores in steps/07_coarsen/exercise.cuh, against the CPU reference.
// Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 07
#include "07_coarsen/exercise.cuh"
#include "exercise_test.hpp"

namespace {

// The 16-byte path runs when rows and cols are multiples of V = 16 / sizeof(T) (2 for double,
// 4 for float, 8 for __half and __nv_bfloat16): for every type at 8 x 8, 64 x 64, 72 x 1000,
// 1000 x 72, 4096 x 4096 and 4000 x 6000. A tile is 32 x 32 doubles, 64 x 64 floats or
// 128 x 128 2-byte elements, so 8 x 8 is part of one tile (chunks and whole warps of the
// store phase outside the matrix), 72 x 1000 and 1000 x 72 are rectangles with partial tiles,
// and 4000 x 6000 leaves partial tiles at its right edge for every type and at its bottom edge
// for all but double. 31 x 33 takes the fallback (step 06's padded transpose) for every type.
TP_EXERCISE_TEST(Exercise07Coarsen,
                 tp::make_kernel("07_coarsen", "exercise_coarsen", tp::Op::transpose,
                                 TP_LAUNCHER(tp::step07::exercise::transpose)),
                 {{8, 8}, {64, 64}, {72, 1000}, {1000, 72}, {4096, 4096}, {4000, 6000}, {31, 33}});

}  // namespace
