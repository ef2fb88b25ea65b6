// Step 09's arithmetic on the CPU: the blocks, the staging size, the check of the ranks'
// requests, and the whole exchange simulated on the host with the same Layout calls as the
// GPU code (pack = transpose a slab, send rows c_j .., place = copy into columns).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "09_multi_gpu/agree.cuh"
#include "09_multi_gpu/blocks.hpp"

namespace {

using tp::step09::Layout;
using tp::step09::Split;

TEST(MultiGpuBlocks, SplitIsEvenContiguousAndComplete) {
  for (long long n : {0LL, 1LL, 5LL, 7LL, 64LL, 1001LL}) {
    for (int parts : {1, 2, 3, 4, 8}) {
      const Split s{n, parts};
      long long next = 0;
      for (int p = 0; p < parts; ++p) {
        EXPECT_EQ(s.begin(p), next) << n << " over " << parts << ", part " << p;
        EXPECT_LE(s.size(p), s.largest());
        EXPECT_GE(s.size(p), s.largest() - 1);
        next += s.size(p);
      }
      EXPECT_EQ(next, n) << n << " over " << parts;
    }
  }
}

// The whole transpose, on the host, with the GPU code's offsets: every rank packs, sends,
// receives and places each chunk; the result must be the transpose, and every element of
// every rank's output must be written exactly once.
std::vector<std::vector<long long>> simulate(long long rows, long long cols, int ranks, int chunks) {
  std::vector<std::vector<long long>> out(ranks);
  std::vector<std::vector<int>> writes(ranks);
  for (int j = 0; j < ranks; ++j) {
    const Layout lj{rows, cols, ranks, j, chunks};
    out[j].assign(lj.out_rows() * rows, -1);
    writes[j].assign(out[j].size(), 0);
  }
  for (int k = 0; k < chunks; ++k) {
    for (int i = 0; i < ranks; ++i) {  // rank i packs slab k: cols x slab
      const Layout li{rows, cols, ranks, i, chunks};
      const long long slab = li.slab(i, k), first = li.rows_of().begin(i) + li.slabs(i).begin(k);
      std::vector<long long> send(cols * slab);
      for (long long r = 0; r < slab; ++r)
        for (long long c = 0; c < cols; ++c) send[c * slab + r] = (first + r) * cols + c;  // value = global index
      for (int j = 0; j < ranks; ++j) {  // rank j receives rows c_j .. of it and places them
        const Layout lj{rows, cols, ranks, j, chunks};
        const long long* piece = send.data() + li.cols_of().begin(j) * slab;
        EXPECT_EQ(lj.slab(i, k), slab);
        EXPECT_LE(std::size_t(lj.recv_offset(i, k) + lj.out_rows() * slab), lj.recv_elems());
        for (long long r = 0; r < lj.out_rows(); ++r) {
          for (long long c = 0; c < slab; ++c) {
            const long long at = r * rows + lj.out_column(i, k) + c;
            out[j][at] = piece[r * slab + c];
            ++writes[j][at];
          }
        }
      }
    }
  }
  for (int j = 0; j < ranks; ++j) {
    for (int w : writes[j]) EXPECT_EQ(w, 1) << "rank " << j << ": an element written " << w << " times";
  }
  return out;
}

TEST(MultiGpuBlocks, SimulatedExchangeGivesTheTranspose) {
  struct Case { long long rows, cols; int ranks, chunks; };
  for (const Case& c : {Case{1, 1, 2, 1}, Case{1, 9, 2, 4}, Case{9, 1, 4, 4}, Case{3, 5, 4, 4}, Case{7, 13, 3, 2},
                        Case{33, 20, 4, 7}, Case{64, 64, 2, 1}, Case{17, 40, 8, 3}}) {
    SCOPED_TRACE(std::to_string(c.rows) + " x " + std::to_string(c.cols) + " on " + std::to_string(c.ranks) +
                 " ranks in " + std::to_string(c.chunks) + " chunks");
    const auto out = simulate(c.rows, c.cols, c.ranks, c.chunks);
    for (int j = 0; j < c.ranks; ++j) {
      const Layout lj{c.rows, c.cols, c.ranks, j, c.chunks};
      for (long long r = 0; r < lj.out_rows(); ++r) {
        for (long long col = 0; col < c.rows; ++col) {  // transpose row = input column cols_of().begin(j) + r
          ASSERT_EQ(out[j][r * c.rows + col], col * c.cols + lj.cols_of().begin(j) + r) << "rank " << j;
        }
      }
    }
  }
}

TEST(MultiGpuBlocks, FourChunksStageAboutOneShard) {
  for (int ranks : {2, 4, 8}) {
    const Layout l{65536, 65536, ranks, ranks - 1, 4};
    const double shard = double(l.in_rows()) * l.cols;
    EXPECT_LE(l.staging_elems(), shard * 1.001) << ranks << " ranks";
    const Layout one{65536, 65536, ranks, 0, 1};
    EXPECT_NEAR(one.staging_elems() / shard, 2.0, 0.01) << "one chunk: a send and a receive buffer";
  }
}

std::vector<tp::step09::Request> requests(int ranks) {
  return std::vector<tp::step09::Request>(ranks, tp::step09::Request{100, 30, 0, 4, 0, 0});  // float
}

TEST(MultiGpuBlocks, RequestsThatAgreeHaveNoProblem) { EXPECT_EQ(tp::step09::first_problem(requests(4)), ""); }

TEST(MultiGpuBlocks, EveryKindOfBadRequestIsNamed) {
  struct Bad { int rank; std::string field; std::string expect; };
  for (const Bad& b : {Bad{2, "rows", "rank 2 of 4: was given 99 x 30 float"}, Bad{1, "type", "30 bf16 in 4 chunks, rank 0 100 x 30 half"},
                       Bad{3, "chunks", "rank 3 of 4: chunks must be at least 1"}, Bad{0, "negative", "negative shape"},
                       Bad{1, "in", "rank 1 of 4: `in` is null"}, Bad{3, "out", "rank 3 of 4: `out` is null"}}) {
    auto all = requests(4);
    auto& q = all[b.rank];
    if (b.field == "rows") q.rows = 99;
    if (b.field == "type") {  // bf16 beside half: the same size, another type
      for (auto& each : all) each.dtype = static_cast<long long>(tp::DType::f16);
      q.dtype = static_cast<long long>(tp::DType::bf16);
    }
    if (b.field == "chunks") q.chunks = 0;
    if (b.field == "negative") { for (auto& each : all) each.cols = -30; }
    if (b.field == "in") q.in_is_null = 1;
    if (b.field == "out") q.out_is_null = 1;
    const std::string problem = tp::step09::first_problem(all);
    EXPECT_NE(problem.find(b.expect), std::string::npos) << b.field << ": " << problem;
  }
}

TEST(MultiGpuBlocks, NullPointersAreFineForEmptyBlocks) {
  auto all = std::vector<tp::step09::Request>(4, tp::step09::Request{2, 30, 0, 4, 0, 0});
  all[3].in_is_null = 1;  // 2 rows over 4 ranks: rank 3 holds none (but gets 7 rows of the transpose)
  EXPECT_EQ(tp::step09::first_problem(all), "");
  all[3].out_is_null = 1;
  EXPECT_NE(tp::step09::first_problem(all).find("`out` is null"), std::string::npos);
}

}  // namespace
