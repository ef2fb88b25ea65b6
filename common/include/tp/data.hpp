/// @file data.hpp
/// @brief Host-side test data: inputs in which every misplaced element is visible, a CPU
/// reference transpose, and a bit-for-bit comparison.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tp {

/// Fills a rows x cols row-major matrix with finite, normal, non-zero values that make a
/// misplaced element visible. Deterministic for a given `seed`.
///
/// - float and double: all values are distinct (for float up to 4.26e9 elements, the number
///   of normal floats).
/// - __half and __nv_bfloat16: the values along every row and every column are distinct as
///   long as the row or column is no longer than the type's count of normal values (61440
///   for half, 65024 for bf16); element (r, c) and its transposed position (c, r) differ.
/// - No value is NaN, so the 0xFF poison (a NaN in every type) never matches.
template <typename T>
void fill_distinct(T* data, long long rows, long long cols, std::uint64_t seed);

/// The block of rows row0 .. row0 + rows - 1 and columns col0 .. col0 + block_cols - 1 of
/// the matrix that fill_distinct(data, ..., cols, seed) makes, written densely (block_cols per
/// row): what one GPU of several holds (step 09), without the whole matrix on the host.
template <typename T>
void fill_distinct_block(T* data, long long row0, long long rows, long long col0, long long block_cols,
                         long long cols, std::uint64_t seed);

/// CPU reference: `out` (cols x rows) = transpose of `in` (rows x cols), both row-major.
/// Cache-blocked, so that 16384 x 16384 takes about a second.
template <typename T>
void reference_transpose(T* out, const T* in, long long rows, long long cols);

/// One element that differs from what was expected, at (row, col) of the output matrix.
struct Mismatch {
  long long row;
  long long col;
  std::string expected;  ///< value and bits, e.g. "1.5 (0x3fc00000)"
  std::string got;
};

/// Result of a bit-for-bit comparison.
struct CompareResult {
  std::size_t mismatches = 0;  ///< how many elements differ
  std::vector<Mismatch> first;  ///< the first few of them, in row-major order
  std::size_t written_around = 0;  ///< bytes next to the output (before or after it) that were written
  bool ok() const { return mismatches == 0 && written_around == 0; }
  /// "OK", or the count and a line per reported mismatch, and the bytes written around.
  std::string describe() const;
};

/// Compares two rows x cols matrices bit for bit and reports the first `max_report` mismatches.
template <typename T>
CompareResult compare_bits(const T* expected, const T* got, long long rows, long long cols,
                           std::size_t max_report = 5);

}  // namespace tp
