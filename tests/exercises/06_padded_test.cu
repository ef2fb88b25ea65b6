// Exercise 06: your XOR swizzle from steps/06_padded/exercise.cuh. Fails until the TODO is done.
// Run: ctest --test-dir build -L exercise -R 06
//
// A kernel with bank conflicts still transposes correctly, so comparing its output with the
// CPU reference cannot tell whether slot() is right. The first test checks slot() itself, on
// the CPU (it runs without a GPU); the second checks that the kernel built on it is correct.
#include <gtest/gtest.h>

#include <set>

#include "06_padded/exercise.cuh"
#include "exercise_test.hpp"

namespace {

using tp::step06::exercise::kTile;
using tp::step06::exercise::slot;

// (a) Every tile row keeps all its elements: slot(r, 0 .. 31) is a permutation of 0 .. 31
//     (so nothing is overwritten, and the load phase's row writes use 32 banks).
// (b) Every tile column is spread over the 32 banks: for 4-byte elements, element (r, c) is
//     word r * 32 + slot(r, c) of the tile, in bank (r * 32 + slot(r, c)) % 32, and the store
//     phase's warp reads the 32 rows r of one column c at once.
TEST(Exercise06Padded, SlotIsAPermutationOfEveryRowAndSpreadsEveryColumnOverAllBanks) {
  constexpr int kBanks = 32;  // 4-byte banks
  for (int r = 0; r < kTile; ++r) {
    std::set<int> slots;
    for (int c = 0; c < kTile; ++c) {
      const int s = slot(r, c);
      ASSERT_TRUE(s >= 0 && s < kTile) << "slot(" << r << ", " << c << ") = " << s << " is outside the tile row";
      slots.insert(s);
    }
    ASSERT_EQ(slots.size(), std::size_t(kTile)) << "tile row " << r << ": two columns share a slot, so one "
                                                << "element overwrites another";
  }
  for (int c = 0; c < kTile; ++c) {
    std::set<int> banks;
    for (int r = 0; r < kTile; ++r) banks.insert((r * kTile + slot(r, c)) % kBanks);
    const std::size_t ways = (kBanks + banks.size() - 1) / banks.size();  // at least this many lanes per bank
    ASSERT_EQ(banks.size(), std::size_t(kBanks))
        << "tile column " << c << " is in " << banks.size() << " banks only: the store phase's "
        << "read of it is (at least) a " << ways << "-way bank conflict";
  }
}

// One 32 x 32 tile per block, one path for every shape. 1 x 1 is a single element; 31 x 33
// and 33 x 31 leave partial tiles both ways (the swizzle must still find every element that is
// inside the matrix); 64 x 64 and 4096 x 4096 are whole tiles; 100 x 1000 and 1000 x 100 are
// rectangles both ways.
TP_EXERCISE_TEST(Exercise06Padded,
                 tp::make_kernel("06_padded", "exercise_swizzled", tp::Op::transpose,
                                 TP_LAUNCHER(tp::step06::exercise::transpose)),
                 {{1, 1}, {31, 33}, {33, 31}, {64, 64}, {100, 1000}, {1000, 100}, {4096, 4096}});

}  // namespace
