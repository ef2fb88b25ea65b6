// Step 08's rectangle decomposition (steps/08_inplace/rect.cuh) on the CPU: each pass is a
// permutation within columns or within rows, and the three passes together are the
// transpose, on shapes that exercise its index maths (single rows and columns, coprime
// sizes, common factors, squares, one side a multiple of the other). No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

#include "08_inplace/kernel.cuh"
#include "passes.hpp"

namespace {

using tp::step08::rect::Columns;
using tp::step08::rect::Plan;

// A column pass (a gather through column_source) and the row pass (a scatter through
// shuffle_target) on the CPU.
void columns(std::vector<std::int64_t>& d, const Plan& p, Columns pass) {
  tp::testing::gather_columns(d, p.m, p.n, [&](long long r, long long col) {
    return tp::step08::rect::column_source(p, pass, r, col);
  });
}
void rows(std::vector<std::int64_t>& d, const Plan& p) {
  tp::testing::scatter_rows(d, p.m, p.n, [&](long long i, long long j) { return tp::step08::rect::shuffle_target(p, i, j); });
}

// The passes of rect::transpose on an m x n matrix whose element (i, j) is i n + j; then
// element (j, i) of the n x m result must be i n + j.
void expect_transpose(long long m, long long n) {
  const Plan p = tp::step08::rect::make_plan(m, n);
  std::vector<std::int64_t> d(m * n);
  std::iota(d.begin(), d.end(), 0);
  if (p.c > 1) columns(d, p, Columns::prerotate);
  rows(d, p);
  columns(d, p, Columns::permute);
  for (long long j = 0; j < n; ++j) {
    for (long long i = 0; i < m; ++i) {
      ASSERT_EQ(d[j * m + i], i * n + j) << m << " x " << n << ": element (" << j << ", " << i << ") of the transpose";
    }
  }
}

TEST(Step08Rect, PlanHasTheGcdAndTheCofactors) {
  const Plan p = tp::step08::rect::make_plan(10000, 7000);
  EXPECT_EQ(p.c, 1000);
  EXPECT_EQ(p.a, 10);
  EXPECT_EQ(p.b, 7);
  EXPECT_EQ(tp::step08::rect::make_plan(7, 5).c, 1);
  EXPECT_EQ(tp::step08::rect::make_plan(8192, 16384).c, 8192);
}

TEST(Step08Rect, ThePassesComposeToTheTransposeOnEverySmallShape) {
  for (long long m = 1; m <= 36; ++m) {
    for (long long n = 1; n <= 36; ++n) ASSERT_NO_FATAL_FAILURE(expect_transpose(m, n));
  }
}

TEST(Step08Rect, ThePassesComposeToTheTransposeOnAwkwardShapes) {
  const std::vector<std::pair<long long, long long>> shapes = {
      {1, 3000}, {3000, 1}, {2, 3001},  {3001, 2},  {97, 89},   {89, 97},  {256, 255}, {60, 84},
      {84, 60},  {64, 96},  {128, 512}, {512, 128}, {100, 70},  {70, 100}, {1000, 700}, {31, 33},
      {3, 7000}, {7000, 3}, {720, 1260}, {8, 8192}, {8192, 8}, {1024, 2048}, {1023, 1025}};
  for (auto [m, n] : shapes) ASSERT_NO_FATAL_FAILURE(expect_transpose(m, n));
}

// The passes compute in 64 bits: j m and r n pass 2^31 long before the shapes that the
// GPU tests reach. One row of pass 2 and one column of each column pass must still be
// permutations at shapes of more than 2^32 elements, coprime and with a common factor.
TEST(Step08Rect, IndexMathsStaysExactBeyondTwoToThe31) {
  for (auto [m, n] : std::vector<std::pair<long long, long long>>{{65539, 131074}, {98304, 65536}}) {
    const Plan p = tp::step08::rect::make_plan(m, n);
    std::vector<char> used(n, 0);
    for (long long j = 0; j < n; ++j) {
      const long long dst = tp::step08::rect::shuffle_target(p, m - 1, j);
      ASSERT_TRUE(dst >= 0 && dst < n && !used[dst]) << m << " x " << n << ", j = " << j;
      used[dst] = 1;
    }
    for (Columns pass : {Columns::prerotate, Columns::permute}) {
      std::vector<char> rows_used(m, 0);
      for (long long r = 0; r < m; ++r) {
        const long long src = tp::step08::rect::column_source(p, pass, r, n - 1);
        ASSERT_TRUE(src >= 0 && src < m && !rows_used[src]) << m << " x " << n << ", r = " << r;
        rows_used[src] = 1;
      }
    }
  }
}

// The kernels' forms of the same index maths: Divisor, the RowWalker's steps along a row
// from any 16-byte chunk, and the column passes' base row plus column shift.
TEST(Step08Rect, TheKernelsIndexMathsMatchThePlan) {
  for (long long d : {1LL, 2LL, 3LL, 7LL, 1000LL, 65537LL, 2147483647LL}) {
    const tp::step08::rect::Divisor div(d);
    for (long long x : {0LL, 1LL, d - 1, d, d + 1, 3 * d - 1, (1LL << 40) + 12345, (1LL << 52) - 1}) {
      if (x < 0) continue;
      ASSERT_EQ(div.div(x), x / d) << x << " / " << d;
      ASSERT_EQ(div.mod(x), x % d) << x << " mod " << d;
    }
  }
  const std::vector<std::pair<long long, long long>> shapes = {
      {2, 3}, {3, 2}, {60, 84}, {84, 60}, {97, 89}, {16, 64}, {64, 16}, {720, 1260}, {1000, 700}, {8, 8192}, {24, 40}};
  for (auto [m, n] : shapes) {
    const Plan p = tp::step08::rect::make_plan(m, n);
    const tp::step08::rect::Fast f(p);
    for (long long i = 0; i < m; ++i) {
      for (long long j0 = 0; j0 < n; j0 += 8) {  // a walk from each chunk of 8 elements
        tp::step08::rect::RowWalker w(f, i, j0);
        for (long long j = j0; j < std::min(n, j0 + 8); ++j, w.next(f)) {
          ASSERT_EQ(static_cast<long long>(w.target), tp::step08::rect::shuffle_target(p, i, j)) << m << " x " << n << " (" << i << ", " << j << ")";
        }
      }
    }
    for (long long r = 0; r < m; ++r) {
      for (long long col = 0; col < n; ++col) {
        for (Columns pass : {Columns::prerotate, Columns::permute}) {
          const long long base = pass == Columns::prerotate ? r : tp::step08::rect::row_permutation(f, r);
          const long long src = (base + tp::step08::rect::column_shift(p, pass, col)) % m;
          ASSERT_EQ(src, tp::step08::rect::column_source(p, pass, r, col)) << m << " x " << n << " (" << r << ", " << col << ")";
        }
      }
    }
  }
}

// What the launcher refuses before touching the GPU: negative sizes, and a null or
// misaligned pointer when there is something to move. An empty matrix is nothing to do.
TEST(Step08Rect, BadArgumentsAreRefusedBeforeTheGpuIsTouched) {
  EXPECT_THROW(tp::step08::transpose_inplace<float>(nullptr, -1, 5), std::invalid_argument);
  EXPECT_THROW(tp::step08::transpose_inplace<float>(nullptr, 3, 4), std::invalid_argument);
  EXPECT_THROW(tp::step08::transpose_inplace<float>(nullptr, 1, 4), std::invalid_argument);
  float storage[4];
  float* misaligned = reinterpret_cast<float*>(reinterpret_cast<char*>(storage) + 1);
  EXPECT_THROW(tp::step08::transpose_inplace(misaligned, 2, 3), std::invalid_argument);
  EXPECT_NO_THROW(tp::step08::transpose_inplace<float>(nullptr, 0, 4));
}

}  // namespace
