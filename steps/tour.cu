// tour: every registered step in order, beside cudaMemcpy (the ceiling) and cuBLAS; the
// out-of-place steps, the libraries, then the in-place step (square shapes only). Built with
// -DTP_LAB=ON, it shows the lab's fastest kernel after the main line's (steps/extra_kernels.hpp).
//
//   build/bin/tour                       fp32 at 2048, 4096, 8192, 16384 square
//   build/bin/tour --dtype all --csv results.csv
#include <cstdio>
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "extra_kernels.hpp"
#include "references.cuh"
#include "launchers.hpp"
#include "registry.hpp"

namespace {

// One case's progression: each step's headline kernel, then the library references. A lab
// row (-DTP_LAB=ON) is compared with the step before it but is not a step itself.
void print_case(const std::vector<tp::Measurement>& results) {
  tp::Table table({"step", "kernel", "ms", "GB/s", "% memcpy", "x prev step", "x first transpose"}, 2);
  const tp::Measurement* prev_step = nullptr;
  const tp::Measurement* first_transpose = nullptr;
  std::string failures;
  for (const tp::Measurement& m : results) {
    const bool is_lab = m.kernel->step == "lab";
    const bool is_step = m.kernel->step != "ref" && !is_lab;
    if (is_step && !first_transpose && m.kernel->op == tp::Op::transpose) first_transpose = &m;
    table.add_row({m.kernel->step, m.kernel->name, tp::cell(m, m.stats.median_ms, "%.4f"),
                   tp::cell(m, m.gbps, "%.1f"), tp::cell(m, m.pct_of_memcpy, "%.1f%%"),
                   is_step || is_lab ? tp::speedup_cell(m, prev_step) : "-",
                   tp::speedup_cell(m, first_transpose)});
    if (is_step) prev_step = &m;
    if (!m.verified()) failures += m.kernel->name + ": " + m.check.describe() + "\n";
  }
  std::printf("%s%s", table.render().c_str(), failures.c_str());
}

// The closing table: % of cudaMemcpy for each kernel (rows) and shape (columns), one dtype.
class Summary {
 public:
  void add(const tp::Measurement& m) {
    const std::string key = m.kernel->step + " " + m.kernel->name;
    if (std::find(order_.begin(), order_.end(), key) == order_.end()) order_.push_back(key);
    cells_[m.dtype][key][tp::shape_name(m.shape)] = tp::cell(m, m.pct_of_memcpy, "%.1f%%");
  }
  void print(tp::DType dtype, const std::vector<tp::Shape>& shapes) const {
    std::vector<std::string> header{"kernel"};
    for (tp::Shape s : shapes) header.push_back(tp::shape_name(s));
    tp::Table table(header);
    const auto& by_kernel = cells_.at(dtype);
    for (const std::string& key : order_) {
      const auto it = by_kernel.find(key);
      if (it == by_kernel.end()) continue;
      std::vector<std::string> row{key};
      for (tp::Shape s : shapes) {  // "-" where the kernel did not run (in place on a rectangle)
        const auto cell = it->second.find(tp::shape_name(s));
        row.push_back(cell == it->second.end() ? "-" : cell->second);
      }
      table.add_row(row);
    }
    std::printf("\n%% of cudaMemcpy, %s:\n%s", tp::dtype_name(dtype).c_str(), table.render().c_str());
  }

 private:
  std::vector<std::string> order_;  // kernels in the order they ran
  std::map<tp::DType, std::map<std::string, std::map<std::string, std::string>>> cells_;  // dtype, kernel, shape
};

}  // namespace

int main(int argc, char** argv) {
  return tp::guarded_main([&] {
    tp::CliSpec spec;
    spec.description = "Tour: every step of the tutorial beside cudaMemcpy and cuBLAS "
                       "(cold L2, median of --reps runs)";
    spec.default_sizes = {2048, 4096, 8192, 16384};
    const tp::Options options = tp::parse_cli(spec, argc, argv);
    tp::Bench bench(options);
    const tp::references::Libraries libraries;

    std::vector<tp::Kernel> kernels, inplace;
    for (tp::Kernel& k : tp::registry::all()) {
      if (k.in_tour) (k.op == tp::Op::transpose_inplace ? inplace : kernels).push_back(std::move(k));
    }
#ifdef TP_EXTRA_KERNELS
    for (tp::Kernel& k : tp::extra::kernels()) kernels.push_back(std::move(k));  // the lab's fastest
#endif
    for (tp::Kernel& k : libraries.kernels()) kernels.push_back(std::move(k));
    for (tp::Kernel& k : inplace) kernels.push_back(std::move(k));

    bench.print_header();
    bool all_verified = true;
    Summary summary;
    bench.for_each_case([&](tp::DType dtype, tp::Shape shape) {
      const std::vector<tp::Measurement> results = bench.run(dtype, shape, kernels);
      std::printf("\n%s\n", tp::describe_case(dtype, shape).c_str());
      print_case(results);
      std::fflush(stdout);
      for (const tp::Measurement& m : results) {
        all_verified = all_verified && m.verified();
        summary.add(m);
      }
    });
    for (tp::DType dtype : options.dtypes) summary.print(dtype, options.shapes);
    if (!all_verified) std::fprintf(stderr, "error: verification failed (see above)\n");
    return all_verified ? 0 : 1;
  });
}
