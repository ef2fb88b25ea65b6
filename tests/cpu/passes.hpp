// In-place passes on the CPU, for tests of step 08's rectangle decompositions: a column pass
// gathers within each column, a row pass scatters within each row, each through an index
// function of the code under test. Each fails the test unless every column (row) is permuted.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tp::testing {

using Matrix = std::vector<std::int64_t>;

/// Column j of the m x n matrix `d` becomes, row by row, d(source(r, j), j).
template <typename Source>
void gather_columns(Matrix& d, long long m, long long n, Source source) {
  std::vector<std::int64_t> column(m);
  std::vector<char> taken(m);
  for (long long j = 0; j < n; ++j) {
    for (long long r = 0; r < m; ++r) column[r] = d[r * n + j];
    std::fill(taken.begin(), taken.end(), 0);
    for (long long r = 0; r < m; ++r) {
      const long long from = source(r, j);
      ASSERT_TRUE(from >= 0 && from < m && !taken[from]) << "column " << j << " is not permuted";
      taken[from] = 1;
      d[r * n + j] = column[from];
    }
  }
}

/// Element j of row i of the m x n matrix `d` moves to column target(i, j).
template <typename Target>
void scatter_rows(Matrix& d, long long m, long long n, Target target) {
  std::vector<std::int64_t> row(n);
  std::vector<char> written(n);
  for (long long i = 0; i < m; ++i) {
    std::fill(written.begin(), written.end(), 0);
    for (long long j = 0; j < n; ++j) {
      const long long to = target(i, j);
      ASSERT_TRUE(to >= 0 && to < n && !written[to]) << "row " << i << " is not permuted";
      written[to] = 1;
      row[to] = d[i * n + j];
    }
    std::copy(row.begin(), row.end(), d.begin() + i * n);
  }
}

}  // namespace tp::testing
