/// @file steps/02_naive_col/kernel.cuh
/// @brief PLACEHOLDER, being written: naive column transpose: threads along output rows.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>

#include "tp/error.hpp"

namespace tp::step02 {

/// Out-of-place transpose: `in` is rows x cols, row-major; `out` is cols x rows, row-major.
template <typename T>
void transpose(T*, const T*, int, int, cudaStream_t = 0) {
  throw std::logic_error("02_naive_col: not written yet");
}

}  // namespace tp::step02
