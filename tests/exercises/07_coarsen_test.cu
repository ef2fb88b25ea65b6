// Exercise 07: your chunk swizzle and store phase in steps/07_coarsen/exercise.cuh.
// Fails until the TODOs are done. Run: ctest --test-dir build -L exercise -R 07
//
// A kernel with bank conflicts still transposes correctly, so the output cannot tell whether
// slot() is right: the first two tests check slot() itself on the CPU (no GPU needed), on the
// bank model of tests/cpu/test_registry.cu (Step07.StorePhaseReadsTakeTwoWavefronts). The last
// checks the kernel's result against the CPU reference.
#include <gtest/gtest.h>

#include <cuda_fp16.h>

#include <algorithm>
#include <vector>

#include "07_coarsen/exercise.cuh"
#include "banks.hpp"
#include "exercise_test.hpp"

namespace {

using tp::step07::exercise::slot;

// Every tile row keeps all its elements (slot is a permutation of 0 .. kSide - 1), and every
// element stays at its place within a 16-byte chunk (the cp.async copies move whole chunks).
template <typename T>
void expect_whole_chunks() {
  constexpr int kV = 16 / sizeof(T), kN = 256 / sizeof(T);
  for (int r = 0; r < kN; ++r) {
    std::vector<int> seen(kN, 0);
    for (int c = 0; c < kN; ++c) {
      const int s = slot<T>(r, c);
      ASSERT_TRUE(s >= 0 && s < kN) << sizeof(T) << "-byte type: slot(" << r << ", " << c << ") = " << s
                                    << " is outside the tile row";
      ASSERT_EQ(s % kV, c % kV) << sizeof(T) << "-byte type: slot(" << r << ", " << c << ") = " << s
                                << " moves the element within its chunk (or splits the chunk)";
      ++seen[s];
    }
    for (int s = 0; s < kN; ++s) {
      ASSERT_EQ(seen[s], 1) << sizeof(T) << "-byte type, tile row " << r << ": slot " << s << " holds " << seen[s]
                            << " elements, so the row is not a permutation";
    }
  }
}

// The store phase's reads: for its k-th read a warp's lane takes element k of chunk q =
// lane % 16 of tile column j = lane / 16, i.e. tile row q V + k. Counted with the bank model
// (banks.hpp): 2 wavefronts in every type with a good swizzle (the 16 rows fall on 8 chunk
// positions at best, 2 rows on each group of banks); 16 with none.
template <typename T>
void expect_two_wavefronts() {
  constexpr int kV = 16 / sizeof(T), kN = 256 / sizeof(T);
  for (int k = 0; k < kV; ++k) {
    std::array<std::uint64_t, tp::banks::kLanes> address{};
    for (int lane = 0; lane < tp::banks::kLanes; ++lane) {
      const int q = lane % 16, j = lane / 16, r = q * kV + k;
      address[lane] = (std::uint64_t(r) * kN + slot<T>(r, j)) * sizeof(T);
    }
    const int wavefronts = tp::banks::wavefronts(address, sizeof(T));
    ASSERT_EQ(wavefronts, 2) << sizeof(T) << "-byte type, the store phase's read " << k << ": " << wavefronts
                             << " wavefronts, where 2 is the least for 16 tile rows";
  }
}

TEST(Exercise07Coarsen, SlotKeepsChunksWholeAndPermutesEveryRow) {
  expect_whole_chunks<__half>();
  expect_whole_chunks<float>();
  expect_whole_chunks<double>();
}

TEST(Exercise07Coarsen, StorePhaseReadsSpreadOverTheBanks) {
  expect_two_wavefronts<__half>();
  expect_two_wavefronts<float>();
  expect_two_wavefronts<double>();
}

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
