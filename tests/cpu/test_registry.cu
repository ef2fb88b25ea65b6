// The registry's shape: needs no GPU, only the kernels' host-side launchers.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../exercises/banks.hpp"
#include "08_inplace/kernel.cuh"
#include "07_coarsen/kernel.cuh"
#include "registry.hpp"

namespace {

TEST(Registry, EveryStepHasExactlyOneTourKernel) {
  std::vector<std::string> steps, in_tour;
  for (const tp::Kernel& k : tp::registry::all()) {
    if (steps.empty() || steps.back() != k.step) steps.push_back(k.step);
    if (k.in_tour) in_tour.push_back(k.step);
    for (tp::DType t : tp::kAllDTypes) EXPECT_TRUE(k.supports(t)) << k.name << " " << tp::dtype_name(t);
  }
  EXPECT_EQ(steps, in_tour);
}

TEST(Registry, LaunchersRejectNegativeShapesBeforeTouchingTheGpu) {
  for (const tp::Kernel& k : tp::registry::all()) {
    for (tp::DType t : tp::kAllDTypes) {
      EXPECT_THROW(k.run(t, nullptr, nullptr, -3, 2, 0), std::invalid_argument) << k.name;
    }
  }
}

// In-place launchers refuse, before touching the GPU, a rectangle if they only take squares,
// and a null matrix if they take rectangles; an empty matrix is nothing to do for both.
TEST(Registry, InplaceLaunchersRejectWhatTheyCannotDoBeforeTouchingTheGpu) {
  int inplace = 0, rectangles = 0;
  for (const tp::Kernel& k : tp::registry::all()) {
    if (k.op != tp::Op::transpose_inplace) continue;
    ++inplace;
    rectangles += k.rectangles;
    for (tp::DType t : tp::kAllDTypes) {
      EXPECT_THROW(k.run(t, nullptr, nullptr, 3, 4, 0), std::invalid_argument) << k.name;
      EXPECT_EQ(tp::runs_on(k, {3, 4}), k.rectangles) << k.name;
      EXPECT_NO_THROW(k.run(t, nullptr, nullptr, 0, 4, 0)) << k.name << ": an empty matrix is nothing to do";
    }
  }
  EXPECT_GT(inplace, 0);
  EXPECT_GT(rectangles, 0) << "step 08 takes rectangles";
}

// Step 08's tile pairs: pair p = j (j + 1) / 2 + i is tile (i, j), i <= j, for every pair of
// the first 3000 tile columns, and around the tile columns where the square root in pair_of
// meets large numbers (its rounding is corrected by two loops).
TEST(Step08, PairOfNumbersTheUpperTriangleColumnByColumn) {
  auto expect_pair = [](std::size_t i, std::size_t j) {
    std::size_t gi = 0, gj = 0;
    tp::step08::pair_of(j * (j + 1) / 2 + i, gi, gj);
    ASSERT_EQ(gi, i) << "tile (" << i << ", " << j << ")";
    ASSERT_EQ(gj, j) << "tile (" << i << ", " << j << ")";
  };
  for (std::size_t j = 0; j < 3000; ++j) {
    for (std::size_t i = 0; i <= j; ++i) expect_pair(i, j);
  }
  for (std::size_t j : {46340u, 65535u, 65536u, 1000000u, 3037000000u}) {
    for (std::size_t jj = j - 2; jj <= j + 2; ++jj) {
      expect_pair(0, jj);
      expect_pair(1, jj);
      expect_pair(jj - 1, jj);
      expect_pair(jj, jj);
    }
  }
}

// Step 07 takes two regions only where the rows of `in` lie a multiple of 128 KB apart: the
// pitch in bytes, not the number of columns, decides.
TEST(Step07, TwoRegionsWhereRowsAreAMultipleOf128KBApart) {
  using tp::step07::pitch_is_128k_multiple;
  EXPECT_TRUE(pitch_is_128k_multiple<double>(16384));   // 128 KB
  EXPECT_TRUE(pitch_is_128k_multiple<float>(32768));    // 128 KB
  EXPECT_TRUE(pitch_is_128k_multiple<__half>(131072));  // 256 KB
  EXPECT_FALSE(pitch_is_128k_multiple<float>(16384));   // 64 KB
  EXPECT_FALSE(pitch_is_128k_multiple<double>(16416));  // 128 KB + 256 bytes
  EXPECT_FALSE(pitch_is_128k_multiple<double>(8192));   // 64 KB
}

// Step 07's swizzle on the bank model: each tile row's chunks are a permutation of the
// row's chunks (whole and in place within), and the store phase's reads (a warp: chunks q =
// 0..15 of tile columns j = 0 and 1, one element per tile row; the bank model of
// tests/exercises/banks.hpp) take 2 wavefronts in every type. The 16 chunks a warp reads lie
// in 16 rows; the swizzle puts them at 8 chunk positions, 8 groups of banks (a tile row of
// 256 bytes is two turns of the banks), so 2 rows share each group: 2 wavefronts, where the
// same reads without the swizzle take 16. The least the bytes allow is 1 for 2-byte types,
// 1 for `float`, 2 for `double`.
template <typename T>
void expect_two_wavefronts_per_read() {
  constexpr int kV = 16 / sizeof(T), kN = 256 / sizeof(T);
  for (int r = 0; r < kN; ++r) {
    std::vector<int> seen(kN, 0);
    for (int c = 0; c < kN; ++c) {
      const int s = tp::step07::slot<T>(r, c);
      ASSERT_EQ(s % kV, c % kV) << "row " << r << ": the element moved within its chunk";
      ++seen[s];
    }
    for (int n : seen) ASSERT_EQ(n, 1) << "row " << r << " is not a permutation";
  }
  for (int k = 0; k < kV; ++k) {  // the warp's k-th read
    std::array<std::uint64_t, tp::banks::kLanes> swizzled{}, plain{};
    for (int lane = 0; lane < tp::banks::kLanes; ++lane) {
      const int q = lane % 16, j = lane / 16, r = q * kV + k;
      swizzled[lane] = (std::uint64_t(r) * kN + tp::step07::slot<T>(r, j)) * sizeof(T);
      plain[lane] = (std::uint64_t(r) * kN + j) * sizeof(T);
    }
    EXPECT_EQ(tp::banks::wavefronts(swizzled, sizeof(T)), 2) << sizeof(T) << "-byte type, read " << k;
    EXPECT_EQ(tp::banks::wavefronts(plain, sizeof(T)), 16) << sizeof(T) << "-byte type, read " << k << ", no swizzle";
  }
}

TEST(Step07, StorePhaseReadsTakeTwoWavefronts) {
  expect_two_wavefronts_per_read<__half>();
  expect_two_wavefronts_per_read<float>();
  expect_two_wavefronts_per_read<double>();
}

TEST(Registry, OnlyNamedKeepsTheListsOrderAndRefusesUnknownNames) {
  const std::vector<tp::Kernel> all = tp::registry::all();
  const std::vector<tp::Kernel> two = tp::registry::only_named(all, {"inplace", "copy_vec16"});
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].name, "copy_vec16");  // step 00 comes before step 08, whatever the order asked
  EXPECT_EQ(two[1].name, "inplace");
  EXPECT_EQ(tp::registry::only_named(all, {}).size(), all.size());
  EXPECT_THROW(tp::registry::only_named(all, {"copy_vec16", "no_such_kernel"}), tp::UsageError);
}

}  // namespace
