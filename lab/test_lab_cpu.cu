// The lab's cpu tests: the orders and derivations of its research kernels (no GPU needed).
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "inplace_lab.cuh"
#include "record.cuh"
#include "record_general.cuh"
#include "shifted.cuh"
#include "tile_kernel.cuh"
#include "tile_parts.cuh"

namespace {

// The diagonal numbering: for m x m tiles, pairs 0, 1, ... walk diagonal 0 (i, i), then
// diagonal 1 (i, i + 1), ...: every pair of the upper triangle exactly once, in that order.
TEST(LabInplace, PairOnDiagonalNumbersTheUpperTriangleDiagonalByDiagonal) {
  for (std::size_t m : {1u, 2u, 3u, 7u, 64u, 257u, 1000u, 2048u}) {
    std::size_t p = 0;
    for (std::size_t d = 0; d < m; ++d) {
      for (std::size_t i = 0; i + d < m; ++i, ++p) {
        std::size_t gi = 0, gj = 0;
        tp::lab::inplace::detail::pair_on_diagonal(p, m, gi, gj);
        ASSERT_EQ(gi, i) << "m = " << m << ", pair " << p;
        ASSERT_EQ(gj, i + d) << "m = " << m << ", pair " << p;
      }
    }
    ASSERT_EQ(p, m * (m + 1) / 2);
  }
  // Where the square root meets large numbers: the first and last pairs of a few diagonals.
  const std::size_t m = std::size_t(1) << 27;  // tile columns for n = 2^31 - 1, 16-element tiles
  for (std::size_t d : {std::size_t(0), std::size_t(1), std::size_t(1000), m / 3, m / 2, m - 2, m - 1}) {
    const std::size_t first = d * m - d * (d - 1) / 2;
    for (std::size_t i : {std::size_t(0), m - d - 1}) {
      std::size_t gi = 0, gj = 0;
      tp::lab::inplace::detail::pair_on_diagonal(first + i, m, gi, gj);
      ASSERT_EQ(gi, i) << "diagonal " << d;
      ASSERT_EQ(gj, i + d) << "diagonal " << d;
    }
  }
}

// Interleaved regions (the lab kernels): the slots cover every item exactly once, the spare
// slots (at most regions - 1) map past the last item, and consecutive slots alternate
// between the regions, which start L = ceil(items / regions) items apart.
TEST(LabCoarsen, InterleavedSlotsTakeEveryItemOnceFromAlternatingRegions) {
  for (unsigned regions : {1u, 2u, 3u, 4u, 8u}) {
    for (std::size_t items : {1u, 2u, 5u, 7u, 64u, 1000u, 4097u}) {
      const std::size_t slots = tp::lab::coarsen::detail::interleaved_slots(items, regions);
      const std::size_t per_region = (items + regions - 1) / regions;
      ASSERT_GE(slots, items);
      ASSERT_LT(slots, items + regions);
      std::vector<int> taken(items, 0);
      for (std::size_t u = 0; u < slots; ++u) {
        const std::size_t item = tp::lab::coarsen::detail::interleaved(u, items, regions);
        if (u < regions) ASSERT_EQ(item, u * per_region) << "slot " << u;  // each region's start,
        else ASSERT_EQ(item, tp::lab::coarsen::detail::interleaved(u - regions, items, regions) + 1) << "slot " << u;  // then one on
        if (item < items) ++taken[item];
      }
      for (std::size_t item = 0; item < items; ++item) {
        ASSERT_EQ(taken[item], 1) << items << " items, " << regions << " regions, item " << item;
      }
    }
  }
}

// The tile kernel's launcher sizes the grid from the same derivation as the kernel: two
// regions only with kInterleave.
TEST(LabCoarsen, RegionsFollowTheFeatures) {
  using namespace tp::lab::coarsen;
  EXPECT_EQ(detail::tile_regions(kHeadline), 1u);
  EXPECT_EQ(detail::tile_regions(kHeadline | kInterleave), 2u);
  EXPECT_EQ(detail::tile_regions(kInterleave), 2u);
}

// GPUs the record's choices are checked on: SMs, resident threads and blocks per SM.
constexpr tp::Residency kH200{132, 2048, 32};
constexpr tp::Residency kA100{108, 2048, 32};
constexpr tp::Residency kRtx46{46, 1536, 16};  // an RTX card of 46 SMs (compute capability 8.6/8.9)
constexpr tp::Residency kT4{40, 1024, 16};

// A wave: blocks of a size that the SMs hold at once, by threads and by the block limit.
TEST(LabCoarsen, AWaveIsWhatTheSmsHold) {
  EXPECT_EQ(kH200.wave(256), 132u * 8);
  EXPECT_EQ(kH200.wave(128), 132u * 16);
  EXPECT_EQ(kH200.wave(32), 132u * 32);  // the block limit, not 64 blocks of 32 threads
  EXPECT_EQ(kRtx46.wave(256), 46u * 6);
  EXPECT_EQ(kT4.wave(128), 40u * 8);
}

// The record kernel takes 128 x 128-byte tiles where 256 x 256-byte tiles would give fewer
// than 3 waves of 256-thread blocks.
TEST(LabCoarsen, SmallTilesBelowThreeWaves) {
  using tp::lab::coarsen::few_waves;
  EXPECT_TRUE(few_waves(0, kH200));
  EXPECT_TRUE(few_waves(3 * 8 * 132 - 1, kH200));
  EXPECT_FALSE(few_waves(3 * 8 * 132, kH200));
  EXPECT_TRUE(few_waves(32 * 32, kH200));   // float 2048 x 2048: 1024 tiles of 64 x 64
  EXPECT_FALSE(few_waves(64 * 64, kH200));  // double 2048 x 2048: 4096 tiles of 32 x 32
  EXPECT_FALSE(few_waves(64 * 64, tp::Residency{114, 2048, 32}));  // the same on a GPU of 114 SMs
  EXPECT_TRUE(few_waves(64 * 64, tp::Residency{180, 2048, 32}));   // and of 180 SMs
}

// One of the record's switches for squares: the largest n for which `takes(n, gpu)` holds is
// `last` (it holds there and not at last + 1).
template <typename Takes>
void expect_last_square(Takes takes, const tp::Residency& gpu, int last, const char* what) {
  EXPECT_TRUE(takes(last, gpu)) << what << " at " << last << " on " << gpu.sms << " SMs";
  EXPECT_FALSE(takes(last + 1, gpu)) << what << " at " << last + 1 << " on " << gpu.sms << " SMs";
}

// The record's switches between kernels fall where its docs say, for squares on 132 SMs: the
// 128-byte tiles up to 3584 (`float`), the lean tile up to 5056 (`float`) and 2880 (the 2-byte
// types; never `double`), the packed shifted tiles for odd `double` up to 5088. On other GPUs
// they move with the waves: by the SMs and the threads an SM holds.
TEST(LabRecord, SwitchesFallWhereTheDocsSay) {
  using namespace tp::lab;
  auto small = [](int n, const tp::Residency& gpu) { return coarsen::few_waves(coarsen::tiles256<float>(n, n), gpu); };
  auto lean_float = [](int n, const tp::Residency& gpu) { return lean_for<float>(n, n, gpu); };
  auto lean_half = [](int n, const tp::Residency& gpu) { return lean_for<__half>(n, n, gpu); };
  auto packed = [](int n, const tp::Residency& gpu) { return coarsen::packed_double(coarsen::tiles256<double>(n, n), gpu); };
  expect_last_square(small, kH200, 3584, "128-byte tiles");
  expect_last_square(lean_float, kH200, 5056, "lean float");
  expect_last_square(lean_half, kH200, 2880, "lean half");
  expect_last_square(packed, kH200, 5088, "packed double");
  EXPECT_FALSE(lean_for<float>(6144, 6144, kH200));  // measured behind the general record there
  EXPECT_FALSE(lean_for<double>(2048, 2048, kH200));
  EXPECT_FALSE(lean_for<__half>(3072, 3072, kH200));  // measured behind the general record there
  EXPECT_FALSE(packed(6143, kH200));                  // measured behind the element path there
  // 108 SMs of 2048 threads (A100): waves of 864 blocks of 256 threads, 1728 of 128.
  expect_last_square(small, kA100, 3200, "128-byte tiles");
  expect_last_square(lean_float, kA100, 4544, "lean float");
  expect_last_square(lean_half, kA100, 2624, "lean half");
  // 46 SMs of 1536 threads: waves of 276 and 552 blocks.
  expect_last_square(small, kRtx46, 1792, "128-byte tiles");
  expect_last_square(lean_float, kRtx46, 2560, "lean float");
  expect_last_square(lean_half, kRtx46, 1472, "lean half");
  // 40 SMs of 1024 threads (T4): waves of 160 and 320 blocks.
  expect_last_square(small, kT4, 1344, "128-byte tiles");
  expect_last_square(lean_float, kT4, 1920, "lean float");
  expect_last_square(lean_half, kT4, 1088, "lean half");
}

// At few waves the record starts the chunks of 2-byte types on 16 bytes, unless every output
// row would then start its chunks 16 bytes into a sector (one place for all rows, 1 to 16
// bytes into a sector); 4- and 8-byte types always start on 32 bytes.
TEST(LabCoarsen, SixteenByteStartsUnlessEveryRowWouldMissItsSectors) {
  using tp::lab::coarsen::few_wave_start16;
  auto half_at = [](std::uintptr_t bytes) { return reinterpret_cast<const __half*>(std::uintptr_t(4096) + bytes); };
  EXPECT_TRUE(few_wave_start16(half_at(0), 4896));    // pitch 9792 bytes = 306 sectors, rows on sectors
  EXPECT_FALSE(few_wave_start16(half_at(2), 4896));   // out + 1: every row 2 bytes into a sector
  EXPECT_FALSE(few_wave_start16(half_at(16), 4896));  // 16 bytes in: the first 16-byte boundary
  EXPECT_TRUE(few_wave_start16(half_at(18), 4896));   // 18 bytes in: the next sector is the first boundary
  EXPECT_TRUE(few_wave_start16(half_at(2), 4899));    // rows at every place of their sectors
  EXPECT_TRUE(few_wave_start16(half_at(2), 4888));    // pitch 16 mod 32: every other row moves
  EXPECT_FALSE(few_wave_start16(reinterpret_cast<const float*>(std::uintptr_t(4096)), 4899));
}

}  // namespace
