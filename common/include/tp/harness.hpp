/// @file harness.hpp
/// @brief The comparison harness: named kernels are verified against the CPU reference, timed
/// with cold L2 beside cudaMemcpy, printed as a table and written as CSV rows.
///
/// A step's main.cu lists its kernels and calls bench_main(); the tour and the tests use
/// Kernel, Case and Bench directly.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tp/buffer.hpp"
#include "tp/cli.hpp"
#include "tp/data.hpp"
#include "tp/device.hpp"
#include "tp/dtype.hpp"
#include "tp/report.hpp"
#include "tp/timing.hpp"

namespace tp {

/// What a kernel computes: `out` = `in` (rows x cols), `out` (cols x rows) = transpose of
/// `in`, or the transpose of `out` in its own memory (`in` is then `out` too): a rows x cols
/// matrix there becomes cols x rows.
enum class Op { copy, transpose, transpose_inplace };

/// Type-erased launcher: enqueue the kernel on `stream` for a rows x cols input.
using LaunchFn = std::function<void(void* out, const void* in, int rows, int cols,
                                    cudaStream_t stream)>;

/// A named kernel with one launcher per element type (empty where a type is unsupported).
struct Kernel {
  std::string step;  ///< "00_copy", ...; "ref" for cudaMemcpy and library references
  std::string name;  ///< e.g. "copy_vec16"
  Op op = Op::transpose;
  bool in_tour = false;  ///< the kernel that represents its step in the tour
  std::array<LaunchFn, kAllDTypes.size()> launch;
  bool rectangles = false;  ///< in place: runs on any shape, not only squares
  /// Offset pointers: `in` and `out` start this many elements past the starts of their
  /// buffers (which cudaMalloc aligns to 256 bytes), as a matrix inside a larger allocation
  /// does. 0: aligned. At most Case::kRoom bytes.
  int offset = 0;

  bool supports(DType t) const { return static_cast<bool>(launch[index(t)]); }
  void run(DType t, void* out, const void* in, int rows, int cols, cudaStream_t stream) const;
  static std::size_t index(DType t) { return static_cast<std::size_t>(t); }
};

/// Whether kernel `k` can run on `shape`: an in-place kernel needs a square unless it takes
/// rectangles.
inline bool runs_on(const Kernel& k, Shape shape) {
  return k.op != Op::transpose_inplace || k.rectangles || shape.rows == shape.cols;
}

/// `k`, marked as an in-place kernel that takes rectangles.
inline Kernel takes_rectangles(Kernel k) {
  k.rectangles = true;
  return k;
}

/// `k` on offset pointers, `elements` past aligned starts, under the name `name`.
inline Kernel at_offset(Kernel k, std::string name, int elements) {
  k.name = std::move(name);
  k.offset = elements;
  return k;
}

/// Builds a Kernel from a generic callable `f(T* out, const T* in, int rows, int cols,
/// cudaStream_t)`, instantiated for all four element types. Typical use:
/// `make_kernel("00_copy", "copy_2d", Op::copy, [](auto* o, const auto* i, int r, int c,
/// cudaStream_t s) { step00::copy_2d(o, i, r, c, s); })`.
template <typename F>
Kernel make_kernel(std::string step, std::string name, Op op, F f) {
  Kernel k{std::move(step), std::move(name), op, false, {}};
  for (DType t : kAllDTypes) {
    dispatch(t, [&](auto tag) {
      using T = decltype(tag);
      k.launch[Kernel::index(t)] = [f](void* out, const void* in, int rows, int cols,
                                       cudaStream_t stream) {
        f(static_cast<T*>(out), static_cast<const T*>(in), rows, cols, stream);
      };
    });
  }
  return k;
}

/// The ceiling: cudaMemcpyAsync device-to-device of the same bytes.
Kernel memcpy_kernel();

/// One (dtype, shape) problem: a distinct-valued input on host and device, the expected
/// outputs, and a device output buffer. Both buffers have kRoom bytes more than the matrix:
/// room for a kernel's offset (Kernel::offset) and, around the output, bytes that
/// verification checks were not written.
class Case {
 public:
  /// Bytes of room in each buffer beyond the matrix.
  static constexpr std::size_t kRoom = 256;
  Case(DType dtype, Shape shape, std::uint64_t seed);
  DType dtype() const { return dtype_; }
  Shape shape() const { return shape_; }
  /// 2 x rows x cols x sizeof(T): every element read once and written once.
  std::size_t bytes_moved() const { return 2 * bytes_; }
  /// Poisons the output, runs `k` once, and compares the output bit for bit with the reference;
  /// the rest of the output buffer (the room before and after the output) must stay poisoned.
  /// In-place kernels: copies the input into the output buffer and transposes it there.
  CompareResult verify(const Kernel& k, cudaStream_t stream);
  /// Enqueues `k` once on the case's buffers (for timing). An in-place kernel transposes the
  /// output buffer again: the result of the previous launch, which is cols x rows after an
  /// odd number of launches (the launch then gets the shape that way round).
  void launch(const Kernel& k, cudaStream_t stream);
  /// In-place kernels, after verify() and any number of launch(): compares the output buffer
  /// with what that many transposes of the input give (the input after an even number, its
  /// transpose after an odd one), so every timed launch is checked, not only the first.
  CompareResult verify_inplace_state(cudaStream_t stream);

 private:
  const std::vector<unsigned char>& expected(Op op);
  /// Bytes from the buffers' starts to the matrices for `k` (its offset); moves the input there.
  std::size_t place_input(const Kernel& k);
  /// Bytes of the output buffer outside [at, at + bytes_) that are no longer poisoned.
  std::size_t written_around(std::size_t at) const;
  CompareResult compare_output(const std::vector<unsigned char>& want, bool transposed, cudaStream_t stream);
  DType dtype_;
  Shape shape_;
  std::size_t bytes_;
  std::vector<unsigned char> input_;
  std::vector<unsigned char> transposed_;  // computed on first use
  DeviceBuffer d_in_, d_out_;
  std::unique_ptr<unsigned char[]> got_;  // the downloaded output, allocated once (left uninitialised)
  long long inplace_launches_ = 0;  // in-place transposes applied to d_out_ since verify()
  std::size_t input_at_ = 0;  // bytes from the start of d_in_ to the input
  std::size_t out_at_ = 0;    // bytes from the start of d_out_ to the output of the last verify()
};

/// Device memory a case needs (input + output, with their room), to check before allocating.
std::size_t case_device_bytes(DType dtype, Shape shape);

/// One measured kernel on one case.
struct Measurement {
  const Kernel* kernel = nullptr;
  DType dtype = DType::f32;
  Shape shape;
  Stats stats;
  double gbps = 0;
  double pct_of_memcpy = 0;  ///< 100 x gbps / cudaMemcpy gbps
  CompareResult check;
  bool verified() const { return check.ok(); }
};

/// Runs cases on device 0: owns the stream, the L2 flusher and the CSV writer.
class Bench {
 public:
  explicit Bench(const Options& options);
  ~Bench();
  const DeviceInfo& device() const { return device_; }
  /// Prints the device and how it is measured (cold or warm L2) to stdout.
  void print_header() const;
  /// Verifies and times cudaMemcpy and then each kernel of `kernels` that supports `dtype`,
  /// in order; writes a CSV row for each. The first measurement is cudaMemcpy.
  std::vector<Measurement> run(DType dtype, Shape shape, const std::vector<Kernel>& kernels);
  /// Prints "[i/n] dtype rows x cols" to stderr for each case and calls `f(dtype, shape)`.
  void for_each_case(const std::function<void(DType, Shape)>& f) const;

 private:
  Options options_;
  DeviceInfo device_;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<L2Flusher> flusher_;
  std::unique_ptr<CsvWriter> csv_;
  Kernel memcpy_;
};

/// "float 4096 x 4096 (134.2 MB moved)"
std::string describe_case(DType dtype, Shape shape);

/// A number of milliseconds or GB/s as printed in tables, or "FAILED" for a failed check.
std::string cell(const Measurement& m, double value, const char* fmt);

/// m's speed-up over `base` ("1.74x"), or "-" when there is no base or either failed its check.
std::string speedup_cell(const Measurement& m, const Measurement* base);

/// Lines printed under a case's table, from its measurements ("" for none).
using CaseNote = std::function<std::string(const Options&, const std::vector<Measurement>&)>;

/// The main of a step binary: parses the command line, checks for a GPU, and for every
/// dtype and shape prints cudaMemcpy and `kernels(options)` side by side (ms, GB/s, % of
/// memcpy, x vs the previous row), then `note` of the case if given. Returns the exit code:
/// 0, 1 on a failed verification or error, 2 on bad usage. Errors are one line on stderr.
int bench_main(int argc, char** argv, const CliSpec& spec,
               const std::function<std::vector<Kernel>(const Options&)>& kernels,
               const CaseNote& note = {});

/// What --exercise adds under each case: the learner's kernel `exercise` as % of cudaMemcpy
/// and as % of the step's own kernel `solution` (both among `results`), and with
/// --predict P the prediction beside the measurement. "" if `exercise` was not measured.
std::string exercise_note(const std::vector<Measurement>& results, const std::string& exercise,
                          const std::string& solution, double predict_pct);

/// Runs `body` and turns exceptions into one line on stderr and an exit code (0 for --help,
/// 2 for usage errors, 1 for everything else). Used by bench_main and the tour.
int guarded_main(const std::function<int()>& body);

}  // namespace tp
