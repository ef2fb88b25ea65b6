/// @file steps/04_vectorize/kernel.cuh
/// @brief PLACEHOLDER, being written: 16-byte stores.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>

#include "tp/error.hpp"

namespace tp::step04 {

/// Out-of-place transpose: `in` is rows x cols, row-major; `out` is cols x rows, row-major.
template <typename T>
void transpose(T*, const T*, int, int, cudaStream_t = 0) {
  throw std::logic_error("04_vectorize: not written yet");
}

}  // namespace tp::step04
