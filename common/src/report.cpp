#include "tp/report.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "tp/error.hpp"

#ifndef TP_GIT_SHA
#define TP_GIT_SHA "unknown"
#endif

namespace tp {

Table::Table(std::vector<std::string> headers, std::size_t left_aligned_columns)
    : headers_(std::move(headers)), left_aligned_(left_aligned_columns) {}

void Table::add_row(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  rows_.push_back(std::move(cells));
}

std::string Table::render() const {
  std::vector<std::size_t> width(headers_.size());
  for (std::size_t i = 0; i < headers_.size(); ++i) {
    width[i] = headers_[i].size();
    for (const auto& row : rows_) width[i] = std::max(width[i], row[i].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::string pad(width[i] - cells[i].size(), ' ');
      s += (i ? "  " : "") + (i < left_aligned_ ? cells[i] + pad : pad + cells[i]);
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::size_t total = 0;
  for (std::size_t w : width) total += w + 2;
  std::string out = line(headers_) + std::string(total > 2 ? total - 2 : 0, '-') + "\n";
  for (const auto& row : rows_) out += line(row);
  return out;
}

std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string s(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
  if (n > 0) std::vsnprintf(s.data(), s.size() + 1, fmt, args);
  va_end(args);
  return s;
}

namespace {
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
}  // namespace

std::string csv_line(const CsvRow& r) {
  return csv_field(r.gpu) + "," + csv_field(r.cc) + "," + csv_field(r.cuda) + "," +
         csv_field(r.git_sha) + "," + csv_field(r.step) + "," + csv_field(r.kernel) + "," +
         csv_field(r.dtype) + "," + std::to_string(r.rows) + "," + std::to_string(r.cols) + "," +
         std::to_string(r.bytes) + "," + std::to_string(r.reps) + "," +
         format("%.6f,%.6f,%.6f,%.2f,%.2f,", r.ms_median, r.ms_min, r.ms_max, r.gbps,
                r.pct_of_memcpy) +
         (r.verified ? "true" : "false");
}

CsvWriter::CsvWriter(const std::string& path, const std::string& extra) : path_(path) {
  out_.open(path, std::ios::app);
  if (!out_) throw UsageError("--csv: cannot open '" + path + "' for writing");
  out_.seekp(0, std::ios::end);
  if (out_.tellp() == 0) out_ << kCsvHeader << (extra.empty() ? "" : "," + extra) << '\n';
  out_.flush();
}

void CsvWriter::write(const CsvRow& row, const std::string& extra) {
  out_ << csv_line(row) << (extra.empty() ? "" : "," + extra) << '\n';
  out_.flush();
  if (!out_) throw UsageError("--csv: writing to '" + path_ + "' failed");
}

const char* git_sha() { return TP_GIT_SHA; }

}  // namespace tp
