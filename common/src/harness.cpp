#include "tp/harness.hpp"

#include <unistd.h>

#include <cstdio>
#include <stdexcept>

#include "tp/error.hpp"

namespace tp {

void Kernel::run(DType t, void* out, const void* in, int rows, int cols, cudaStream_t stream) const {
  if (!supports(t)) throw std::logic_error(name + " does not support " + dtype_name(t));
  launch[index(t)](out, in, rows, cols, stream);
}

Kernel memcpy_kernel() {
  Kernel k{"ref", "cudaMemcpy", Op::copy, false, {}};
  for (DType t : kAllDTypes) {
    const std::size_t size = dtype_size(t);
    k.launch[Kernel::index(t)] = [size](void* out, const void* in, int rows, int cols,
                                        cudaStream_t stream) {
      check_shape(rows, cols);
      const std::size_t bytes = std::size_t(rows) * std::size_t(cols) * size;
      if (bytes > 0) TP_CUDA_CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, stream));
    };
  }
  return k;
}

std::size_t case_device_bytes(DType dtype, Shape shape) {
  return 2 * (std::size_t(shape.rows) * std::size_t(shape.cols) * dtype_size(dtype) + Case::kRoom);
}

Case::Case(DType dtype, Shape shape, std::uint64_t seed)
    : dtype_(dtype), shape_(shape),
      bytes_((check_shape(shape.rows, shape.cols), std::size_t(shape.rows) * std::size_t(shape.cols) *
                                                       dtype_size(dtype))),
      input_(bytes_), d_in_(bytes_ + kRoom), d_out_(bytes_ + kRoom) {
  dispatch(dtype_, [&](auto tag) {
    using T = decltype(tag);
    fill_distinct(reinterpret_cast<T*>(input_.data()), shape_.rows, shape_.cols, seed);
  });
  d_in_.upload(input_.data(), bytes_);
}

const std::vector<unsigned char>& Case::expected(Op op) {
  if (op == Op::copy) return input_;
  if (transposed_.size() != bytes_) {
    transposed_.resize(bytes_);
    dispatch(dtype_, [&](auto tag) {
      using T = decltype(tag);
      reference_transpose(reinterpret_cast<T*>(transposed_.data()),
                          reinterpret_cast<const T*>(input_.data()), shape_.rows, shape_.cols);
    });
  }
  return transposed_;
}

std::size_t Case::place_input(const Kernel& k) {
  if (k.offset < 0 || std::size_t(k.offset) * dtype_size(dtype_) > kRoom) {
    throw std::invalid_argument(k.name + ": an offset of " + std::to_string(k.offset) + " elements is not 0 to " +
                                std::to_string(kRoom) + " bytes");
  }
  const std::size_t at = std::size_t(k.offset) * dtype_size(dtype_);
  if (at != input_at_) {  // another kernel's offset: move the input
    d_in_.upload(input_.data(), bytes_, at);
    input_at_ = at;
  }
  return at;
}

void Case::launch(const Kernel& k, cudaStream_t stream) {
  const std::size_t at = place_input(k);
  unsigned char* out = static_cast<unsigned char*>(d_out_.data()) + at;
  if (k.op == Op::transpose_inplace) {
    const bool transposed = inplace_launches_ % 2 == 1;  // the buffer holds cols x rows
    k.run(dtype_, out, out, transposed ? shape_.cols : shape_.rows, transposed ? shape_.rows : shape_.cols, stream);
    ++inplace_launches_;
  } else {
    k.run(dtype_, out, static_cast<const unsigned char*>(d_in_.data()) + at, shape_.rows, shape_.cols, stream);
  }
}

CompareResult Case::verify(const Kernel& k, cudaStream_t stream) {
  out_at_ = place_input(k);
  d_out_.poison(stream);  // the output and the room around it
  if (k.op == Op::transpose_inplace) {
    unsigned char* out = static_cast<unsigned char*>(d_out_.data()) + out_at_;
    const unsigned char* in = static_cast<const unsigned char*>(d_in_.data()) + out_at_;
    if (bytes_ > 0) TP_CUDA_CHECK(cudaMemcpyAsync(out, in, bytes_, cudaMemcpyDeviceToDevice, stream));
    inplace_launches_ = 0;
  }
  launch(k, stream);
  return compare_output(expected(k.op), k.op != Op::copy, stream);
}

CompareResult Case::verify_inplace_state(cudaStream_t stream) {
  const bool odd = inplace_launches_ % 2 == 1;
  return compare_output(odd ? expected(Op::transpose) : input_, odd, stream);
}

std::size_t Case::written_around(std::size_t at) const {
  std::vector<unsigned char> before(at), after(kRoom - at);
  d_out_.download(before.data(), before.size());
  d_out_.download(after.data(), after.size(), at + bytes_);
  std::size_t written = 0;
  for (const std::vector<unsigned char>* room : {&before, &after}) {
    for (unsigned char b : *room) written += b != kPoisonByte;
  }
  return written;
}

CompareResult Case::compare_output(const std::vector<unsigned char>& want, bool transposed, cudaStream_t stream) {
  TP_CUDA_CHECK(cudaStreamSynchronize(stream));
  // One host buffer for every comparison of the case: a large case (gigabytes) then pays
  // for allocating and first touching it once, not once per kernel.
  if (!got_) got_.reset(new unsigned char[bytes_]);  // not value-initialised: no memset of gigabytes
  d_out_.download(got_.get(), bytes_, out_at_);
  // The output of a transpose is cols x rows.
  const long long out_rows = transposed ? shape_.cols : shape_.rows;
  const long long out_cols = transposed ? shape_.rows : shape_.cols;
  CompareResult result = dispatch(dtype_, [&](auto tag) {
    using T = decltype(tag);
    return compare_bits(reinterpret_cast<const T*>(want.data()),
                        reinterpret_cast<const T*>(got_.get()), out_rows, out_cols);
  });
  result.written_around = written_around(out_at_);
  return result;
}

std::string describe_case(DType dtype, Shape shape) {
  return dtype_name(dtype) + " " + std::to_string(shape.rows) + " x " + std::to_string(shape.cols) +
         format(" (%.1f MB moved)", case_device_bytes(dtype, shape) / 1e6);
}

std::string cell(const Measurement& m, double value, const char* fmt) {
  return m.verified() ? format(fmt, value) : std::string("FAILED");
}

std::string speedup_cell(const Measurement& m, const Measurement* base) {
  if (!base || !base->verified() || !m.verified()) return "-";
  return format("%.2fx", m.gbps / base->gbps);
}

namespace {

// Refuses, in one line, a case that does not fit in the GPU's or the host's memory.
void check_fits(const DeviceInfo& device, DType dtype, Shape shape) {
  const std::string what = dtype_name(dtype) + " " + std::to_string(shape.rows) + " x " +
                           std::to_string(shape.cols);
  std::size_t free_bytes = 0, total_bytes = 0;
  TP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t need = case_device_bytes(dtype, shape);
  if (need > free_bytes) {
    throw UsageError(what + format(" needs %.1f GB of GPU memory (input + output) but the %s has "
                                   "%.1f GB free", need / 1e9, device.name.c_str(), free_bytes / 1e9));
  }
  // The host keeps the input, the reference and a downloaded copy of the output.
  const double host_need = 1.5 * need;
  const double host_total = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
  if (host_total > 0 && host_need > host_total) {
    throw UsageError(what + format(" needs %.1f GB of host memory for verification but this "
                                   "machine has %.1f GB", host_need / 1e9, host_total / 1e9));
  }
}

}  // namespace

Bench::Bench(const Options& options) : options_(options) {
  require_device();
  TP_CUDA_CHECK(cudaSetDevice(0));
  device_ = query_device(0);
  TP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  if (!options_.warm_l2) flusher_ = std::make_unique<L2Flusher>(device_.l2_bytes);
  if (!options_.csv_path.empty()) csv_ = std::make_unique<CsvWriter>(options_.csv_path);
  memcpy_ = memcpy_kernel();
}

void Bench::print_header() const {
  std::printf("%s\n", device_.summary().c_str());
  if (flusher_) {
    std::printf("L2 flushed before every repetition (cold); median of %d repetitions after warm-up\n",
                options_.reps);
  } else {
    std::printf("WARM L2 (--warm-l2): no flush between repetitions; GB/s of matrices that fit in "
                "L2 is inflated\n");
  }
  std::fflush(stdout);
}

Bench::~Bench() {
  if (stream_) cudaStreamDestroy(stream_);
}

void Bench::for_each_case(const std::function<void(DType, Shape)>& f) const {
  const std::size_t n = options_.dtypes.size() * options_.shapes.size();
  std::size_t i = 0;
  for (DType t : options_.dtypes) {
    for (Shape s : options_.shapes) {
      std::fprintf(stderr, "[%zu/%zu] %s\n", ++i, n, describe_case(t, s).c_str());
      f(t, s);
    }
  }
}

std::vector<Measurement> Bench::run(DType dtype, Shape shape, const std::vector<Kernel>& kernels) {
  check_fits(device_, dtype, shape);
  Case c(dtype, shape, options_.seed);
  std::vector<const Kernel*> list{&memcpy_};
  for (const Kernel& k : kernels) {
    if (k.supports(dtype) && runs_on(k, shape)) list.push_back(&k);
  }
  std::vector<Measurement> results;
  for (const Kernel* k : list) {
    Measurement m;
    m.kernel = k;
    m.dtype = dtype;
    m.shape = shape;
    m.check = c.verify(*k, stream_);
    m.stats = time_work([&](cudaStream_t s) { c.launch(*k, s); }, stream_, options_.reps, flusher_.get());
    // In place, every timed launch transposed the previous one's result: check where that ended.
    if (k->op == Op::transpose_inplace && m.check.ok()) m.check = c.verify_inplace_state(stream_);
    m.gbps = m.stats.median_ms > 0 ? c.bytes_moved() / (m.stats.median_ms * 1e-3) / 1e9 : 0;
    m.pct_of_memcpy = results.empty() ? 100.0 : 100.0 * m.gbps / results.front().gbps;
    if (csv_) {
      csv_->write({device_.name, device_.cc(), device_.cuda(), git_sha(), k->step, k->name,
                   dtype_name(dtype), shape.rows, shape.cols, static_cast<long long>(c.bytes_moved()),
                   m.stats.reps, m.stats.median_ms, m.stats.min_ms, m.stats.max_ms, m.gbps,
                   m.pct_of_memcpy, m.verified()});
    }
    results.push_back(std::move(m));
  }
  return results;
}

int guarded_main(const std::function<int()>& body) {
  try {
    return body();
  } catch (const HelpRequested& help) {
    std::fputs(help.what(), stdout);
    return 0;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}

std::string exercise_note(const std::vector<Measurement>& results, const std::string& exercise,
                          const std::string& solution, double predict_pct) {
  const auto find = [&](const std::string& name) -> const Measurement* {
    for (const Measurement& m : results) {
      if (m.kernel && m.kernel->name == name) return &m;
    }
    return nullptr;
  };
  const Measurement* mine = find(exercise);
  if (!mine) return "";
  if (!mine->verified()) return "your kernel (" + exercise + ") FAILED verification: make it correct before timing it\n";
  const Measurement* own = find(solution);
  char line[256];
  std::snprintf(line, sizeof line, "your kernel: %.1f%% of cudaMemcpy", mine->pct_of_memcpy);
  std::string note = line;
  if (own && own->verified() && own->gbps > 0) {
    std::snprintf(line, sizeof line, ", %.1f%% of the step's own kernel (%s)", 100 * mine->gbps / own->gbps,
                  solution.c_str());
    note += line;
  }
  note += "\n";
  if (predict_pct > 0) {
    const double off = mine->pct_of_memcpy - predict_pct;
    std::snprintf(line, sizeof line, "your prediction: %.1f%% of cudaMemcpy; measured %.1f%%, %.1f points %s it\n",
                  predict_pct, mine->pct_of_memcpy, off < 0 ? -off : off, off < 0 ? "below" : "above");
    note += line;
  }
  return note;
}

int bench_main(int argc, char** argv, const CliSpec& spec,
               const std::function<std::vector<Kernel>(const Options&)>& kernels, const CaseNote& note) {
  return guarded_main([&] {
    const Options options = parse_cli(spec, argc, argv);
    Bench bench(options);
    const std::vector<Kernel> list = kernels(options);
    bench.print_header();
    bool all_verified = true;
    bench.for_each_case([&](DType dtype, Shape shape) {
      const std::vector<Measurement> results = bench.run(dtype, shape, list);
      Table table({"kernel", "dtype", "shape", "ms", "GB/s", "% memcpy", "x prev"}, 3);
      std::string failures;
      for (std::size_t i = 0; i < results.size(); ++i) {
        const Measurement& m = results[i];
        table.add_row({m.kernel->name, dtype_name(dtype),
                       shape_name(shape),
                       cell(m, m.stats.median_ms, "%.4f"), cell(m, m.gbps, "%.1f"),
                       cell(m, m.pct_of_memcpy, "%.1f%%"),
                       speedup_cell(m, i > 0 ? &results[i - 1] : nullptr)});
        if (!m.verified()) failures += m.kernel->name + ": " + m.check.describe() + "\n";
      }
      std::printf("\n%s\n%s%s%s", describe_case(dtype, shape).c_str(), table.render().c_str(),
                  failures.c_str(), note ? note(options, results).c_str() : "");
      std::fflush(stdout);
      all_verified = all_verified && failures.empty();
    });
    if (!all_verified) std::fprintf(stderr, "error: verification failed (see above)\n");
    return all_verified ? 0 : 1;
  });
}

}  // namespace tp
