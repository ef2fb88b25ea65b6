/// @file steps/00_copy/exercise.cuh
/// @brief Exercise 00: write the 16-byte vectorized copy yourself.
///
/// The launcher is done: it checks alignment and launches one thread per 16-byte vector. Fill in the two TODOs in the
/// kernel so that each thread copies whole 16-byte vectors (uint4) and the threads of the
/// grid together copy the last few elements that do not fill a vector.
///
/// Check your work (the tests fail until the TODOs are done right):
///
///     cmake -B build -DTP_EXERCISES=ON && cmake --build build -j
///     ctest --test-dir build -L exercise -R 00 --output-on-failure
///     build/bin/00_copy --exercise        # your kernel as a third row
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "tp/error.hpp"
#include "tp/launch.cuh"

namespace tp::step00::exercise {

template <typename T>
__global__ void copy_vec16_kernel(T* __restrict__ out, const T* __restrict__ in, std::size_t n) {
  constexpr std::size_t kPerVec = 16 / sizeof(T);  // elements in one 16-byte vector
  const std::size_t n_vec = n / kPerVec;           // whole vectors in the matrix
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;  // this thread's vector

  if (i < n_vec) {
    // TODO(1): copy vector number i with one 16-byte load and one 16-byte store.
    //          Hint: reinterpret_cast `in` to `const uint4*` and `out` to `uint4*`.
  }

  // TODO(2): copy the tail: elements n_vec * kPerVec .. n - 1 (fewer than kPerVec of them),
  //          one element per thread: thread i copies element n_vec * kPerVec + i, if it exists.
}

/// Same API as tp::step00::copy_vec16.
template <typename T>
void copy_vec16(T* out, const T* in, int rows, int cols, cudaStream_t stream = 0) {
  check_shape(rows, cols);
  const std::size_t n = std::size_t(rows) * std::size_t(cols);
  if (n == 0) return;
  if (reinterpret_cast<std::uintptr_t>(out) % 16 != 0 || reinterpret_cast<std::uintptr_t>(in) % 16 != 0) {
    throw std::invalid_argument("exercise copy_vec16: pointers must be 16-byte aligned");
  }
  constexpr int kThreads = 256;
  constexpr std::size_t kPerVec = 16 / sizeof(T);
  // One thread per vector, and at least one per tail element.
  const std::size_t blocks = ceil_div(std::max(n / kPerVec, n % kPerVec), kThreads);
  copy_vec16_kernel<<<unsigned(blocks), kThreads, 0, stream>>>(out, in, n);
  TP_CHECK_LAUNCH("exercise::copy_vec16_kernel");
}

}  // namespace tp::step00::exercise
