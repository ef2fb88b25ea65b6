// The lab's kernels, compiled once (lab/lab_kernels.hpp).
#include "lab_kernels.hpp"

#include <string>
#include <type_traits>
#include <utility>

#include "ablation.cuh"
#include "inplace_lab.cuh"
#include "launchers.hpp"
#include "lean_tile.cuh"
#include "parity_tile.cuh"
#include "record.cuh"
#include "record.hpp"
#include "record_general.cuh"
#include "shifted.cuh"
#include "tile_kernel.cuh"

namespace tp::lab {

namespace {

/// The evict-first hint on the loads AND the stores (what the first ablation measured as one
/// row): beside the main line's EvictFirstStores and the loads-only EvictFirstLoads.
struct EvictFirstBoth : ablation::EvictFirstStores {
  static constexpr bool kEvictFirstLoads = true;
};

/// The lab's headline (kHeadline, 256 x 256-byte tiles, two regions at the 128 KB pitch) with
/// at most `blocks` blocks per SM: the occupancy rows.
auto at_most_blocks_per_sm(int blocks) {
  return [blocks](auto* out, const auto* in, int rows, int cols, cudaStream_t stream) {
    using T = std::remove_pointer_t<decltype(out)>;
    using namespace coarsen;
    if (pitch_is_128k_multiple<T>(cols)) {
      transpose_with<256, 256, 256, kHeadline | kInterleave>(out, in, rows, cols, stream, blocks);
    } else {
      transpose_with<256, 256, 256, kHeadline>(out, in, rows, cols, stream, blocks);
    }
  };
}

}  // namespace

std::vector<Kernel> coarsen_kernels() {
  using namespace coarsen;
  auto row = [](std::string name, auto launch) { return make_kernel("lab", std::move(name), Op::transpose, launch); };
  auto offset1 = [&](const std::string& name, auto launch) { return at_offset(row(name, launch), name, 1); };
  return {record_kernel(),
          at_offset(record_kernel(), "record_offset1", 1),  // offset pointers: in + 1 and out + 1
          at_offset(record_kernel(), "record_offset8", 8),  // 16 bytes for 2-byte types
          // The record without the lean tile (its configuration for every shape), and that with
          // the evict-first hint on its 16-byte stores (the record until plain stores).
          row("record_general", TP_LAUNCHER(transpose_record_general)),
          row("record_cs", TP_LAUNCHER(transpose_record_general<true>)),
          row("shifted_tile128", TP_LAUNCHER((transpose_shifted<128, 128>))),
          row("shifted_tile256", TP_LAUNCHER((transpose_shifted<256, 256>))),
          row("shifted_large", TP_LAUNCHER(transpose_shifted_large)),
          row("shifted_flat", TP_LAUNCHER(transpose_shifted_flat)),
          // Output chunks from 16-byte boundaries instead of 32-byte sectors.
          row("shifted16_flat", TP_LAUNCHER((transpose_shifted_with<256, 128, 256, true, 16>))),
          row("shifted16_tile128", TP_LAUNCHER((transpose_shifted<128, 128, true, 16>))),
          row("shifted16_tile256", TP_LAUNCHER((transpose_shifted<256, 256, true, 16>))),
          row("shifted16_large", TP_LAUNCHER(transpose_shifted_large<16>)),
          // The packed tile for odd cols too (where the record takes the line tile, but for `double`).
          row("shifted_packed128", TP_LAUNCHER((transpose_shifted<128, 128, false>))),
          row("shifted_packed256", TP_LAUNCHER((transpose_shifted<256, 256, false>))),
          // The moved grid with either tile, whatever the shape (the record picks one): for the tests.
          row("moved_tile128", TP_LAUNCHER((transpose_tiles<128, 128, kHeadline | kMovedGrid>))),
          row("moved_tile256", TP_LAUNCHER((transpose_tiles<256, 256, kHeadline | kMovedGrid>))),
          // The record's small tiles on a moved grid (pointers 1 element in), whatever the size.
          offset1("moved128_offset1", TP_LAUNCHER((transpose_tiles<128, 128, kRecordFeatures>))),
          row("elements64", TP_LAUNCHER(transpose_elements64)),
          // The element path with 256 x 256-byte tiles (32 x 32 elements for `double`), and with
          // 32 rows of 512 bytes.
          row("elements_tile256", TP_LAUNCHER((transpose_with<256, 256, 256, kColumns>))),
          row("elements_tile512x256", TP_LAUNCHER((transpose_with<512, 256, 256, kColumns>))),
          // The parity tile for 8-byte types (lab/parity_tile.cuh), else the general record.
          row("parity64", [](auto* out, const auto* in, int rows, int cols, cudaStream_t stream) {
            parity::transpose<64>(out, in, rows, cols, stream, TP_LAUNCHER(transpose_record_general));
          }),
          row("parity32", [](auto* out, const auto* in, int rows, int cols, cudaStream_t stream) {
            parity::transpose<32>(out, in, rows, cols, stream, TP_LAUNCHER(transpose_record_general));
          }),
          // Step 07's first ablation (lab/ablation.cuh), row-major tile order: the rows that
          // left the main line, and the evict-first hint on the loads.
          row("tile256B_elem", TP_LAUNCHER(ablation::transpose<ablation::Coarsened>)),
          row("tile256B_vec16", TP_LAUNCHER(ablation::transpose<ablation::Vec16>)),
          row("evict_first_stores", TP_LAUNCHER(ablation::transpose<ablation::EvictFirstStores>)),
          row("ablation_cp_async", TP_LAUNCHER(ablation::transpose<ablation::CpAsync>)),
          row("column_pairs", TP_LAUNCHER(ablation::transpose<ablation::ColumnPairs>)),
          row("evict_first_loads", TP_LAUNCHER(ablation::transpose<ablation::EvictFirstLoads>)),
          row("evict_first_both", TP_LAUNCHER(ablation::transpose<EvictFirstBoth>)),
          row("runs256", TP_LAUNCHER((transpose_with<256, 256, 256, kRuns256>))),
          row("runs128_pairs", TP_LAUNCHER((transpose_with<256, 256, 256, (kHeadline & ~kStore256)>))),
          row("headline_tile256", TP_LAUNCHER((transpose_tiles<256, 256>))),
          row("headline_tile128", TP_LAUNCHER((transpose_tiles<128, 128>))),
          // Either tile with as many blocks per SM as its threads allow (32 registers per thread).
          row("tile128_16blocks", TP_LAUNCHER((transpose_tiles<128, 128, kHeadline, 16>))),
          row("tile256_8blocks", TP_LAUNCHER((transpose_tiles<256, 256, kHeadline, 8>))),
          // Either tile without the evict-first hint on its stores, without cp.async (16-byte
          // loads through registers, which kStreaming marks evict-first too), or without both
          // (plain loads and stores: the recipe of torch.compile's kernel).
          row("tile128_no_cs", TP_LAUNCHER((transpose_tiles<128, 128, kHeadline & ~kStreaming>))),
          row("tile128_no_async", TP_LAUNCHER((transpose_tiles<128, 128, kHeadline & ~kCpAsync>))),
          row("tile128_no_cs_async", TP_LAUNCHER((transpose_tiles<128, 128, kHeadline & ~(kStreaming | kCpAsync)>))),
          // The small tile with plain stores in row-major tile order, or without column pairs
          // (the record's choice at few waves, against torch.compile's kernel at 2048 and 4096).
          row("tile128_no_cs_rows", TP_LAUNCHER((transpose_tiles<128, 128, kHeadline & ~(kStreaming | kColumns)>))),
          row("tile128_no_cs_no_pairs", TP_LAUNCHER((transpose_tiles<128, 128, kHeadline & ~(kStreaming | kPairs)>))),
          // The lean small tile where its tiles fill the matrix exactly (lab/lean_tile.cuh), at
          // every size and type, else the general record.
          row("lean_tile128", [](auto* out, const auto* in, int rows, int cols, cudaStream_t stream) {
            lean::transpose(out, in, rows, cols, stream, TP_LAUNCHER(transpose_record_general));
          }),
          // The lean tile reading column pairs (`float` and the 2-byte types; `double`: as lean_tile128).
          row("lean_pairs128", [](auto* out, const auto* in, int rows, int cols, cudaStream_t stream) {
            constexpr bool kPairs = sizeof(*out) <= 4;
            lean::transpose<kPairs>(out, in, rows, cols, stream, TP_LAUNCHER(transpose_record_general));
          }),
          row("tile256_no_cs", TP_LAUNCHER((transpose_tiles<256, 256, kHeadline & ~kStreaming>))),
          row("tile256_no_cs_async", TP_LAUNCHER((transpose_tiles<256, 256, kHeadline & ~(kStreaming | kCpAsync)>))),
          // Step 07's headline since e3624a5: neither the evict-first hint nor column pairs.
          row("tile256_no_cs_no_pairs", TP_LAUNCHER((transpose_tiles<256, 256, kHeadline & ~(kStreaming | kPairs)>))),
          row("order_rows", TP_LAUNCHER((transpose_with<256, 256, 256, kHeadline & ~kColumns>))),
          row("regions_always", TP_LAUNCHER((transpose_with<256, 256, 256, kHeadline | kInterleave>))),
          row("regions_never", TP_LAUNCHER((transpose_with<256, 256, 256, kHeadline>))),
          row("blocks_per_sm_1", at_most_blocks_per_sm(1)),
          row("blocks_per_sm_2", at_most_blocks_per_sm(2)),
          row("blocks_per_sm_3", at_most_blocks_per_sm(3))};
}

std::vector<Kernel> inplace_kernels() {
  using namespace inplace;
  auto row = [](std::string name, auto launch) { return make_kernel("lab", std::move(name), Op::transpose_inplace, launch); };
  return {row("inplace_two_regions", TP_INPLACE_LAUNCHER((transpose_inplace_with<256, 256, Grid::columns, 256, 2>))),
          row("inplace_one_region", TP_INPLACE_LAUNCHER((transpose_inplace_with<256, 256, Grid::columns, 256, 1>))),
          row("inplace_square_grid", TP_INPLACE_LAUNCHER((transpose_inplace_with<256, 256, Grid::square, 256, 1>))),
          row("inplace_diagonals", TP_INPLACE_LAUNCHER((transpose_inplace_with<256, 256, Grid::diagonals, 256, 1>)))};
}

std::vector<Kernel> all() {
  std::vector<Kernel> kernels = coarsen_kernels();
  for (Kernel& k : inplace_kernels()) kernels.push_back(std::move(k));
  return kernels;
}

}  // namespace tp::lab
