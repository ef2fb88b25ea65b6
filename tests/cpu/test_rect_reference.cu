// Step 08's reference for rectangles (steps/08_inplace/rect_reference.cuh) on the CPU: its
// index functions, the very ones its kernels call, applied pass by pass as the kernels apply
// them (a column pass gathers, the row pass scatters), give the transpose; each pass moves
// elements only within its lines; pass 1 is the identity on coprime sides (which is why it
// is skipped there) and no pass can be left out elsewhere. No GPU needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

#include "08_inplace/rect_reference.cuh"
#include "passes.hpp"

namespace {

namespace ref = tp::step08::reference;
using tp::testing::Matrix;

// A column pass as permute_columns runs it (a gather through pass1_source or pass3_source),
// the row pass as shuffle_rows runs it (a scatter through pass2_target).
void column_pass(Matrix& d, const ref::Plan& p, int pass) {
  tp::testing::gather_columns(d, p.m, p.n, [&](long long r, long long j) {
    return pass == 1 ? ref::pass1_source(p, r, j) : ref::pass3_source(p, r, j);
  });
}
void row_pass(Matrix& d, const ref::Plan& p) {
  tp::testing::scatter_rows(d, p.m, p.n, [&](long long i, long long j) { return ref::pass2_target(p, i, j); });
}

// The m x n matrix whose element (i, j) is its position i n + j, after the given passes (1,
// 2, 3), each run whatever c is.
Matrix after(long long m, long long n, std::vector<int> passes) {
  const ref::Plan p = ref::plan_of(m, n);
  Matrix d(std::size_t(m * n));
  std::iota(d.begin(), d.end(), 0);
  for (int pass : passes) {
    if (pass == 2) row_pass(d, p);
    else column_pass(d, p, pass);
  }
  return d;
}

// Whether `d`, read as n x m, is the transpose: its element (j, i) is i n + j.
bool is_transpose(const Matrix& d, long long m, long long n) {
  for (long long j = 0; j < n; ++j) {
    for (long long i = 0; i < m; ++i) {
      if (d[j * m + i] != i * n + j) return false;
    }
  }
  return true;
}

// What transpose_inplace runs: pass 1 only when c > 1, then passes 2 and 3.
void expect_transpose(long long m, long long n) {
  const std::vector<int> passes = ref::plan_of(m, n).c > 1 ? std::vector<int>{1, 2, 3} : std::vector<int>{2, 3};
  const Matrix d = after(m, n, passes);
  ASSERT_FALSE(::testing::Test::HasFailure()) << m << " x " << n;
  EXPECT_TRUE(is_transpose(d, m, n)) << m << " x " << n << " is not transposed";
}

TEST(Step08Reference, PlanHasTheGcdAndTheCofactors) {
  const ref::Plan p = ref::plan_of(4, 6);
  EXPECT_EQ(p.c, 2);
  EXPECT_EQ(p.a, 2);
  EXPECT_EQ(p.b, 3);
  EXPECT_EQ(ref::plan_of(5, 7).c, 1);
  EXPECT_EQ(ref::plan_of(1, 9).c, 1);
}

TEST(Step08Reference, ThePassesGiveTheTransposeOnNamedShapes) {
  const std::vector<std::pair<long long, long long>> shapes = {
      {1, 1},  {1, 9},   {9, 1},   {2, 3},   {3, 2},     {4, 6},     {6, 4},      {5, 7},   {7, 5},
      {12, 8}, {8, 12},  {13, 17}, {97, 89}, {101, 103}, {60, 84},   {84, 60},    {64, 96}, {1, 3000},
      {3000, 1}, {3, 700}, {700, 3}, {8, 8}, {31, 31},   {256, 255}, {720, 1260}, {8, 1024}};
  for (auto [m, n] : shapes) ASSERT_NO_FATAL_FAILURE(expect_transpose(m, n));
}

TEST(Step08Reference, ThePassesGiveTheTransposeOnEverySmallShape) {
  for (long long m = 1; m <= 30; ++m) {
    for (long long n = 1; n <= 30; ++n) ASSERT_NO_FATAL_FAILURE(expect_transpose(m, n));
  }
}

// The worked example of the chapter (rectangles.md), grid by grid: 4 x 6, c = 2, a = 2, b = 3.
TEST(Step08Reference, TheChaptersWorkedExample) {
  EXPECT_EQ(after(4, 6, {1}), (Matrix{0, 1, 2, 21, 22, 23,  //
                                      6, 7, 8, 3, 4, 5,     //
                                      12, 13, 14, 9, 10, 11,  //
                                      18, 19, 20, 15, 16, 17}));
  EXPECT_EQ(after(4, 6, {1, 2}), (Matrix{0, 22, 2, 21, 1, 23,  //
                                         3, 6, 5, 8, 4, 7,     //
                                         13, 9, 12, 11, 14, 10,  //
                                         16, 19, 15, 18, 17, 20}));
  EXPECT_EQ(after(4, 6, {1, 2, 3}), (Matrix{0, 6, 12, 18, 1, 7,  //
                                            13, 19, 2, 8, 14, 20,  //
                                            3, 9, 15, 21, 4, 10,  //
                                            16, 22, 5, 11, 17, 23}));
}

// On coprime sides pass 1 rotates every column by j / b = j / n = 0: skipping it is exact.
TEST(Step08Reference, PassOneIsTheIdentityOnCoprimeSides) {
  for (auto [m, n] : std::vector<std::pair<long long, long long>>{{2, 3}, {5, 7}, {1, 9}, {9, 1}, {13, 17}, {97, 89}}) {
    Matrix start(std::size_t(m * n));
    std::iota(start.begin(), start.end(), 0);
    EXPECT_EQ(after(m, n, {1}), start) << m << " x " << n;
  }
}

// The test can fail: with a common factor, leaving out any one pass is not the transpose.
TEST(Step08Reference, NoPassCanBeLeftOutWithACommonFactor) {
  for (auto [m, n] : std::vector<std::pair<long long, long long>>{{4, 6}, {6, 4}, {12, 8}, {8, 12}, {60, 84}}) {
    EXPECT_FALSE(is_transpose(after(m, n, {2, 3}), m, n)) << m << " x " << n << " without pass 1";
    EXPECT_FALSE(is_transpose(after(m, n, {1, 3}), m, n)) << m << " x " << n << " without pass 2";
    EXPECT_FALSE(is_transpose(after(m, n, {1, 2}), m, n)) << m << " x " << n << " without pass 3";
  }
}

// The index maths is 64-bit: j m and r n pass 2^31 long before the GPU tests' shapes do.
// One row of pass 2 and one column of passes 1 and 3 are still permutations beyond 2^32 elements.
TEST(Step08Reference, IndexMathsStaysExactBeyondTwoToThe31) {
  for (auto [m, n] : std::vector<std::pair<long long, long long>>{{65539, 131074}, {98304, 65536}}) {
    const ref::Plan p = ref::plan_of(m, n);
    std::vector<char> seen(std::size_t(n), 0);
    for (long long j = 0; j < n; ++j) {
      const long long to = ref::pass2_target(p, m - 1, j);
      ASSERT_TRUE(to >= 0 && to < n && !seen[to]) << m << " x " << n << ", j = " << j;
      seen[to] = 1;
    }
    for (int pass : {1, 3}) {
      std::vector<char> rows(std::size_t(m), 0);
      for (long long r = 0; r < m; ++r) {
        const long long from = pass == 1 ? ref::pass1_source(p, r, n - 1) : ref::pass3_source(p, r, n - 1);
        ASSERT_TRUE(from >= 0 && from < m && !rows[from]) << m << " x " << n << ", pass " << pass << ", r = " << r;
        rows[from] = 1;
      }
    }
  }
}

// The API's contract, checked before the GPU is touched: negative sizes and a null or
// misaligned matrix throw; an empty one is nothing to do.
TEST(Step08Reference, BadArgumentsAreRefusedBeforeTheGpuIsTouched) {
  EXPECT_THROW(ref::transpose_inplace<float>(nullptr, -1, 5), std::invalid_argument);
  EXPECT_THROW(ref::transpose_inplace<float>(nullptr, 3, -5), std::invalid_argument);
  EXPECT_THROW(ref::transpose_inplace<float>(nullptr, 3, 4), std::invalid_argument);
  float storage[4];
  float* misaligned = reinterpret_cast<float*>(reinterpret_cast<char*>(storage) + 1);
  EXPECT_THROW(ref::transpose_inplace(misaligned, 2, 3), std::invalid_argument);
  EXPECT_NO_THROW(ref::transpose_inplace<float>(nullptr, 0, 4));
  EXPECT_NO_THROW(ref::transpose_inplace<double>(nullptr, 4, 0));
}

}  // namespace
