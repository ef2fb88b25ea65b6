// Step 08's two passes for rectangles with a large common factor (steps/08_inplace/
// cycles.cuh) on the CPU: the segments cover every moving chunk once and follow source(),
// and squares-then-cycles is the transpose, on small shapes with segments cut short so that
// the scratch path runs. No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "08_inplace/kernel.cuh"

namespace {

using tp::step08::cycles::Layout;
using tp::step08::cycles::Segment;

// Pass 2 as the GPU runs it, segments in either order: the tails of cut
// segments are saved, then each segment writes y_k <- y_(k+1) from its start.
void follow(std::vector<std::int64_t>& d, const Layout& l, const std::vector<Segment>& segments, bool reversed) {
  const long long g = l.g;
  std::vector<std::int64_t> scratch;
  for (const Segment& s : segments) {
    if (s.slot < 0) continue;
    ASSERT_EQ(std::size_t(s.slot) * g, scratch.size()) << "cut segments come first, in slot order";
    scratch.insert(scratch.end(), d.begin() + s.tail * g, d.begin() + (s.tail + 1) * g);
  }
  std::vector<Segment> order(segments);
  if (reversed) std::reverse(order.begin(), order.end());
  for (const Segment& s : order) {
    std::vector<std::int64_t> last(g);
    for (long long e = 0; e < g; ++e) last[e] = s.slot < 0 ? d[s.start * g + e] : scratch[s.slot * g + e];
    long long y = s.start;
    for (int k = 0; k < s.length; ++k) {
      const long long from = tp::step08::cycles::source(l, y);
      for (long long e = 0; e < g; ++e) d[y * g + e] = k + 1 == s.length ? last[e] : d[from * g + e];
      y = from;
    }
    ASSERT_EQ(y, s.tail) << "a segment ends at its tail";
  }
}

// Squares, then cycles, on an m x n matrix whose element (i, j) is i n + j.
void expect_transpose(long long m, long long n, long long max_length) {
  const Layout l = tp::step08::cycles::layout_of(m, n);
  std::vector<std::int64_t> d(m * n);
  std::iota(d.begin(), d.end(), 0);
  for (long long i = 0; i < l.p; ++i) {  // pass 1: square (i, j) transposed where it stands
    for (long long j = 0; j < l.q; ++j) {
      std::int64_t* s = d.data() + i * l.g * n + j * l.g;
      for (long long r = 0; r < l.g; ++r) {
        for (long long c = r + 1; c < l.g; ++c) std::swap(s[r * n + c], s[c * n + r]);
      }
    }
  }
  const std::vector<Segment> segments = tp::step08::cycles::find_segments(l, max_length);
  for (bool reversed : {false, true}) {
    std::vector<std::int64_t> e(d);
    ASSERT_NO_FATAL_FAILURE(follow(e, l, segments, reversed));
    for (long long j = 0; j < n; ++j) {
      for (long long i = 0; i < m; ++i) {
        ASSERT_EQ(e[j * m + i], i * n + j) << m << " x " << n << ", segments of at most " << max_length
                                           << ": element (" << j << ", " << i << ") of the transpose";
      }
    }
  }
}

TEST(Step08Cycles, SquaresThenCyclesAreTheTransposeOnEverySmallShape) {
  for (long long m = 1; m <= 24; ++m) {
    for (long long n = 1; n <= 24; ++n) {
      for (long long max_length : {1LL, 2LL, 5LL, 1000LL}) ASSERT_NO_FATAL_FAILURE(expect_transpose(m, n, max_length));
    }
  }
}

TEST(Step08Cycles, SquaresThenCyclesAreTheTransposeOnShapesLikeTheMeasuredOnes) {
  // 10000 x 7000 and 8192 x 16384 scaled down: the same p and q, small g.
  for (auto [m, n] : std::vector<std::pair<long long, long long>>{{40, 28}, {28, 40}, {32, 64}, {64, 32}, {30, 210}}) {
    for (long long max_length : {3LL, 64LL}) ASSERT_NO_FATAL_FAILURE(expect_transpose(m, n, max_length));
  }
}

// Each moving chunk is written by exactly one segment, fixed points by none; cut segments
// are at most max_length long, and there are few enough of them for the scratch bound.
TEST(Step08Cycles, SegmentsCoverEveryMovingChunkOnce) {
  for (auto [m, n] : std::vector<std::pair<long long, long long>>{{10000, 7000}, {8192, 16384}, {3000, 7000}, {1024, 40960}}) {
    const Layout l = tp::step08::cycles::layout_of(m, n);
    for (int sms : {1, 132}) {
      const long long max_length = tp::step08::cycles::max_segment_length(l, sms);
      const std::vector<Segment> segments = tp::step08::cycles::find_segments(l, max_length);
      std::vector<char> written(l.chunks(), 0);
      long long cut = 0;
      for (const Segment& s : segments) {
        ASSERT_LE(s.length, max_length);
        cut += s.slot >= 0;
        long long y = s.start;
        for (int k = 0; k < s.length; ++k, y = tp::step08::cycles::source(l, y)) {
          ASSERT_FALSE(written[y]) << m << " x " << n << ": chunk " << y << " is written twice";
          written[y] = 1;
        }
      }
      const tp::step08::cycles::Sources from(l);  // the kernel's form of source()
      for (long long y = 0; y < l.chunks(); ++y) {
        ASSERT_EQ(from(unsigned(y)), tp::step08::cycles::source(l, y)) << m << " x " << n << ": chunk " << y;
        if (!written[y]) ASSERT_EQ(tp::step08::cycles::source(l, y), y) << m << " x " << n << ": chunk " << y << " never moves";
      }
      EXPECT_LE(cut * l.g, sms * std::max(m, n)) << m << " x " << n << ": scratch over sms x max(rows, cols)";
    }
  }
}

// Which shapes take the two passes, in each element size.
TEST(Step08Cycles, TheMeasuredShapesTakeTwoPassesAndOthersThree) {
  alignas(16) static float f;
  const auto* p4 = &f;
  const auto* p2 = reinterpret_cast<const std::uint16_t*>(&f);
  const auto* p8 = reinterpret_cast<const double*>(&f);
  for (auto [m, n] : std::vector<std::pair<long long, long long>>{{8192, 16384}, {10000, 7000}, {7000, 10000}}) {
    EXPECT_TRUE(tp::step08::cycles::takes(p4, m, n)) << m << " x " << n;
    EXPECT_TRUE(tp::step08::cycles::takes(p2, m, n)) << m << " x " << n;
    EXPECT_TRUE(tp::step08::cycles::takes(p8, m, n)) << m << " x " << n;
  }
  EXPECT_FALSE(tp::step08::cycles::takes(p2, 40000, 53688));  // g = 8: 16-byte chunks
  EXPECT_FALSE(tp::step08::cycles::takes(p4, 4097, 4099));     // coprime
  EXPECT_FALSE(tp::step08::cycles::takes(p4, 128 * 17, 128 * 19));  // min(p, q) = 17 > 16
  EXPECT_FALSE(tp::step08::cycles::takes(p4 + 1, 8192, 16384));  // not 16-byte aligned
}

}  // namespace
