// The exercises whose TODOs compute an offset (01, 02, 03, 05): a matrix of more than 2^32
// elements, where an offset computed in 32 bits wraps (int past 2^31, unsigned past 2^32) and
// the kernel writes outside the output or to the wrong place, while every small shape passes.
//
// 65537 x 65537 = 4,295,098,369 elements of __half: 8.6 GB a buffer. A CPU reference of that
// size would take minutes, so the GPU fills the input with a pattern (element (r, c) holds the
// 16 bits pattern(r, c), never 0xFFFF), the output is poisoned (0xFFFF everywhere), and after
// the learner's kernel a check kernel compares every output element with the pattern.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>

#include "../gpu_guard.hpp"
#include "tp/buffer.hpp"
#include "tp/error.hpp"
#include "tp/harness.hpp"

namespace tp::exercise_test {

constexpr int kLargeSide = 65537;  // 65537^2 > 2^32

/// The bits of input element (r, c): differ between (r, c) and (c, r) unless r == c, and stay
/// below 0x7C00 (finite halves; the poison 0xFFFF never occurs).
__host__ __device__ inline std::uint16_t pattern(std::size_t r, std::size_t c) {
  return std::uint16_t((r * 31 + c * 17) % 0x7C00);
}

// Templates, so that every test file of a binary may include this header.
template <typename T>
__global__ void fill_pattern(T* in, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n * n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    in[i] = pattern(i / n, i % n);
  }
}

/// Counts the elements of the n x n output `out` that are not the transpose of the pattern,
/// and the lowest offset of one.
template <typename T>
__global__ void count_wrong(const T* out, std::size_t n, unsigned long long* wrong, unsigned long long* first) {
  for (std::size_t o = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; o < n * n;
       o += std::size_t(gridDim.x) * blockDim.x) {
    if (out[o] != pattern(o % n, o / n)) {  // out(o / n, o % n) is in(o % n, o / n)
      atomicAdd(wrong, 1ull);
      atomicMin(first, static_cast<unsigned long long>(o));
    }
  }
}

/// Runs `k` (a transpose) on the __half matrix of kLargeSide x kLargeSide elements and expects
/// out(c, r) == in(r, c) everywhere. Skipped where the GPU lacks the 17 GB.
inline void expect_transpose_past_2_32(const Kernel& k) {
  TP_GPU_TEST_GUARD();
  const std::size_t n = kLargeSide, bytes = n * n * sizeof(std::uint16_t);
  std::size_t free_bytes = 0, total = 0;
  TP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < 2 * bytes + (std::size_t(1) << 30)) GTEST_SKIP() << "needs " << 2 * bytes / 1e9 << " GB of GPU memory";
  DeviceBuffer in(bytes), out(bytes), counts(2 * sizeof(unsigned long long));
  fill_pattern<<<2048, 256>>>(in.as<std::uint16_t>(), n);
  TP_CHECK_LAUNCH("fill_pattern");
  out.poison();
  k.run(DType::f16, out.data(), in.data(), int(n), int(n), 0);
  TP_CUDA_CHECK(cudaDeviceSynchronize());
  const unsigned long long none[2] = {0, ~0ull};
  counts.upload(none, sizeof(none));
  auto* wrong = counts.as<unsigned long long>();
  count_wrong<<<2048, 256>>>(out.as<std::uint16_t>(), n, wrong, wrong + 1);
  TP_CHECK_LAUNCH("count_wrong");
  unsigned long long got[2];
  counts.download(got, sizeof(got));
  EXPECT_EQ(got[0], 0u) << k.name << " on " << n << " x " << n << " half: " << got[0] << " of " << n * n
                        << " elements wrong, the first at output offset " << got[1]
                        << ". An offset computed in 32 bits wraps past 2^31 (int) or 2^32 (unsigned) elements";
}

}  // namespace tp::exercise_test

/// Defines the test Suite.TransposesPast2To32Elements: expect_transpose_past_2_32(kernel).
#define TP_EXERCISE_TEST_PAST_2_32(Suite, kernel) \
  TEST(Suite, TransposesPast2To32Elements) { ::tp::exercise_test::expect_transpose_past_2_32(kernel); }
