/// @file steps/registry.cuh
/// @brief The one list of all steps' kernels. The gpu test suite verifies every kernel
/// listed here, and the tour times the kernel of each step marked `in_tour`. A new step joins
/// both by adding its function here and to all().
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "00_copy/kernel.cuh"
#include "01_naive_row/kernel.cuh"
#include "02_naive_col/kernel.cuh"
#include "03_unroll/kernel.cuh"
#include "04_vectorize/kernel.cuh"
#include "05_shared/kernel.cuh"
#include "06_padded/kernel.cuh"
#include "07_coarsen/kernel.cuh"
#include "08_inplace/kernel.cuh"
#include "tp/harness.hpp"

/// A generic launcher for make_kernel(): forwards (out, in, rows, cols, stream) to `fn`.
#define TP_LAUNCHER(fn) \
  [](auto* out, const auto* in, int rows, int cols, cudaStream_t stream) { fn(out, in, rows, cols, stream); }

/// A launcher for an in-place kernel `fn(data, n, stream)`: the harness passes the matrix as
/// `out` (and `in` is the same buffer). An empty shape does nothing; a rectangle is refused.
#define TP_INPLACE_LAUNCHER(fn)                                                               \
  [](auto* out, const auto*, int rows, int cols, cudaStream_t stream) {                       \
    ::tp::check_shape(rows, cols);                                                            \
    if (rows == 0 || cols == 0) return;                                                       \
    if (rows != cols)                                                                         \
      throw std::invalid_argument("in-place transpose needs a square matrix, got " +          \
                                  std::to_string(rows) + " x " + std::to_string(cols));       \
    fn(out, rows, stream);                                                                    \
  }

namespace tp::registry {

/// Marks the kernel that represents its step in the tour.
inline Kernel in_tour(Kernel k) {
  k.in_tour = true;
  return k;
}

inline std::vector<Kernel> step00() {
  return {make_kernel("00_copy", "copy_naive", Op::copy, TP_LAUNCHER(step00::copy_naive)),
          make_kernel("00_copy", "copy_2d", Op::copy, TP_LAUNCHER(step00::copy_2d)),
          in_tour(make_kernel("00_copy", "copy_vec16", Op::copy, TP_LAUNCHER(step00::copy_vec16))),
          make_kernel("00_copy", "copy_vec16_gridstride", Op::copy,
                      TP_LAUNCHER(step00::copy_vec16_gridstride))};
}

inline std::vector<Kernel> step01() {
  return {in_tour(make_kernel("01_naive_row", "naive_row", Op::transpose, TP_LAUNCHER(step01::transpose)))};
}

inline std::vector<Kernel> step02() {
  return {in_tour(make_kernel("02_naive_col", "naive_col", Op::transpose, TP_LAUNCHER(step02::transpose)))};
}

inline std::vector<Kernel> step03() {
  return {make_kernel("03_unroll", "unroll2", Op::transpose, TP_LAUNCHER(step03::transpose_unroll<2>)),
          in_tour(make_kernel("03_unroll", "unroll4", Op::transpose, TP_LAUNCHER(step03::transpose_unroll<4>))),
          make_kernel("03_unroll", "unroll8", Op::transpose, TP_LAUNCHER(step03::transpose_unroll<8>))};
}

inline std::vector<Kernel> step04() {
  return {in_tour(make_kernel("04_vectorize", "vec16_store", Op::transpose, TP_LAUNCHER(step04::transpose)))};
}

inline std::vector<Kernel> step05() {
  return {in_tour(make_kernel("05_shared", "shared_32x8", Op::transpose, TP_LAUNCHER(step05::transpose)))};
}

/// Step 06: the padded tile (headline), the swizzled one, and the tile shapes of the study.
inline std::vector<Kernel> step06() {
  using step06::Layout;
  return {in_tour(make_kernel("06_padded", "padded_32x8", Op::transpose, TP_LAUNCHER(step06::transpose))),
          make_kernel("06_padded", "swizzled_32x8", Op::transpose, TP_LAUNCHER(step06::transpose_swizzled)),
          make_kernel("06_padded", "padded_16x16", Op::transpose,
                      TP_LAUNCHER((step06::transpose_with<16, 16, Layout::padded>))),
          make_kernel("06_padded", "padded_32x16", Op::transpose,
                      TP_LAUNCHER((step06::transpose_with<32, 16, Layout::padded>))),
          make_kernel("06_padded", "padded_32x32", Op::transpose,
                      TP_LAUNCHER((step06::transpose_with<32, 32, Layout::padded>)))};
}

/// Step 07: the ablation. Each row adds one change to the row above it, up to the headline
/// `coarsen` (which adds column pairs, and small tiles for small matrices, to `columns`);
/// the last seven rows change one thing of the headline: 256-byte tiles at every size,
/// another tile order (grouped, diagonal), two interleaved streams of tiles, double
/// buffering, a persistent grid, bulk (TMA) stores.
inline std::vector<Kernel> step07() {
  using namespace step07;
  auto config = [](std::string name, auto launch) {
    return make_kernel("07_coarsen", std::move(name), Op::transpose, launch);
  };
  return {config("tile256B_elem", TP_LAUNCHER((transpose_with<256, 256, 256, 0>))),
          config("tile256B_vec16", TP_LAUNCHER((transpose_with<256, 256, 256, kVec16>))),
          config("vec16_streaming", TP_LAUNCHER((transpose_with<256, 256, 256, kVec16 | kStreaming>))),
          config("streaming_async", TP_LAUNCHER((transpose_with<256, 256, 256, kVec16 | kStreaming | kCpAsync>))),
          config("runs256", TP_LAUNCHER((transpose_with<256, 256, 256, kRuns256>))),
          config("columns", TP_LAUNCHER((transpose_tiles<256, 256, kColumnOrder>))),
          in_tour(config("coarsen", TP_LAUNCHER(step07::transpose))),
          config("coarsen_tile256", TP_LAUNCHER((transpose_tiles<256, 256>))),
          config("coarsen_grouped", TP_LAUNCHER((transpose_with<256, 256, 256, (kHeadline & ~kOrders) | kGrouped>))),
          config("coarsen_diagonal", TP_LAUNCHER((transpose_with<256, 256, 256, (kHeadline & ~kOrders) | kDiagonal>))),
          config("coarsen_interleaved", TP_LAUNCHER((transpose_with<256, 256, 256, kHeadline | kInterleave>))),
          config("coarsen_double_buffer", TP_LAUNCHER((transpose_with<256, 256, 256, kHeadline | kDoubleBuffer>))),
          config("coarsen_persistent", [](auto* out, const auto* in, int rows, int cols, cudaStream_t stream) {
            transpose_with<256, 256, 256, kHeadline>(out, in, rows, cols, stream, /*persistent=*/true);
          }),
          config("coarsen_bulk_store", TP_LAUNCHER((transpose_with<256, 256, 256, kHeadline | kBulkStore>)))};
}

/// Step 08: in place. The headline launches one block per tile pair, numbered column by
/// column and taken from two interleaved streams; the second row takes them in one stream;
/// the third launches one block per tile, and the blocks below the diagonal return at once;
/// the fourth numbers the pairs diagonal by diagonal.
inline std::vector<Kernel> step08() {
  using namespace step08;
  auto config = [](std::string name, auto launch) {
    return make_kernel("08_inplace", std::move(name), Op::transpose_inplace, launch);
  };
  return {in_tour(config("inplace", TP_INPLACE_LAUNCHER(step08::transpose_inplace))),
          config("inplace_one_stream", TP_INPLACE_LAUNCHER((transpose_inplace_with<256, 256, Grid::columns, 256, 1>))),
          config("inplace_square_grid", TP_INPLACE_LAUNCHER((transpose_inplace_with<256, 256, Grid::square, 256, 1>))),
          config("inplace_diagonals", TP_INPLACE_LAUNCHER((transpose_inplace_with<256, 256, Grid::diagonals, 256, 1>)))};
}

/// The kernel that represents a step (the one marked in_tour).
inline Kernel headline(const std::vector<Kernel>& step) {
  for (const Kernel& k : step) {
    if (k.in_tour) return k;
  }
  return step.front();
}

/// What a step's benchmark shows: the previous step's headline kernel, then this step's kernels.
inline std::vector<Kernel> versus_previous(const std::vector<Kernel>& previous, std::vector<Kernel> current) {
  current.insert(current.begin(), headline(previous));
  return current;
}

/// Every registered kernel, in step order.
inline std::vector<Kernel> all() {
  std::vector<Kernel> kernels;
  for (auto step : {step00(), step01(), step02(), step03(), step04(), step05(), step06(), step07(), step08()}) {
    for (Kernel& k : step) kernels.push_back(std::move(k));
  }
  return kernels;
}

}  // namespace tp::registry
