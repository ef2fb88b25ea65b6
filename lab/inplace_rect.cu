// lab_inplace_rect: step 08 on rectangles, end to end and pass by pass, beside cudaMemcpy.
// For each dtype and shape: cudaMemcpy and step 08's in-place transpose through the harness
// (verified bit for bit, then timed: each launch transposes the previous result, so the
// launches alternate between rows x cols and cols x rows), then, where the sides share a
// large factor, the two passes transpose_inplace takes (cycles_pass1_squares, the squares of
// kernel.cuh; cycles_pass2_chunks, cycles.cuh) each timed alone, then each pass of rect.cuh
// timed alone on a rows x cols matrix and on a cols x rows one (kernel names end in _rxc or _cxr).
// Every row counts bytes as 2 x rows x cols x sizeof(T), the bytes one pass reads and
// writes; a pass row is "verified" when the end-to-end transpose that runs it was. The column
// passes on clusters of 2, 4 and 8 blocks (lab/inplace_rect_cluster.cuh; _clusterC) are
// also checked byte for byte against step 08's pass on the same input.
//
//   build/bin/lab_inplace_rect --dtype all --sizes 8192x16384,10000x7000 --csv lab_inplace_rect.csv
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "08_inplace/kernel.cuh"
#include "inplace_rect_cluster.cuh"
#include "registry.hpp"
#include "tp/timing.hpp"

namespace {

// Bytes that differ from one position to the next, for checking one pass against another.
__global__ void fill_bytes(unsigned char* p, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    p[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  }
}

// Counts the bytes where a and b differ into *count.
__global__ void count_differences(const unsigned char* a, const unsigned char* b, std::size_t n,
                                  unsigned long long* count) {
  unsigned long long mine = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    mine += a[i] != b[i];
  }
  if (mine) atomicAdd(count, mine);
}

using tp::step08::rect::Columns;
using tp::step08::rect::Plan;

// One pass on an m x n matrix of T, enqueued on `stream`; column passes with chunks of at
// most `chunk` bytes. Returns the chunk's bytes (0 for the row pass).
template <typename T>
int run_pass(int pass, T* data, const Plan& p, void* scratch, cudaStream_t stream, int chunk) {
  if (pass == 2) {
    tp::step08::rect::launch_rows(data, p, scratch, stream);
    return 0;
  }
  return tp::step08::rect::launch_columns(data, p, pass == 1 ? Columns::prerotate : Columns::permute, scratch,
                                          stream, chunk);
}

const char* kPassNames[] = {"", "rect_pass1_rotate_columns", "rect_pass2_shuffle_rows", "rect_pass3_permute_columns"};

}  // namespace

int main(int argc, char** argv) {
  return tp::guarded_main([&] {
    tp::CliSpec spec;
    spec.description = "Lab: step 08 on rectangles, end to end and pass by pass, beside cudaMemcpy (cold L2)";
    spec.default_sizes = {8192};
    spec.default_dtypes = {tp::DType::f32, tp::DType::f64, tp::DType::f16, tp::DType::bf16};
    tp::Options options = tp::parse_cli(spec, argc, argv);
    const std::string csv_path = options.csv_path;
    options.csv_path.clear();  // this program writes every row itself, in order
    tp::Bench bench(options);
    std::unique_ptr<tp::CsvWriter> csv;
    if (!csv_path.empty()) csv = std::make_unique<tp::CsvWriter>(csv_path);
    tp::L2Flusher flusher(bench.device().l2_bytes);
    cudaStream_t stream = nullptr;
    TP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const std::vector<tp::Kernel> kernels{tp::registry::headline(tp::registry::step08())};
    bench.print_header();
    bool all_verified = true;

    bench.for_each_case([&](tp::DType dtype, tp::Shape shape) {
      const std::vector<tp::Measurement> results = bench.run(dtype, shape, kernels);
      const double memcpy_gbps = results.front().gbps;
      const bool verified = results.size() == 2 && results.back().verified();
      all_verified = all_verified && verified && results.front().verified();
      tp::Table table({"kernel", "dtype", "shape", "ms", "GB/s", "% memcpy"}, 3);
      auto add = [&](const std::string& name, const std::string& step, tp::Shape s, const tp::Stats& stats,
                     double gbps, bool ok) {
        const double pct = 100.0 * gbps / memcpy_gbps;
        table.add_row({name, tp::dtype_name(dtype), tp::shape_name(s), tp::format("%.4f", stats.median_ms),
                       tp::format("%.1f", gbps), tp::format("%.1f%%", pct)});
        if (csv) {
          const tp::DeviceInfo& d = bench.device();
          csv->write({d.name, d.cc(), d.cuda(), tp::git_sha(), step, name, tp::dtype_name(dtype), s.rows, s.cols,
                      static_cast<long long>(tp::case_device_bytes(dtype, s)), stats.reps, stats.median_ms,
                      stats.min_ms, stats.max_ms, gbps, pct, ok});
        }
      };
      for (const tp::Measurement& m : results) add(m.kernel->name, m.kernel->step, shape, m.stats, m.gbps, m.verified());
      if (shape.rows != shape.cols && shape.rows > 1 && shape.cols > 1) {
        tp::dispatch(dtype, [&](auto tag) {
          using T = decltype(tag);
          const std::size_t bytes = std::size_t(shape.rows) * shape.cols * sizeof(T);
          tp::DeviceBuffer data(bytes);
          TP_CUDA_CHECK(cudaMemsetAsync(data.data(), 0, bytes, stream));  // any values: a pass is a permutation
          // A pass timed alone (cold L2, median), and its row: it moves 2 x bytes, as the transpose.
          auto timed = [&](auto work) { return tp::time_work(work, stream, options.reps, &flusher); };
          auto add_pass = [&](const std::string& name, tp::Shape s, const tp::Stats& stats, bool ok) {
            add(name, "lab", s, stats, 2.0 * bytes / (stats.median_ms * 1e-3) / 1e9, ok);
          };
          // A column pass on clusters of 2, 4 and 8 blocks (lab/inplace_rect_cluster.cuh):
          // checked byte for byte against step 08's pass on the same input, then timed.
          tp::DeviceBuffer want(bytes), got(bytes), differences(sizeof(unsigned long long));
          auto cluster_rows = [&](int pass, const Plan& p, bool swapped) {
            const Columns which = pass == 1 ? Columns::prerotate : Columns::permute;
            auto variant = [&](auto launch, const char* name) {
              fill_bytes<<<1024, 256, 0, stream>>>(want.as<unsigned char>(), bytes);
              TP_CHECK_LAUNCH("fill_bytes");
              TP_CUDA_CHECK(cudaMemcpyAsync(got.data(), want.data(), bytes, cudaMemcpyDeviceToDevice, stream));
              if (!launch(got.as<T>(), stream)) return;  // this cluster size cannot run here
              tp::step08::rect::launch_columns(want.as<T>(), p, which, nullptr, stream);
              TP_CUDA_CHECK(cudaMemsetAsync(differences.data(), 0, sizeof(unsigned long long), stream));
              count_differences<<<1024, 256, 0, stream>>>(want.as<unsigned char>(), got.as<unsigned char>(), bytes,
                                                          differences.as<unsigned long long>());
              TP_CHECK_LAUNCH("count_differences");
              TP_CUDA_CHECK(cudaStreamSynchronize(stream));
              unsigned long long wrong = 0;
              differences.download(&wrong, sizeof(wrong));
              add_pass(kPassNames[pass] + std::string(name) + (swapped ? "_cxr" : "_rxc"), {int(p.m), int(p.n)},
                       timed([&](cudaStream_t s) { launch(data.as<T>(), s); }), verified && wrong == 0);
              if (wrong) std::printf("%s%s: %llu bytes differ from step 08's pass\n", kPassNames[pass], name, wrong);
              all_verified = all_verified && wrong == 0;
            };
            using namespace tp::lab::rect_cluster;
            variant([&](T* d, cudaStream_t s) { return launch<T, 2>(d, p, which, s); }, "_cluster2");
            variant([&](T* d, cudaStream_t s) { return launch<T, 4>(d, p, which, s); }, "_cluster4");
            variant([&](T* d, cudaStream_t s) { return launch<T, 8>(d, p, which, s); }, "_cluster8");
          };
          for (bool swapped : {false, true}) {
            const int m = swapped ? shape.cols : shape.rows, n = swapped ? shape.rows : shape.cols;
            const Plan p = tp::step08::rect::make_plan(m, n);
            if (tp::step08::cycles::takes(data.as<T>(), m, n)) {  // the two passes transpose_inplace runs here
              const int g = int(std::gcd(m, n));
              const std::string suffix = swapped ? "_cxr" : "_rxc";
              add_pass("cycles_pass1_squares" + suffix, {m, n}, timed([&](cudaStream_t s) {
                tp::step08::transpose_squares(data.as<T>(), g, std::size_t(n), m / g, n / g, s);
              }), verified);
              add_pass("cycles_pass2_chunks" + suffix, {m, n}, timed([&](cudaStream_t s) {
                tp::step08::cycles::run(tp::step08::cycles::prepare<T>(m, n, s), data.as<T>(), s);
              }), verified);
            }
            tp::DeviceBuffer scratch(tp::step08::rect::scratch_bytes<T>(m, n));
            for (int pass = p.c > 1 ? 1 : 2; pass <= 3; ++pass) {
              // Column passes: the chunk that transpose_inplace takes (the widest that fits,
              // no name suffix), then each narrower one (suffix: its bytes).
              int used = 0;
              for (int chunk : {32, 16, 8, 4}) {
                if (pass == 2 && chunk < 32) break;
                if (chunk < 32 && chunk >= used) continue;  // the same chunk again
                if (chunk < int(sizeof(T))) break;
                const tp::Stats stats =
                    timed([&](cudaStream_t s) { used = run_pass(pass, data.as<T>(), p, scratch.data(), s, chunk); });
                const std::string suffix = chunk < 32 ? "_" + std::to_string(used) + "B" : "";  // the chunk it took
                add_pass(kPassNames[pass] + suffix + (swapped ? "_cxr" : "_rxc"), {m, n}, stats, verified);
              }
              if (pass != 2) cluster_rows(pass, p, swapped);
            }
          }
        });
      }
      std::printf("\n%s\n%s", tp::describe_case(dtype, shape).c_str(), table.render().c_str());
      if (!verified) std::printf("%s\n", results.back().check.describe().c_str());
      std::fflush(stdout);
    });
    TP_CUDA_CHECK(cudaStreamDestroy(stream));
    if (!all_verified) std::fprintf(stderr, "error: verification failed (see above)\n");
    return all_verified ? 0 : 1;
  });
}
