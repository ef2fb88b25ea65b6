/// @file steps/09_multi_gpu/shards.hpp
/// @brief Host data for one rank of step 09's benchmark and tests: its block of the input,
/// and the block of the transpose it must end up with, computed without the whole matrix.
#pragma once

#include <cstdint>
#include <vector>

#include "09_multi_gpu/blocks.hpp"
#include "tp/data.hpp"

namespace tp::step09 {

/// Rank l.rank's rows of the rows x cols input that fill_distinct(seed) makes.
template <typename T>
std::vector<T> input_block(const Layout& l, std::uint64_t seed) {
  std::vector<T> block(std::size_t(l.in_rows() * l.cols));
  fill_distinct_block(block.data(), l.rows_of().begin(l.rank), l.in_rows(), 0, l.cols, l.cols, seed);
  return block;
}

/// Rank l.rank's rows of the transpose: its columns of the input (all rows), transposed.
template <typename T>
std::vector<T> expected_block(const Layout& l, std::uint64_t seed) {
  std::vector<T> columns(std::size_t(l.rows * l.out_rows()));  // rows x out_rows
  fill_distinct_block(columns.data(), 0, l.rows, l.cols_of().begin(l.rank), l.out_rows(), l.cols, seed);
  std::vector<T> expected(columns.size());
  reference_transpose(expected.data(), columns.data(), l.rows, l.out_rows());
  return expected;
}

}  // namespace tp::step09
