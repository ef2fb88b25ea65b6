// The lab's shifted path (rows that are not a multiple of 16 bytes, pointers that are not
// 16-byte aligned), beyond the awkward shapes that every lab kernel goes through
// (tests/gpu/test_steps.cu): on the GPU, the record kernel and the shifted path's rows (every
// tile size, the line tile for odd cols and the packed tile always, output chunks starting on
// 32- or 16-byte boundaries) on odd shapes, and on pointers a few elements past a 16-byte
// boundary (`in` and `out` each on its own) with nothing written around the output, and the
// moved grid of the 16-byte path (kMovedGrid) on such pointers; on the CPU, the layout of
// both tiles in shared memory and the banks their store phase reads.
#include <gtest/gtest.h>

#include <cuda_fp16.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "../tests/exercises/banks.hpp"
#include "../tests/gpu_guard.hpp"
#include "lab_kernels.hpp"
#include "shifted_tiles.cuh"
#include "tp/buffer.hpp"
#include "tp/data.hpp"
#include "tp/error.hpp"
#include "tp/harness.hpp"

namespace {

// The kernels that take the shifted path on the cases below.
const std::vector<tp::Kernel>& shifted_kernels() {
  static const std::vector<tp::Kernel> list = [] {
    std::vector<tp::Kernel> v;
    for (tp::Kernel& k : tp::lab::coarsen_kernels()) {
      const bool record = k.name == "record" || k.name == "record_cs";  // (plain and evict-first stores)
      if (record || k.name.rfind("shifted", 0) == 0) v.push_back(std::move(k));
    }
    return v;
  }();
  return list;
}

class ShiftedPath : public ::testing::TestWithParam<tp::DType> {
 protected:
  void SetUp() override { TP_GPU_TEST_GUARD(); }
};

void expect_all_match(tp::DType dtype, const std::vector<tp::Shape>& shapes) {
  ASSERT_EQ(shifted_kernels().size(), 12u);  // record, record_cs and 10 shifted rows
  for (const tp::Shape shape : shapes) {
    tp::Case c(dtype, shape, /*seed=*/5000 + shape.rows * 7 + shape.cols);
    for (const tp::Kernel& k : shifted_kernels()) {
      const tp::CompareResult r = c.verify(k, 0);
      EXPECT_TRUE(r.ok()) << k.name << " on " << tp::describe_case(dtype, shape) << ": " << r.describe();
    }
  }
}

// Odd squares (the 16-byte chunks of consecutive rows start at every shift), rows and columns
// of a tile side plus one, a row or a column alone.
TEST_P(ShiftedPath, OddShapesMatchTheCpuReference) {
  expect_all_match(GetParam(), {{4899, 4899}, {4097, 4099}, {33, 4097}, {4097, 33}, {1, 4099}, {4099, 1}});
}

// Matrices smaller than a tile, around a tile side, and with part tiles on both edges (small
// enough for compute-sanitizer's racecheck).
TEST_P(ShiftedPath, SmallShapesMatchTheCpuReference) {
  expect_all_match(GetParam(), {{1, 1}, {1, 7}, {7, 1}, {3, 5}, {31, 33}, {63, 65}, {127, 129}, {255, 257}, {100, 1000}});
}

// Runs each kernel with `in` and `out` the given numbers of elements past a 256-byte boundary
// (pairs: in, out) on each shape. The input allocation ends where the matrix ends (a read past
// it is out of bounds for compute-sanitizer); the output has 16 elements of room on both
// sides, which must still be poison afterwards: no element outside the matrix is written.
void expect_offsets_match(tp::DType dtype, const std::vector<tp::Kernel>& kernels, const std::vector<tp::Shape>& shapes,
                          const std::vector<std::pair<int, int>>& offsets) {
  for (const tp::Shape shape : shapes) {
    tp::dispatch(dtype, [&](auto tag) {
      using T = decltype(tag);
      constexpr std::size_t kRoom = 16;  // elements around the output matrix
      const std::size_t n = std::size_t(shape.rows) * shape.cols;
      std::vector<T> input(n), want(n);
      tp::fill_distinct(input.data(), shape.rows, shape.cols, 77);
      tp::reference_transpose(want.data(), input.data(), shape.rows, shape.cols);
      for (const tp::Kernel& k : kernels) {
        for (const auto& [in_offset, out_offset] : offsets) {
          tp::DeviceBuffer d_in((n + in_offset) * sizeof(T)), d_out((n + out_offset + 2 * kRoom) * sizeof(T));
          T* in = d_in.as<T>() + in_offset;
          T* out = d_out.as<T>() + kRoom + out_offset;
          TP_CUDA_CHECK(cudaMemcpy(in, input.data(), n * sizeof(T), cudaMemcpyHostToDevice));
          d_out.poison();
          k.run(dtype, out, in, shape.rows, shape.cols, 0);
          TP_CUDA_CHECK(cudaDeviceSynchronize());
          const std::vector<T> got = tp::download<T>(d_out, n + out_offset + 2 * kRoom);
          const std::string where = k.name + " on " + tp::describe_case(dtype, shape) + ", in + " +
                                    std::to_string(in_offset) + ", out + " + std::to_string(out_offset);
          const tp::CompareResult r = tp::compare_bits(want.data(), got.data() + kRoom + out_offset, shape.cols, shape.rows);
          EXPECT_TRUE(r.ok()) << where << ": " << r.describe();
          const auto* bytes = reinterpret_cast<const unsigned char*>(got.data());
          const std::size_t before = (kRoom + out_offset) * sizeof(T), after = before + n * sizeof(T);
          std::size_t written = 0;  // bytes around the matrix that are no longer poison
          for (std::size_t b = 0; b < got.size() * sizeof(T); ++b) {
            if ((b < before || b >= after) && bytes[b] != tp::kPoisonByte) ++written;
          }
          EXPECT_EQ(written, 0u) << where << ": bytes written outside the output matrix";
        }
      }
    });
  }
}

// `in` and `out` each a few elements past a 16-byte boundary, on aligned and odd shapes.
TEST_P(ShiftedPath, OffsetPointersMatchAndWriteNothingAround) {
  expect_offsets_match(GetParam(), shifted_kernels(),
                       {{4096, 4096}, {4099, 4097}, {33, 4097}, {4097, 33}, {1, 4099}, {4099, 1}, {64, 64}, {2, 3}},
                       {{1, 0}, {0, 1}, {1, 1}, {3, 5}});
}

// The moved grid (kMovedGrid; the record on shapes with 16-byte rows): shapes whose rows and
// columns are multiples of 8 elements (16 bytes for every type), from one chunk to a few
// tiles, with pointers at places that move the grid by one element, by a chunk plus one, by
// whole chunks, and by all but one element of a tile side. The tiles at the first and last
// rows and columns then cross the matrix's edges within a chunk.
TEST_P(ShiftedPath, MovedGridMatchesOnOffsetPointersAndWritesNothingAround) {
  std::vector<tp::Kernel> kernels;
  for (tp::Kernel& k : tp::lab::coarsen_kernels()) {
    if (k.name == "record" || k.name.rfind("moved", 0) == 0) kernels.push_back(std::move(k));
  }
  ASSERT_EQ(kernels.size(), 4u);  // record, moved_tile128, moved_tile256, moved128_offset1 (here at the offsets below)
  const tp::DType dtype = GetParam();
  const int side = 256 / int(tp::dtype_size(dtype));  // elements of a 256-byte tile side
  expect_offsets_match(dtype, kernels, {{8, 8}, {8, 264}, {264, 8}, {136, 392}, {1024, 1032}, {4096, 4096}},
                       {{1, 0}, {0, 1}, {1, 1}, {9, 17}, {16, 48}, {side - 1, side / 2 + 1}});
}

INSTANTIATE_TEST_SUITE_P(Shifted, ShiftedPath, ::testing::ValuesIn(tp::kAllDTypes),
                         [](const ::testing::TestParamInfo<tp::DType>& info) { return tp::dtype_name(info.param); });

// The bank model (tests/exercises/banks.hpp) on the store phase's shared-memory reads, for
// the output rows' shift patterns t_j = t_0 + j (rows mod A), A = kStartBytes / sizeof(T)
// (the chunks start on kStartBytes boundaries, move_shifted_tile): the wavefronts of every warp's
// reads of a tile (the kernel's warps: shifted_warp_chunks), against the fewest possible
// (one per read for 2- and 4-byte types, two for 8-byte). place(r) is where tile column 0
// of tile row r lies in its row of Tile. Step k reads the chunk's tile row that is k mod V;
// reading the chunk's rows in order instead (in_row_order) puts all of a warp's reads at
// one place of their 16-byte chunks when rows x cols mod V is 1 (odd squares): 4 times the
// fewest wavefronts for 2- and 4-byte types.
struct BankCount {
  double worst = 0;  // the worst pattern's wavefronts / the fewest
  double mean = 0;   // mean over the patterns
  int patterns = 0;
  void add(double ratio) {
    worst = ratio > worst ? ratio : worst;
    mean = (mean * patterns + ratio) / (patterns + 1);
    ++patterns;
  }
};

template <typename T, int kR, int kC, typename Tile, int kStartBytes, typename Place>
double tile_read_wavefronts(Place place, int t0, int rm, bool in_row_order) {
  constexpr int kV = 16 / int(sizeof(T)), kA = kStartBytes / int(sizeof(T));
  constexpr int kWarpChunks = tp::lab::coarsen::detail::shifted_warp_chunks<T, kR>();  // the kernel's warps
  const int fewest = (32 * int(sizeof(T)) + 127) / 128;
  long long total = 0, least = 0;
  for (int warp0 = 0; warp0 < kR * kC / kV; warp0 += 32) {  // the output chunks, a warp at a time
    for (int k = 0; k < kV; ++k) {
      std::array<std::uint64_t, tp::banks::kLanes> address{};
      for (int lane = 0; lane < 32; ++lane) {
        int q = 0, j = 0;
        tp::lab::coarsen::detail::store_chunk<kR / kV, kWarpChunks>(warp0 + lane, q, j);
        const int a = (kA - (t0 + j * rm) % kA) % kA;  // the chunk: tile rows q V + a ... q V + a + V - 1
        const int r = in_row_order ? q * kV + a + k : tp::lab::coarsen::detail::shifted_step_row<kV>(q, a, k);
        address[lane] = std::uint64_t(Tile::at(r, j + place(r))) * sizeof(T);
      }
      total += tp::banks::wavefronts(address, int(sizeof(T)));
      least += fewest;
    }
  }
  return double(total) / double(least);
}

// The packed tile: rows start s_r = s_0 + r (cols mod V) elements past a 16-byte boundary,
// for every s_0, cols mod V, t_0 and rows mod A (or only the given cols and rows mod A).
template <typename T, int kTileBytes, int kStartBytes = 32>
BankCount packed_tile_wavefronts(bool in_row_order, int only_cols_mod = -1, int only_rows_mod = -1) {
  constexpr int kN = kTileBytes / int(sizeof(T)), kV = 16 / int(sizeof(T)), kA = kStartBytes / int(sizeof(T));
  using Tile = tp::lab::coarsen::detail::PackedTile<T, kN>;
  BankCount count;
  for (int s0 = 0; s0 < kV; ++s0) {
    for (int cm = 0; cm < kV; ++cm) {
      for (int t0 = 0; t0 < kA; ++t0) {
        for (int rm = 0; rm < kA; ++rm) {
          if ((only_cols_mod >= 0 && cm != only_cols_mod) || (only_rows_mod >= 0 && rm != only_rows_mod)) continue;
          count.add(tile_read_wavefronts<T, kN, kN, Tile, kStartBytes>([&](int r) { return (s0 + r * cm) % kV; }, t0, rm,
                                                                       in_row_order));
        }
      }
    }
  }
  return count;
}

// The line tile of kInBytes x kOutBytes bytes (as in transpose_shifted_with; square by
// default): rows start e_r = (b_0 + r cols sizeof(T)) mod 128 bytes into a line, for four
// b_0, every odd (or every even) cols mod 128 / sizeof(T), and a few t_0 and rows mod A.
template <typename T, int kInBytes, int kOutBytes = kInBytes, int kStartBytes = 32>
BankCount line_tile_wavefronts(bool odd_cols) {
  constexpr int kR = kOutBytes / int(sizeof(T)), kC = kInBytes / int(sizeof(T));
  constexpr int kA = kStartBytes / int(sizeof(T)), kSize = int(sizeof(T));
  using Tile = tp::lab::coarsen::detail::LineTile<T, kR, kC>;
  BankCount count;
  for (int b0 : {0, 16 + 3 * kSize, 64 + 5 * kSize, 128 - kSize}) {
    for (int cm = odd_cols ? 1 : 0; cm < 128 / kSize; cm += 2) {
      for (int t0 : {0, kA / 2 - 1, kA / 2 + 1, kA - 1}) {
        for (int rm : {0, 1, kA / 2 - 1, kA / 2 + 1, kA - 1}) {
          auto place = [&](int r) { return (b0 + r * cm * kSize) % 128 / kSize; };
          count.add(tile_read_wavefronts<T, kR, kC, Tile, kStartBytes>(place, t0, rm, false));
        }
      }
    }
  }
  return count;
}

void expect_at_most(const char* what, BankCount c, double worst, double mean) {
  EXPECT_LE(c.worst, worst) << what;
  EXPECT_LE(c.mean, mean) << what;
  std::printf("%s: worst %.2f, mean %.2f x the fewest wavefronts\n", what, c.worst, c.mean);
}

// 128-byte tiles: a warp reads 8 chunks of 4 output rows. 256-byte tiles: 16 chunks of 2
// output rows (shifted_warp_chunks), whose tile rows V apart repeat their places after 8 of
// them: twice the fewest wavefronts for 2- and 4-byte types, the price of 256-byte runs.
// Chunks from 32-byte sectors (the default) cost `half` more than from 16-byte boundaries.
TEST(LabShifted, PackedTileReadsSpreadOverTheBanks) {
  expect_at_most("packed, float, 256-byte tile", packed_tile_wavefronts<float, 256>(false), 2.0, 2.0);
  expect_at_most("packed, double, 256-byte tile", packed_tile_wavefronts<double, 256>(false), 1.0, 1.0);
  expect_at_most("packed, half, 256-byte tile", packed_tile_wavefronts<__half, 256>(false), 3.0, 2.3);
  expect_at_most("packed, float, 128-byte tile", packed_tile_wavefronts<float, 128>(false), 1.0, 1.0);
  expect_at_most("packed, double, 128-byte tile", packed_tile_wavefronts<double, 128>(false), 1.0, 1.0);
  expect_at_most("packed, half, 128-byte tile", packed_tile_wavefronts<__half, 128>(false), 2.0, 1.7);
  expect_at_most("packed, half, 128-byte tile, 16-byte starts", packed_tile_wavefronts<__half, 128, 16>(false), 1.75, 1.5);
}

TEST(LabShifted, ReadingTheRowsInOrderConflictsOnOddSquares) {
  // 4899 x 4899: rows and cols are 3 mod 4 (float) and 3 mod 8 (half).
  EXPECT_GE((packed_tile_wavefronts<float, 128>(true, 3, 3).mean), 4.0);
  EXPECT_GE((packed_tile_wavefronts<__half, 128>(true, 3, 3).mean), 4.0);
  EXPECT_LE((packed_tile_wavefronts<float, 128>(false, 3, 3).worst), 1.0);
}

TEST(LabShifted, LineTileReadsSpreadOverTheBanksForOddCols) {
  expect_at_most("lines, float, 256-byte tile", line_tile_wavefronts<float, 256>(true), 2.0, 2.0);
  expect_at_most("lines, double, 256-byte tile", line_tile_wavefronts<double, 256>(true), 1.0, 1.0);
  expect_at_most("lines, half, 256-byte tile", line_tile_wavefronts<__half, 256>(true), 2.5, 2.25);
  expect_at_most("lines, float, 128-byte tile", line_tile_wavefronts<float, 128>(true), 1.0, 1.0);
  expect_at_most("lines, half, 128-byte tile", line_tile_wavefronts<__half, 128>(true), 2.0, 1.55);
  expect_at_most("lines, float, 512 x 512-byte tile", line_tile_wavefronts<float, 512, 512>(true), 2.0, 2.0);
  expect_at_most("lines, half, 512 x 256-byte tile", line_tile_wavefronts<__half, 512, 256>(true), 2.5, 2.25);
  expect_at_most("lines, half, 256 x 128-byte tile", line_tile_wavefronts<__half, 256, 128>(true), 2.0, 1.55);
  expect_at_most("lines, float, 256 x 128-byte tile", line_tile_wavefronts<float, 256, 128>(true), 1.0, 1.0);
  expect_at_most("lines, half, 256-byte tile, 16-byte starts", line_tile_wavefronts<__half, 256, 256, 16>(true), 2.25, 2.15);
  expect_at_most("lines, half, 128-byte tile, 16-byte starts", line_tile_wavefronts<__half, 128, 128, 16>(true), 1.65, 1.4);
}

// Why the launcher takes the packed tile for even cols: rows V apart then start at places
// that repeat within 8 groups, and the line tile's reads conflict.
TEST(LabShifted, LineTileConflictsForEvenCols) {
  EXPECT_GE((line_tile_wavefronts<float, 128>(false).mean), 2.0);
  EXPECT_GE((line_tile_wavefronts<__half, 128>(false).mean), 2.0);
}

// The line tile: every row starts on a 128-byte line, holds kN elements from any place in
// its first line, and lies inside the shared array.
TEST(LabShifted, LineTileRowsStartOnLines) {
  using Tile = tp::lab::coarsen::detail::LineTile<float, 64>;
  static_assert(Tile::kRows == 71 && Tile::kPitch == 96 && Tile::kChunks == 71 * 24, "71 rows of 3 lines");
  for (int r = 0; r < Tile::kRows; ++r) {
    EXPECT_EQ(Tile::at(r, 0) % 32, 0) << "row " << r;                 // 128 bytes = 32 floats
    EXPECT_LE(Tile::at(r, 31 + 64), Tile::at(r, 0) + Tile::kPitch);  // place 31, 64 elements
    EXPECT_LE(Tile::at(r, Tile::kPitch), Tile::kChunks * 4) << "row " << r;
  }
}

// The packed tile: kN + A - 1 rows (A = 8 for `float`: chunks from 32-byte sectors) of
// kN / V + 1 chunks, a spare chunk after every V rows, every row 16-byte aligned, and all of
// it inside the shared array.
TEST(LabShifted, TileRowsAreAlignedAndInside) {
  using Tile = tp::lab::coarsen::detail::PackedTile<float, 64>;
  static_assert(Tile::kRows == 71 && Tile::kRowChunks == 17 && Tile::kChunks == 18 * (4 * 17 + 1),
                "71 rows of 17 chunks, in 18 groups of 4 rows and a spare chunk");
  for (int r = 0; r < Tile::kRows; ++r) {
    EXPECT_EQ(Tile::at(r, 0) % 4, 0) << "row " << r;  // 16 bytes = 4 floats
    EXPECT_LE(Tile::at(r, 17 * 4), Tile::kChunks * 4) << "row " << r;
    if (r > 0) EXPECT_GE(Tile::at(r, 0), Tile::at(r - 1, 17 * 4)) << "row " << r;  // rows do not overlap
    EXPECT_EQ(Tile::at(r, 5), Tile::at(r / 4, r % 4, 5));
  }
}

}  // namespace
