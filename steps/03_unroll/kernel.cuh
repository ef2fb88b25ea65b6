/// @file steps/03_unroll/kernel.cuh
/// @brief PLACEHOLDER, being written: unrolled transpose.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>

#include "tp/error.hpp"

namespace tp::step03 {

template <int K, typename T>
void transpose_unroll(T*, const T*, int, int, cudaStream_t = 0) {
  throw std::logic_error("step 03: not written yet");
}
/// Out-of-place transpose: `in` is rows x cols, row-major; `out` is cols x rows, row-major.
template <typename T>
void transpose(T*, const T*, int, int, cudaStream_t = 0) {
  throw std::logic_error("03_unroll: not written yet");
}

}  // namespace tp::step03
