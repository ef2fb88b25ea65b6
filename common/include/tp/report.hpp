/// @file report.hpp
/// @brief Output: aligned text tables for the terminal and CSV rows for the results pipeline.
#pragma once

#include <fstream>
#include <string>
#include <vector>

namespace tp {

/// A text table whose columns are padded to their widest cell. Columns listed in
/// `left_aligned` (by index) are left-aligned; the others (numbers) right-aligned.
class Table {
 public:
  explicit Table(std::vector<std::string> headers, std::size_t left_aligned_columns = 1);
  void add_row(std::vector<std::string> cells);
  /// The table as text: header, a rule, the rows; each line ends in '\n'.
  std::string render() const;

 private:
  std::vector<std::string> headers_;
  std::size_t left_aligned_;
  std::vector<std::vector<std::string>> rows_;
};

/// printf-style formatting into a std::string, e.g. format("%.2f", x).
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

/// The CSV columns, in order (docs/method.md, "The results files").
inline constexpr const char* kCsvHeader =
    "gpu,cc,cuda,git_sha,step,kernel,dtype,rows,cols,bytes,reps,ms_median,ms_min,ms_max,gbps,"
    "pct_of_memcpy,verified";

/// One measured kernel x dtype x shape.
struct CsvRow {
  std::string gpu, cc, cuda, git_sha, step, kernel, dtype;
  long long rows = 0, cols = 0, bytes = 0;
  int reps = 0;
  double ms_median = 0, ms_min = 0, ms_max = 0;
  double gbps = 0;           ///< bytes / median seconds / 1e9
  double pct_of_memcpy = 0;  ///< 100 x gbps / cudaMemcpy's gbps in the same run
  bool verified = false;
};

/// The row as one CSV line (no newline); fields holding a comma or quote are quoted.
std::string csv_line(const CsvRow& row);

/// Appends rows to a CSV file, writing the header first when the file is new or empty.
class CsvWriter {
 public:
  /// Opens `path` for appending; throws tp::UsageError when it cannot. `extra`: more columns
  /// after the common ones (comma separated, e.g. step 09's "gpus"), written in a new file's header.
  explicit CsvWriter(const std::string& path, const std::string& extra = "");
  /// One row; `extra`: the values of the extra columns, comma separated.
  void write(const CsvRow& row, const std::string& extra = "");

 private:
  std::string path_;
  std::ofstream out_;
};

/// The commit this binary was built from (short SHA, "-dirty" when the tree had changes).
const char* git_sha();

}  // namespace tp
