// Every kernel of a list (tested_kernels.hpp: the registry's in tp_gpu_tests) x every dtype x
// awkward shapes, against the CPU reference; the API's contract on zero shapes and
// misaligned pointers; and the library references the tour shows. Negative shapes, and
// rectangles for in-place kernels that only take squares, are refused before the GPU is
// touched: the cpu tests check that.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "../gpu_guard.hpp"
#include "references.cuh"
#include "tested_kernels.hpp"
#include "tp/buffer.hpp"
#include "tp/error.hpp"
#include "tp/timing.hpp"

namespace {

const std::vector<tp::Kernel>& kernels() {
  static const std::vector<tp::Kernel> all = tp::testing::tested_kernels();
  return all;
}

// The steps of the list, in order ("00_copy", ...: each kernel's `step`).
const std::vector<std::string>& steps() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const tp::Kernel& k : kernels()) {
      if (std::find(v.begin(), v.end(), k.step) == v.end()) v.push_back(k.step);
    }
    return v;
  }();
  return names;
}

std::vector<std::size_t> kernel_indices() {
  std::vector<std::size_t> idx(kernels().size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  return idx;
}

// Shapes that break naive index maths: single rows and columns, primes and off-by-one
// multiples of the tile, very flat and very tall (grid limits), and one large square.
// 520 x 1000: multiples of 8 (the 16-byte path of every type) that end in part tiles.
const std::vector<tp::Shape> kShapes = {
    {1, 1},      {1, 7},       {7, 1},       {31, 33},   {33, 31},     {64, 64},
    {100, 1000}, {1000, 100},  {1023, 1025}, {3, 70000}, {70000, 3},   {4096, 4096},
    {520, 1000}, {1, 3000000}, {3000000, 1}};

using Param = std::tuple<std::size_t, tp::DType, tp::Shape>;

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  return steps()[std::get<0>(info.param)] + "_" + tp::dtype_name(std::get<1>(info.param)) + "_" +
         tp::shape_name(std::get<2>(info.param));
}

// A step x dtype x shape on the GPU (skipped without one, failed with TP_REQUIRE_GPU=1).
class OnGpu : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override { TP_GPU_TEST_GUARD(); }
};

// Every kernel of the step on one case: the input and its CPU reference are made once and
// shared by the step's kernels; a failure names the kernel, the dtype and the shape.
class StepKernels : public OnGpu {};

TEST_P(StepKernels, MatchTheCpuReferenceBitForBit) {
  const auto [step, dtype, shape] = GetParam();
  tp::Case c(dtype, shape, /*seed=*/1000 + shape.rows * 31 + shape.cols);
  for (const tp::Kernel& k : kernels()) {
    if (k.step != steps()[step] || !tp::runs_on(k, shape)) continue;  // some in-place kernels: squares only
    ASSERT_TRUE(k.supports(dtype)) << k.name;
    const tp::CompareResult r = c.verify(k, 0);
    EXPECT_TRUE(r.ok()) << k.step << " " << k.name << " on " << tp::describe_case(dtype, shape) << ": "
                        << r.describe();
  }
}

std::vector<std::size_t> step_indices() {
  std::vector<std::size_t> idx(steps().size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  return idx;
}

INSTANTIATE_TEST_SUITE_P(Registry, StepKernels,
                         ::testing::Combine(::testing::ValuesIn(step_indices()),
                                            ::testing::ValuesIn(tp::kAllDTypes),
                                            ::testing::ValuesIn(kShapes)),
                         param_name);

using ArgParam = std::tuple<std::size_t, tp::DType>;

class KernelArguments : public ::testing::TestWithParam<ArgParam> {
 protected:
  void SetUp() override { TP_GPU_TEST_GUARD(); }
};

TEST_P(KernelArguments, ZeroShapeWritesNothing) {
  const auto [index, dtype] = GetParam();
  const tp::Kernel& k = kernels()[index];
  const std::size_t bytes = 64 * tp::dtype_size(dtype);
  tp::DeviceBuffer in(bytes), out(bytes);
  TP_CUDA_CHECK(cudaMemset(in.data(), 0x11, bytes));
  out.poison();
  for (auto [rows, cols] : std::vector<std::pair<int, int>>{{0, 5}, {5, 0}, {0, 0}}) {
    k.run(dtype, out.data(), in.data(), rows, cols, 0);
  }
  TP_CUDA_CHECK(cudaDeviceSynchronize());
  const auto host = tp::download<unsigned char>(out, bytes);
  for (std::size_t i = 0; i < bytes; ++i) ASSERT_EQ(host[i], tp::kPoisonByte) << "byte " << i;
}

// Vectorized paths need 16-byte aligned pointers (and rows); every kernel must still be right
// when the buffers start one element past an aligned address.
TEST_P(KernelArguments, MisalignedPointersStillGiveTheRightResult) {
  const tp::Kernel& k = kernels()[std::get<0>(GetParam())];
  const tp::DType dtype = std::get<1>(GetParam());
  for (const tp::Shape shape : {tp::Shape{64, 64}, tp::Shape{33, 100}}) {
    tp::dispatch(dtype, [&, shape = shape](auto tag) {
      using T = decltype(tag);
      const std::size_t n = std::size_t(shape.rows) * shape.cols;
      std::vector<T> in(n + 1), want(n);
      tp::fill_distinct(in.data() + 1, shape.rows, shape.cols, 77);
      if (k.op != tp::Op::copy) {
        tp::reference_transpose(want.data(), in.data() + 1, shape.rows, shape.cols);
      } else {
        std::copy(in.begin() + 1, in.end(), want.begin());
      }
      tp::DeviceBuffer d_in((n + 1) * sizeof(T)), d_out((n + 1) * sizeof(T));
      tp::upload(d_in, in);
      if (k.op == tp::Op::transpose_inplace) {  // the matrix at d_out + 1, transposed there
        if (!tp::runs_on(k, shape)) return;
        tp::upload(d_out, in);
        k.run(dtype, d_out.as<T>() + 1, d_out.as<T>() + 1, shape.rows, shape.cols, 0);
      } else {
        d_out.poison();
        k.run(dtype, d_out.as<T>() + 1, d_in.as<T>() + 1, shape.rows, shape.cols, 0);
      }
      TP_CUDA_CHECK(cudaDeviceSynchronize());
      const std::vector<T> got = tp::download<T>(d_out, n + 1);
      const long long out_rows = k.op != tp::Op::copy ? shape.cols : shape.rows;
      const tp::CompareResult r = tp::compare_bits(want.data(), got.data() + 1, out_rows, n / out_rows);
      EXPECT_TRUE(r.ok()) << k.name << " on " << tp::describe_case(dtype, shape) << ", pointers + 1: " << r.describe();
    });
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, KernelArguments,
                         ::testing::Combine(::testing::ValuesIn(kernel_indices()),
                                            ::testing::ValuesIn(tp::kAllDTypes)),
                         [](const ::testing::TestParamInfo<ArgParam>& info) {
                           const tp::Kernel& k = kernels()[std::get<0>(info.param)];
                           return k.step + "_" + k.name + "_" + tp::dtype_name(std::get<1>(info.param));
                         });

// In place: the sizes the tile pairs must get right (n = 1, 2, around and off the tile
// sides of 32, 64 and 128 elements, odd n on the element path, a multiple of 8 above 4096),
// and a matrix transposed again and again: every application must be exact. Kernels that
// take rectangles also get the shapes the passes of rect.cuh must get right: coprime sides,
// common factors small and large, one side a multiple of the other, rows and columns too
// long for shared memory (3 x 70000 and 70000 x 3 in 4- and 8-byte types), single rows;
// and the shapes that take cycles.cuh's two passes (a common factor of 512 bytes or more:
// 512 x 1536, 1024 x 2048, 768 x 1280 both ways, 2560 x 1792, whose long cycles are cut).
const std::vector<tp::Shape> kInplaceShapes = {
    {1, 1},     {2, 2},       {8, 8},       {31, 31},     {33, 33},   {63, 63},   {65, 65},
    {100, 100}, {127, 127},   {129, 129},   {1000, 1000}, {1023, 1023}, {4097, 4097}, {4104, 4104},
    {1, 7},     {7, 1},       {2, 3},       {3, 2},       {31, 33},   {97, 89},   {256, 255},
    {60, 84},   {84, 60},     {64, 96},     {512, 128},   {1000, 100}, {100, 1000}, {720, 1260},
    {1024, 2048}, {1000, 7},  {3, 70000},   {70000, 3},   {5, 140000}, {1, 100000}, {512, 1536},
    {768, 1280},  {1280, 768}, {2560, 1792}};

// (kernel, dtype, shape) for every in-place kernel on every shape it runs on.
std::vector<Param> inplace_params() {
  std::vector<Param> params;
  for (std::size_t i = 0; i < kernels().size(); ++i) {
    if (kernels()[i].op != tp::Op::transpose_inplace) continue;
    for (tp::DType dtype : tp::kAllDTypes) {
      for (tp::Shape shape : kInplaceShapes) {
        if (tp::runs_on(kernels()[i], shape)) params.emplace_back(i, dtype, shape);
      }
    }
  }
  return params;
}

// Named after the kernel: "08_inplace_inplace_float_33x33".
std::string kernel_param_name(const ::testing::TestParamInfo<Param>& info) {
  const tp::Kernel& k = kernels()[std::get<0>(info.param)];
  return k.step + "_" + k.name + "_" + tp::dtype_name(std::get<1>(info.param)) + "_" +
         tp::shape_name(std::get<2>(info.param));
}

class InplaceKernels : public OnGpu {};

TEST_P(InplaceKernels, EveryApplicationIsTheExactTranspose) {
  const auto [index, dtype, shape] = GetParam();
  const tp::Kernel& k = kernels()[index];
  tp::Case c(dtype, shape, /*seed=*/3000 + shape.rows);
  const tp::CompareResult first = c.verify(k, 0);  // the input, transposed once
  ASSERT_TRUE(first.ok()) << k.name << " on " << tp::describe_case(dtype, shape) << ": " << first.describe();
  for (int applications = 2; applications <= 3; ++applications) {  // back to the input, then transposed again
    c.launch(k, 0);
    const tp::CompareResult r = c.verify_inplace_state(0);
    EXPECT_TRUE(r.ok()) << k.name << " on " << tp::describe_case(dtype, shape) << " after " << applications
                        << " applications: " << r.describe();
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, InplaceKernels, ::testing::ValuesIn(inplace_params()), kernel_param_name);

// The library references (cuBLAS geam, cuBLASLt transform) for every dtype each supports. A
// plain test rather than a parameterized one: creating their handles needs a GPU.
TEST(References, MatchTheCpuReferenceBitForBit) {
  TP_GPU_TEST_GUARD();
  const tp::references::Libraries libraries;
  for (const tp::Kernel& k : libraries.kernels()) {
    for (tp::DType dtype : tp::kAllDTypes) {
      if (!k.supports(dtype)) continue;
      for (const tp::Shape shape : {tp::Shape{1, 1}, tp::Shape{31, 33}, tp::Shape{1000, 100},
                                    tp::Shape{4000, 6000}}) {
        tp::Case c(dtype, shape, /*seed=*/2000 + shape.rows * 31 + shape.cols);
        const tp::CompareResult r = c.verify(k, 0);
        EXPECT_TRUE(r.ok()) << k.name << " on " << tp::describe_case(dtype, shape) << ": " << r.describe();
      }
    }
  }
}

// The benchmarks verify on a stream created with cudaStreamNonBlocking, right after the input
// was uploaded from pageable memory. That stream does not wait for the legacy default stream,
// so the upload itself must have landed (a sweep once caught cudaMemcpy reading a half-uploaded
// input at 724 x 724). Several sizes, because the race depended on the size.
TEST(Harness, VerifiesOnANonBlockingStreamRightAfterTheUpload) {
  TP_GPU_TEST_GUARD();
  cudaStream_t stream = nullptr;
  TP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const tp::Kernel memcpy = tp::memcpy_kernel();
  for (tp::DType dtype : {tp::DType::f16, tp::DType::f32}) {
    for (int n : {362, 512, 724, 1024, 1448, 2048}) {
      tp::Case c(dtype, {n, n}, 7u + static_cast<unsigned>(n));
      const tp::CompareResult r = c.verify(memcpy, stream);
      EXPECT_TRUE(r.ok()) << tp::describe_case(dtype, {n, n}) << ": " << r.describe();
    }
  }
  TP_CUDA_CHECK(cudaStreamDestroy(stream));
}

// Where a kernel was handed its pointers.
struct Seen {
  std::uintptr_t in = 1, out = 1;
};

// A copy of `extra` bytes more or less than the matrix, with cudaMemcpy, that notes its
// pointers in `seen` if given: kernels for the harness's own checks.
tp::Kernel copy_of(long long extra, Seen* seen = nullptr) {
  tp::Kernel k = tp::memcpy_kernel();
  for (tp::DType t : tp::kAllDTypes) {
    const std::size_t size = tp::dtype_size(t);
    k.launch[tp::Kernel::index(t)] = [size, extra, seen](void* out, const void* in, int rows, int cols, cudaStream_t s) {
      if (seen) *seen = {reinterpret_cast<std::uintptr_t>(in), reinterpret_cast<std::uintptr_t>(out)};
      const long long bytes = (long long)(rows) * cols * (long long)(size) + extra;
      TP_CUDA_CHECK(cudaMemcpyAsync(out, in, std::size_t(bytes), cudaMemcpyDeviceToDevice, s));
    };
  }
  return k;
}

// Offset pointers (Kernel::offset): the kernel gets pointers that many elements past the
// 256-byte aligned buffers, and is verified there; a kernel that writes a byte past its
// output, or leaves one unwritten, fails.
TEST(Harness, RunsKernelsOnOffsetPointersAndChecksTheBytesAroundTheOutput) {
  TP_GPU_TEST_GUARD();
  for (tp::DType dtype : tp::kAllDTypes) {
    const std::size_t size = tp::dtype_size(dtype);
    const tp::Shape shape{33, 31};
    tp::Case c(dtype, shape, 11);
    for (int offset : {0, 1, 3, 0}) {  // back to 0: the input moves back
      Seen seen;
      const tp::CompareResult r = c.verify(tp::at_offset(copy_of(0, &seen), "copy", offset), 0);
      EXPECT_TRUE(r.ok()) << tp::dtype_name(dtype) << " offset " << offset << ": " << r.describe();
      EXPECT_EQ(seen.in % 256, offset * size) << tp::dtype_name(dtype);
      EXPECT_EQ(seen.out % 256, offset * size) << tp::dtype_name(dtype);
    }
    for (int offset : {0, 2}) {
      const tp::CompareResult past = c.verify(tp::at_offset(copy_of(1), "past", offset), 0);
      EXPECT_EQ(past.mismatches, 0u);
      EXPECT_EQ(past.written_around, 1u) << tp::dtype_name(dtype) << " offset " << offset;
      EXPECT_FALSE(past.ok());
      const tp::CompareResult short_of = c.verify(tp::at_offset(copy_of(-1), "short", offset), 0);
      EXPECT_EQ(short_of.mismatches, 1u) << tp::dtype_name(dtype) << " offset " << offset;
      EXPECT_EQ(short_of.written_around, 0u);
    }
    const tp::Kernel too_far = tp::at_offset(copy_of(0), "too_far", int(tp::Case::kRoom / size) + 1);
    EXPECT_THROW(c.verify(too_far, 0), std::invalid_argument);
  }
}

// The compute capability the kernels were compiled for, as the kernels themselves see it. A
// build with PTX only (e.g. -DCMAKE_CUDA_ARCHITECTURES=75-virtual) is compiled for the GPU when
// loaded, but __CUDA_ARCH__ stays the PTX's: that is how the older GPUs' paths (no cp.async, no
// TMA) run on a newer GPU. TP_EXPECT_CUDA_ARCH=750 makes the test fail unless they do.
__global__ void report_cuda_arch(int* arch) {
#ifdef __CUDA_ARCH__
  *arch = __CUDA_ARCH__;
#endif
}

TEST(Build, KernelsRunTheArchitectureTheyWereCompiledFor) {
  TP_GPU_TEST_GUARD();
  tp::DeviceBuffer arch(sizeof(int));
  TP_CUDA_CHECK(cudaMemset(arch.data(), 0, sizeof(int)));
  report_cuda_arch<<<1, 1>>>(arch.as<int>());
  TP_CUDA_CHECK(cudaGetLastError());
  int seen = 0;
  arch.download(&seen, sizeof(int));
  cudaFuncAttributes attributes{};
  TP_CUDA_CHECK(cudaFuncGetAttributes(&attributes, report_cuda_arch));
  int device = 0, major = 0, minor = 0;
  TP_CUDA_CHECK(cudaGetDevice(&device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  TP_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  std::printf("kernels see __CUDA_ARCH__ %d (PTX %d, machine code %d) on a GPU of compute capability %d.%d\n",
              seen, attributes.ptxVersion, attributes.binaryVersion, major, minor);
  EXPECT_GT(seen, 0);
  EXPECT_LE(seen, 100 * major + 10 * minor) << "code for a newer GPU cannot run on this one";
  if (const char* expected = std::getenv("TP_EXPECT_CUDA_ARCH")) {
    EXPECT_EQ(seen, std::atoi(expected)) << "TP_EXPECT_CUDA_ARCH=" << expected;
  }
}

// Warm-L2 timing relies on keep_busy to hold the GPU while the events are enqueued.
TEST(Harness, KeepBusyHoldsTheGpuForTheRequestedTime) {
  TP_GPU_TEST_GUARD();
  // Once untimed first: a build with PTX only (e.g. compute_75) compiles the kernel at its first
  // launch, and that would fall between the two events.
  tp::keep_busy(0, 1);
  TP_CUDA_CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  TP_CUDA_CHECK(cudaEventCreate(&start));
  TP_CUDA_CHECK(cudaEventCreate(&stop));
  TP_CUDA_CHECK(cudaEventRecord(start, 0));
  tp::keep_busy(0, 200);
  TP_CUDA_CHECK(cudaEventRecord(stop, 0));
  TP_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  TP_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  EXPECT_GE(ms, 0.2f);
  EXPECT_LT(ms, 50.0f);
  TP_CUDA_CHECK(cudaEventDestroy(start));
  TP_CUDA_CHECK(cudaEventDestroy(stop));
}

}  // namespace
