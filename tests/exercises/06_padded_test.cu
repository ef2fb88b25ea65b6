// Exercise 06: your swizzle from steps/06_padded/exercise.cuh. Fails until the TODO is done.
// Run: ctest --test-dir build -L exercise -R 06
//
// A kernel with bank conflicts still transposes correctly, so comparing its output with the
// CPU reference cannot tell whether slot() is right. The Exercise06Banks tests check slot()
// itself on the CPU (they run without a GPU), with the bank model of banks.hpp, which is
// tested first; the last test checks that the kernel built on slot() is correct.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <set>

#include "06_padded/exercise.cuh"
#include "06_padded/kernel.cuh"  // the step's own layouts, to test the model and the requirement
#include "banks.hpp"
#include "exercise_test.hpp"

namespace {

using tp::step06::exercise::kTile;
using tp::step06::exercise::slot;

using Slot = int (*)(int r, int c);  // a shared-memory column for tile element (r, c)

// Wavefronts of the store phase's read of tile column k, `out[...] = tile[x][slot(x, k)]`:
// lane x reads element (x, k), which lies at index x * pitch + slot(x, k) of a
// `T tile[32][pitch]` of elem_bytes-byte elements.
int column_read(Slot where, int k, int elem_bytes, int pitch = kTile) {
  std::array<std::uint64_t, tp::banks::kLanes> address{};
  for (int x = 0; x < tp::banks::kLanes; ++x) address[x] = std::uint64_t(x * pitch + where(x, k)) * elem_bytes;
  return tp::banks::wavefronts(address, elem_bytes);
}

constexpr int unpadded(int, int c) { return c; }  // step 05's tile, and the shipped skeleton
constexpr Slot kSwizzled = tp::step06::slot<tp::step06::Layout::swizzled>;  // the solution

// What the store phase's column reads must take, per element size: the fewest wavefronts a
// warp's 32 elements can take, one per 128 bytes (64, 128 and 256 bytes: 1, 1 and 2). The
// step's own swizzle reaches it for all three sizes (Exercise06Banks.TheStepsSwizzleTakesTheFewest).
struct Size {
  int bytes;   // sizeof(T)
  int fewest;  // wavefronts per column read
};
constexpr Size kSizes[] = {{2, 1}, {4, 1}, {8, 2}};

// The model on tiles whose counts are known: unpadded 4-byte columns are all in one bank (32
// wavefronts); padding spreads them over the 32 banks (1). Unpadded 2-byte columns take 16
// (two elements share a word); padded 8-byte ones take 2 (256 bytes). A warp that reads one
// word takes 1 (a broadcast).
TEST(Exercise06Banks, ModelCountsKnownTiles) {
  for (int k = 0; k < kTile; ++k) {
    EXPECT_EQ(column_read(unpadded, k, 4), 32) << "unpadded 4-byte tile, column " << k;
    EXPECT_EQ(column_read(unpadded, k, 4, kTile + 1), 1) << "padded 4-byte tile, column " << k;
    EXPECT_EQ(column_read(unpadded, k, 2), 16) << "unpadded 2-byte tile, column " << k;
    EXPECT_EQ(column_read(unpadded, k, 8, kTile + 1), 2) << "padded 8-byte tile, column " << k;
  }
  EXPECT_EQ(tp::banks::wavefronts({}, 4), 1) << "32 lanes reading the same word";
}

// The requirement of the next tests is what the solution achieves: the step's own swizzle,
// counted with the same model, takes the fewest wavefronts for every element size.
TEST(Exercise06Banks, TheStepsSwizzleTakesTheFewest) {
  for (const Size& size : kSizes) {
    for (int k = 0; k < kTile; ++k) {
      EXPECT_EQ(column_read(kSwizzled, k, size.bytes), size.fewest) << size.bytes << "-byte tile, column " << k;
    }
  }
}

// Every tile row keeps all its elements: slot(r, 0 .. 31) is a permutation of 0 .. 31 (so
// nothing is overwritten, and the load phase's row writes stay conflict-free).
TEST(Exercise06Banks, SlotPermutesEveryRow) {
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
}

// The store phase's read of every tile column k takes the fewest wavefronts, for 2-, 4- and
// 8-byte elements (the same slot() serves every element type).
TEST(Exercise06Banks, ColumnReadsTakeTheFewestWavefronts) {
  for (const Size& size : kSizes) {
    for (int k = 0; k < kTile; ++k) {
      const int n = column_read(slot, k, size.bytes);
      ASSERT_EQ(n, size.fewest) << size.bytes << "-byte elements: the store phase's read of tile column " << k
                                << " takes " << n << " wavefronts, where " << size.fewest << " is the least";
    }
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
