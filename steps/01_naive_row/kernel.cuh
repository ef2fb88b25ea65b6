/// @file steps/01_naive_row/kernel.cuh
/// @brief PLACEHOLDER, being written: naive row transpose: threads along input rows.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>

#include "tp/error.hpp"

namespace tp::step01 {

/// Out-of-place transpose: `in` is rows x cols, row-major; `out` is cols x rows, row-major.
template <typename T>
void transpose(T*, const T*, int, int, cudaStream_t = 0) {
  throw std::logic_error("01_naive_row: not written yet");
}

}  // namespace tp::step01
