// Exercise 04: your transpose from steps/04_vectorize/exercise.cuh, against the CPU reference.
// Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 04
#include "04_vectorize/exercise.cuh"
#include "exercise_test.hpp"

namespace {

// The 16-byte path runs when an output row (rows elements) is a multiple of 16 bytes: for
// every type at 64 x 64, 72 x 1001, 1000 x 100 and 4096 x 4096. 72 x 1001 fills neither a
// block's 32 chunks nor its 8 output rows, and like 1000 x 100 it is a rectangle, where
// mixing up `rows` and `cols` shows. 1 x 1, 31 x 33 and 100 x 1000 (for 2-byte types) take
// the scalar path with its partial last chunk.
TP_EXERCISE_TEST(Exercise04Vectorize,
                 tp::make_kernel("04_vectorize", "exercise_vec16_store", tp::Op::transpose,
                                 TP_LAUNCHER(tp::step04::exercise::transpose)),
                 {{1, 1}, {31, 33}, {64, 64}, {72, 1001}, {100, 1000}, {1000, 100}, {4096, 4096}});

}  // namespace
