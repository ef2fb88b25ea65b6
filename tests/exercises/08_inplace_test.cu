// Exercise 08: your tile pairs in steps/08_inplace/exercise.cuh. Fails until the TODOs are done.
// Run: ctest --test-dir build -L exercise -R 08
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "08_inplace/exercise.cuh"
#include "exercise_test.hpp"

namespace {

// pair_of() on the CPU (no GPU needed): for m x m tiles, the pairs 0 .. m (m + 1) / 2 - 1 must
// give every tile (i, j) with i <= j < m exactly once, in the documented order.
TEST(Exercise08Inplace, PairOfVisitsEveryTilePairOnceInOrder) {
  constexpr std::size_t kTiles = 50;
  std::vector<int> seen(kTiles * kTiles, 0);
  std::size_t p = 0;
  for (std::size_t j = 0; j < kTiles; ++j) {
    for (std::size_t i = 0; i <= j; ++i, ++p) {
      std::size_t gi = 99, gj = 99;
      tp::step08::exercise::pair_of(p, gi, gj);
      ASSERT_EQ(gi, i) << "pair " << p << " should be tile (" << i << ", " << j << ")";
      ASSERT_EQ(gj, j) << "pair " << p << " should be tile (" << i << ", " << j << ")";
      ++seen[gi * kTiles + gj];
    }
  }
  for (std::size_t j = 0; j < kTiles; ++j) {
    for (std::size_t i = 0; i <= j; ++i) ASSERT_EQ(seen[i * kTiles + j], 1) << "tile (" << i << ", " << j << ")";
  }
}

// pair_of() far out: the first and last pair of every tile column j < 2^14, and of the columns
// 2^k - 1, 2^k, 2^k + 1 up to 2^26 (n up to 2^31 - 1 has up to 2^26 tiles a side). The
// quadratic solved in float, j = (sqrtf(8 p + 1) - 1) / 2, first goes wrong at column 4607
// (8 p + 1 has more bits than a float holds): n = 147,424, 43 GB of `half`, beyond the GPU
// tests' shapes but not beyond a GPU's memory.
TEST(Exercise08Inplace, PairOfHoldsForLargePairNumbers) {
  std::vector<std::size_t> columns;
  for (std::size_t j = 0; j < (std::size_t(1) << 14); ++j) columns.push_back(j);
  for (int k = 14; k <= 26; ++k) {
    for (const std::size_t j : {(std::size_t(1) << k) - 1, std::size_t(1) << k, (std::size_t(1) << k) + 1}) {
      columns.push_back(j);
    }
  }
  for (const std::size_t j : columns) {
    for (const std::size_t i : {std::size_t(0), j}) {  // the column's first and last pair
      const std::size_t p = j * (j + 1) / 2 + i;
      std::size_t gi = 0, gj = 0;
      tp::step08::exercise::pair_of(p, gi, gj);
      ASSERT_TRUE(gi == i && gj == j) << "pair " << p << " should be tile (" << i << ", " << j << "), got (" << gi
                                      << ", " << gj << "): rounding in the square root?";
    }
  }
}

// n = 1 and 2 sit inside one diagonal tile; 33 and 100 leave partial tiles at the edges; 64 is
// whole tiles; 1000 and 4097 have hundreds to thousands of pairs.
TP_EXERCISE_TEST(Exercise08Inplace,
                 tp::make_kernel("08_inplace", "exercise_inplace", tp::Op::transpose_inplace,
                                 TP_INPLACE_LAUNCHER(tp::step08::exercise::transpose_inplace)),
                 {{1, 1}, {2, 2}, {33, 33}, {64, 64}, {100, 100}, {1000, 1000}, {4097, 4097}});

}  // namespace
