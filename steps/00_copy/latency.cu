// 00_latency: the memory latency that Little's law needs (chapter 00, "Prediction"). One thread
// follows a chain of pointers through a buffer five times the size of L2, in a random order
// that visits every 128-byte line once per lap: each load waits for the one before it and
// misses L2, so the time per load is the DRAM latency of an otherwise idle GPU.
//
//   build/bin/00_latency                      print the latency
//   build/bin/00_latency --csv latency.csv    and append it to a CSV file (docs/method.md's columns:
//                                             rows = loads, ms_median per lap of them all)
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "tp/buffer.hpp"
#include "tp/device.hpp"
#include "tp/error.hpp"
#include "tp/harness.hpp"
#include "tp/report.hpp"
#include "tp/timing.hpp"

namespace {

constexpr std::size_t kLineWords = 128 / sizeof(unsigned long long);  // one pointer per 128-byte line

/// One thread: p = next[p], `steps` times. The loads depend on each other, so exactly one is
/// in flight at any moment. `cycles`: SM clock cycles the chain took (with the time, the clock).
__global__ void chase(const unsigned long long* next, long long steps, unsigned long long* end,
                      long long* cycles) {
  unsigned long long p = 0;
  const long long t0 = clock64();
  for (long long i = 0; i < steps; ++i) p = next[p];
  *cycles = clock64() - t0;
  *end = p;  // the result is used, so the chain cannot be optimised away
}

/// A random cycle through all `lines` lines (Sattolo's algorithm): next[line i] = line j.
std::vector<unsigned long long> random_cycle(std::size_t lines) {
  std::vector<std::size_t> order(lines);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::mt19937_64 rng(2026);
  for (std::size_t i = lines - 1; i > 0; --i) {
    std::swap(order[i], order[std::uniform_int_distribution<std::size_t>(0, i - 1)(rng)]);
  }
  std::vector<unsigned long long> next(lines * kLineWords, 0);
  for (std::size_t i = 0; i < lines; ++i) next[i * kLineWords] = order[i] * kLineWords;
  return next;
}

}  // namespace

int main(int argc, char** argv) {
  return tp::guarded_main([&] {
    CLI::App app{"Step 00: DRAM latency by pointer chasing (one load in flight on the whole GPU)"};
    std::string csv;
    app.add_option("--csv", csv, "append the result to this CSV file");
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      std::printf("%s", app.help().c_str());
      return 0;
    } catch (const CLI::ParseError& e) {
      throw tp::UsageError(e.what());
    }
    tp::require_device();
    TP_CUDA_CHECK(cudaSetDevice(0));
    const tp::DeviceInfo device = tp::query_device(0);

    const std::size_t bytes = std::max<std::size_t>(std::size_t(256) << 20, 5 * device.l2_bytes);
    const std::size_t lines = bytes / 128;
    const std::vector<unsigned long long> next = random_cycle(lines);
    tp::DeviceBuffer d_next(bytes), d_end(sizeof(unsigned long long)), d_cycles(sizeof(long long));
    d_next.upload(next.data(), bytes);
    auto* chain = static_cast<const unsigned long long*>(d_next.data());
    auto* end = static_cast<unsigned long long*>(d_end.data());
    auto* cycles = static_cast<long long*>(d_cycles.data());

    // One lap warms the page tables; then kLaps timed laps. A lap visits every line once and
    // comes back to line 0: the check that the whole chain was followed.
    constexpr int kLaps = 5;
    cudaEvent_t start, stop;
    TP_CUDA_CHECK(cudaEventCreate(&start));
    TP_CUDA_CHECK(cudaEventCreate(&stop));
    std::vector<double> lap_ms;
    bool closed = true;
    long long lap_cycles = 0;
    for (int lap = 0; lap <= kLaps; ++lap) {
      TP_CUDA_CHECK(cudaEventRecord(start));
      chase<<<1, 1>>>(chain, (long long)lines, end, cycles);
      TP_CHECK_LAUNCH("chase");
      TP_CUDA_CHECK(cudaEventRecord(stop));
      TP_CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0;
      TP_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      unsigned long long last = 1;
      d_end.download(&last, sizeof(last));
      closed = closed && last == 0;
      if (lap == 0) continue;  // the warm-up lap
      lap_ms.push_back(ms);
      d_cycles.download(&lap_cycles, sizeof(lap_cycles));
    }
    TP_CUDA_CHECK(cudaEventDestroy(start));
    TP_CUDA_CHECK(cudaEventDestroy(stop));
    const tp::Stats stats = tp::summarize(lap_ms);
    const double ns = stats.median_ms * 1e6 / double(lines);
    const double mhz = double(lap_cycles) / (lap_ms.back() * 1e3);  // cycles per microsecond, last lap

    std::printf("%s\n%zu dependent loads over %.0f MB, median of %d laps: %.0f ns per load (DRAM latency, "
                "idle GPU); SM clock %.0f MHz%s\n", device.summary().c_str(), lines, bytes / 1e6, kLaps, ns, mhz,
                closed ? "" : "; ERROR: the chain did not close");
    if (!csv.empty()) {  // docs/method.md's columns: one row, the chase as a kernel of `lines` 8-byte loads
      tp::CsvRow row{device.name, device.cc(), device.cuda(), tp::git_sha(), "00_copy", "pointer_chase", "u64"};
      row.rows = (long long)lines;
      row.cols = 1;
      row.bytes = (long long)(lines * sizeof(unsigned long long));
      row.reps = stats.reps;
      row.ms_median = stats.median_ms;
      row.ms_min = stats.min_ms;
      row.ms_max = stats.max_ms;
      row.gbps = double(row.bytes) / (stats.median_ms * 1e6);
      row.verified = closed;  // pct_of_memcpy stays 0: one load at a time is no bandwidth test
      tp::CsvWriter(csv).write(row);
    }
    return closed ? 0 : 1;
  });
}
