// CSV format, text tables, timing statistics, dtype names, device names.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tp/device.hpp"
#include "tp/dtype.hpp"
#include "tp/error.hpp"
#include "tp/report.hpp"
#include "tp/timing.hpp"

namespace {

std::vector<std::string> split(const std::string& line, char sep = ',') {
  std::vector<std::string> parts;
  std::stringstream ss(line);
  std::string part;
  while (std::getline(ss, part, sep)) parts.push_back(part);
  return parts;
}

tp::CsvRow sample_row() {
  return {"NVIDIA H200", "9.0", "13.0", "abc123", "00_copy", "copy_vec16", "float", 16384, 8192,
          2LL * 16384 * 8192 * 4, 20, 0.25, 0.24, 0.3, 4294.967296, 97.5, true};
}

TEST(Csv, HeaderHasTheDesignColumnsInOrder) {
  const std::vector<std::string> want = {"gpu", "cc", "cuda", "git_sha", "step", "kernel",
                                         "dtype", "rows", "cols", "bytes", "reps", "ms_median",
                                         "ms_min", "ms_max", "gbps", "pct_of_memcpy", "verified"};
  EXPECT_EQ(split(tp::kCsvHeader), want);
}

TEST(Csv, LineHasOneFieldPerColumn) {
  const auto fields = split(tp::csv_line(sample_row()));
  ASSERT_EQ(fields.size(), split(tp::kCsvHeader).size());
  EXPECT_EQ(fields[0], "NVIDIA H200");
  EXPECT_EQ(fields[7], "16384");
  EXPECT_EQ(fields[8], "8192");
  EXPECT_EQ(fields[9], "1073741824");
  EXPECT_EQ(fields[11], "0.250000");
  EXPECT_EQ(fields[14], "4294.97");
  EXPECT_EQ(fields[15], "97.50");
  EXPECT_EQ(fields[16], "true");
}

TEST(Csv, QuotesFieldsWithCommasAndQuotes) {
  tp::CsvRow row = sample_row();
  row.gpu = "GPU, \"special\"";
  row.verified = false;
  const std::string line = tp::csv_line(row);
  EXPECT_EQ(line.rfind("\"GPU, \"\"special\"\"\",9.0,", 0), 0u) << line;
  EXPECT_EQ(line.substr(line.size() - 6), ",false");
}

TEST(Csv, WriterWritesTheHeaderOnceAndAppends) {
  const std::string path = ::testing::TempDir() + "tp_csv_writer_test.csv";
  std::remove(path.c_str());
  {
    tp::CsvWriter w(path);
    w.write(sample_row());
  }
  {
    tp::CsvWriter w(path);
    w.write(sample_row());
  }
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], tp::kCsvHeader);
  EXPECT_EQ(lines[1], tp::csv_line(sample_row()));
  EXPECT_EQ(lines[2], lines[1]);
  std::remove(path.c_str());
}

TEST(Csv, WriterAppendsExtraColumnsToTheHeaderAndEachRow) {
  const std::string path = ::testing::TempDir() + "tp_csv_writer_extra_test.csv";
  std::remove(path.c_str());
  {
    tp::CsvWriter w(path, "gpus");
    w.write(sample_row(), "4");
  }
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], std::string(tp::kCsvHeader) + ",gpus");
  EXPECT_EQ(lines[1], tp::csv_line(sample_row()) + ",4");
  std::remove(path.c_str());
}

TEST(Csv, WriterRefusesAPathItCannotOpen) {
  EXPECT_THROW(tp::CsvWriter("/nonexistent-dir/x/results.csv"), tp::UsageError);
}

TEST(Table, PadsColumnsToTheWidestCell) {
  tp::Table t({"kernel", "GB/s"});
  t.add_row({"cudaMemcpy", "4254.1"});
  t.add_row({"copy", "12.0"});
  EXPECT_EQ(t.render(),
            "kernel        GB/s\n"
            "------------------\n"
            "cudaMemcpy  4254.1\n"
            "copy          12.0\n");
}

TEST(Stats, MedianMinMax) {
  const tp::Stats odd = tp::summarize({3, 1, 2});
  EXPECT_DOUBLE_EQ(odd.median_ms, 2);
  EXPECT_DOUBLE_EQ(odd.min_ms, 1);
  EXPECT_DOUBLE_EQ(odd.max_ms, 3);
  EXPECT_EQ(odd.reps, 3);
  EXPECT_DOUBLE_EQ(tp::summarize({4, 1, 3, 2}).median_ms, 2.5);
  EXPECT_THROW(tp::summarize({}), std::invalid_argument);
}

TEST(DType, NamesRoundTrip) {
  for (tp::DType t : tp::kAllDTypes) EXPECT_EQ(tp::parse_dtype(tp::dtype_name(t)), t);
  EXPECT_EQ(tp::dtype_size(tp::DType::f16), 2u);
  EXPECT_EQ(tp::dtype_size(tp::DType::f64), 8u);
  EXPECT_THROW(tp::parse_dtype("int7"), tp::UsageError);
}

TEST(Shape, NegativeIsInvalidZeroIsFine) {
  EXPECT_THROW(tp::check_shape(-1, 5), std::invalid_argument);
  EXPECT_THROW(tp::check_shape(5, -1), std::invalid_argument);
  EXPECT_NO_THROW(tp::check_shape(0, 0));
}

TEST(Device, SlugIsShortAndFileNameSafe) {
  tp::DeviceInfo d;
  d.name = "NVIDIA H100 80GB HBM3";
  EXPECT_EQ(d.slug(), "h100-80gb-hbm3");
  d.name = "NVIDIA H200";
  EXPECT_EQ(d.slug(), "h200");
  d.runtime_version = 13000;
  EXPECT_EQ(d.cuda(), "13.0");
}

TEST(Errors, CudaCheckNamesTheCallFileAndLine) {
  try {
    TP_CUDA_CHECK(cudaErrorInvalidValue);
    FAIL() << "no exception";
  } catch (const tp::CudaError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cudaErrorInvalidValue"), std::string::npos) << what;
    EXPECT_NE(what.find("test_report.cpp:"), std::string::npos) << what;
    EXPECT_EQ(e.code(), cudaErrorInvalidValue);
  }
}

}  // namespace
