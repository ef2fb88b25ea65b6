// Input fill, CPU reference transpose and bit-for-bit compare.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <vector>

#include "tp/buffer.hpp"
#include "tp/data.hpp"
#include "tp/dtype.hpp"

namespace {

template <typename T>
tp::Bits<T> bits_of(const T& v) {
  tp::Bits<T> b;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

template <typename T>
double as_double(const T& v) {
  if constexpr (std::is_same_v<T, __half>) return __half2float(v);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __bfloat162float(v);
  else return static_cast<double>(v);
}

template <typename T>
std::vector<T> filled(long long rows, long long cols, std::uint64_t seed = 7) {
  std::vector<T> v(static_cast<std::size_t>(rows * cols));
  tp::fill_distinct(v.data(), rows, cols, seed);
  return v;
}

template <typename T>
void expect_normal_values(const std::vector<T>& v) {
  for (const T& x : v) {
    const double d = as_double(x);
    ASSERT_TRUE(std::isfinite(d));
    ASSERT_NE(d, 0.0);
  }
}

template <typename T>
void expect_all_distinct(long long rows, long long cols) {
  const auto v = filled<T>(rows, cols);
  std::set<tp::Bits<T>> seen;
  for (const T& x : v) seen.insert(bits_of(x));
  EXPECT_EQ(seen.size(), v.size());
  expect_normal_values(v);
}

TEST(Fill, FloatValuesAreAllDistinct) { expect_all_distinct<float>(513, 769); }
TEST(Fill, DoubleValuesAreAllDistinct) { expect_all_distinct<double>(769, 513); }

template <typename T>
void expect_rows_and_columns_distinct(long long rows, long long cols) {
  const auto v = filled<T>(rows, cols);
  expect_normal_values(v);
  for (long long r = 0; r < rows; ++r) {
    std::set<tp::Bits<T>> row;
    for (long long c = 0; c < cols; ++c) row.insert(bits_of(v[r * cols + c]));
    ASSERT_EQ(row.size(), static_cast<std::size_t>(cols)) << "row " << r;
  }
  for (long long c = 0; c < cols; ++c) {
    std::set<tp::Bits<T>> col;
    for (long long r = 0; r < rows; ++r) col.insert(bits_of(v[r * cols + c]));
    ASSERT_EQ(col.size(), static_cast<std::size_t>(rows)) << "col " << c;
  }
}

TEST(Fill, HalfRowsAndColumnsAreDistinct) { expect_rows_and_columns_distinct<__half>(300, 517); }
TEST(Fill, Bf16RowsAndColumnsAreDistinct) { expect_rows_and_columns_distinct<__nv_bfloat16>(517, 300); }

TEST(Fill, HalfRowAsLongAsTheNormalValuesIsDistinct) {
  expect_rows_and_columns_distinct<__half>(1, 61440);
  expect_rows_and_columns_distinct<__half>(61440, 1);
}

template <typename T>
void expect_transposed_positions_differ(long long n) {
  const auto v = filled<T>(n, n);
  for (long long r = 0; r < n; ++r) {
    for (long long c = r + 1; c < n; ++c) {
      ASSERT_NE(bits_of(v[r * n + c]), bits_of(v[c * n + r])) << "(" << r << ", " << c << ")";
    }
  }
}

TEST(Fill, ElementAndItsTransposedPositionDiffer) {
  expect_transposed_positions_differ<float>(150);
  expect_transposed_positions_differ<double>(150);
  expect_transposed_positions_differ<__half>(150);
  expect_transposed_positions_differ<__nv_bfloat16>(150);
}

TEST(Fill, IsDeterministicForASeedAndChangesWithIt) {
  const auto a = filled<float>(40, 50, 1), b = filled<float>(40, 50, 1), c = filled<float>(40, 50, 2);
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(float)));
  EXPECT_NE(0, std::memcmp(a.data(), c.data(), a.size() * sizeof(float)));
}

// A block of the matrix, filled alone, equals the same block cut out of the whole matrix.
template <typename T>
void expect_block_is_cut_from_whole(long long rows, long long cols, long long row0, long long nrows, long long col0,
                                    long long ncols) {
  const auto whole = filled<T>(rows, cols, 7);
  std::vector<T> block(static_cast<std::size_t>(nrows * ncols));
  tp::fill_distinct_block(block.data(), row0, nrows, col0, ncols, cols, 7);
  for (long long r = 0; r < nrows; ++r) {
    ASSERT_EQ(0, std::memcmp(&block[r * ncols], &whole[(row0 + r) * cols + col0], ncols * sizeof(T)))
        << "row " << row0 + r << " of a " << rows << " x " << cols << " matrix";
  }
}

TEST(Fill, BlockIsCutFromTheWholeMatrix) {
  expect_block_is_cut_from_whole<float>(37, 53, 5, 20, 11, 30);
  expect_block_is_cut_from_whole<double>(37, 53, 0, 37, 52, 1);
  expect_block_is_cut_from_whole<__half>(300, 517, 299, 1, 0, 517);
  expect_block_is_cut_from_whole<__nv_bfloat16>(517, 300, 100, 17, 283, 17);
}

template <typename T>
std::vector<T> naive_transpose(const std::vector<T>& in, long long rows, long long cols) {
  std::vector<T> out(in.size());
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
  return out;
}

TEST(Reference, TransposesASmallMatrix) {
  const std::vector<float> in = {1, 2, 3,
                                 4, 5, 6};  // 2 x 3
  std::vector<float> out(6);
  tp::reference_transpose(out.data(), in.data(), 2, 3);
  EXPECT_EQ(out, (std::vector<float>{1, 4,
                                     2, 5,
                                     3, 6}));  // 3 x 2
}

TEST(Reference, MatchesNaiveLoopOnAwkwardShapes) {
  for (auto [rows, cols] : std::vector<std::pair<long long, long long>>{
           {1, 1}, {1, 130}, {130, 1}, {67, 129}, {129, 67}, {64, 64}, {200, 3}}) {
    const auto in = filled<__half>(rows, cols);
    std::vector<__half> out(in.size());
    tp::reference_transpose(out.data(), in.data(), rows, cols);
    const auto want = naive_transpose(in, rows, cols);
    EXPECT_TRUE(tp::compare_bits(want.data(), out.data(), cols, rows).ok()) << rows << " x " << cols;
  }
}

TEST(Compare, EqualBuffersAreOk) {
  const auto a = filled<double>(17, 19);
  const auto b = a;
  const tp::CompareResult r = tp::compare_bits(a.data(), b.data(), 17, 19);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.describe(), "OK");
}

TEST(Compare, ReportsTheFirstMismatchesWithPositions) {
  const auto want = filled<float>(10, 20);
  auto got = want;
  got[3 * 20 + 7] = 0.0f;
  got[9 * 20 + 19] = -1.0f;
  const tp::CompareResult r = tp::compare_bits(want.data(), got.data(), 10, 20);
  ASSERT_EQ(r.mismatches, 2u);
  ASSERT_EQ(r.first.size(), 2u);
  EXPECT_EQ(r.first[0].row, 3);
  EXPECT_EQ(r.first[0].col, 7);
  EXPECT_EQ(r.first[1].row, 9);
  EXPECT_EQ(r.first[1].col, 19);
  EXPECT_NE(r.first[0].got.find("0x00000000"), std::string::npos) << r.first[0].got;
  EXPECT_NE(r.describe().find("(row 3, col 7)"), std::string::npos) << r.describe();
}

TEST(Compare, CountsAllButReportsAtMostMax) {
  const auto want = filled<__nv_bfloat16>(5, 5);
  auto got = want;
  for (int i = 0; i < 10; ++i) got[i] = got[24 - i];
  const tp::CompareResult r = tp::compare_bits(want.data(), got.data(), 5, 5, 3);
  EXPECT_EQ(r.mismatches, 10u);
  EXPECT_EQ(r.first.size(), 3u);
}

TEST(Compare, PoisonNeverMatchesAnyInput) {
  for (tp::DType t : tp::kAllDTypes) {
    tp::dispatch(t, [&](auto tag) {
      using T = decltype(tag);
      const auto want = filled<T>(64, 64);
      std::vector<T> poisoned(want.size());
      std::memset(static_cast<void*>(poisoned.data()), tp::kPoisonByte, poisoned.size() * sizeof(T));
      EXPECT_EQ(tp::compare_bits(want.data(), poisoned.data(), 64, 64).mismatches, want.size())
          << tp::dtype_name(t);
    });
  }
}

}  // namespace
