/// @file steps/launchers.hpp
/// @brief Adapters from a step's API to the harness's Kernel (make_kernel): include this
/// where kernels are registered (a step's kernels.cu, the lab, a step main's exercise row).
#pragma once

#include <stdexcept>
#include <string>

#include "tp/error.hpp"
#include "tp/harness.hpp"

/// A generic launcher for make_kernel(): forwards (out, in, rows, cols, stream) to `fn`.
#define TP_LAUNCHER(fn) \
  [](auto* out, const auto* in, int rows, int cols, cudaStream_t stream) { fn(out, in, rows, cols, stream); }

/// A launcher for an in-place kernel `fn(data, n, stream)`: the harness passes the matrix as
/// `out` (and `in` is the same buffer). An empty shape does nothing; a rectangle is refused.
#define TP_INPLACE_LAUNCHER(fn)                                                               \
  [](auto* out, const auto*, int rows, int cols, cudaStream_t stream) {                       \
    ::tp::check_shape(rows, cols);                                                            \
    if (rows == 0 || cols == 0) return;                                                       \
    if (rows != cols)                                                                         \
      throw std::invalid_argument("in-place transpose needs a square matrix, got " +          \
                                  std::to_string(rows) + " x " + std::to_string(cols));       \
    fn(out, rows, stream);                                                                    \
  }

/// A launcher for an in-place kernel `fn(data, rows, cols, stream)` that takes any shape (mark
/// its Kernel with takes_rectangles). The harness passes the matrix as `out`, and after an odd
/// number of launches passes the shape the other way round (the matrix is then cols x rows).
#define TP_INPLACE_ANY_LAUNCHER(fn) \
  [](auto* out, const auto*, int rows, int cols, cudaStream_t stream) { fn(out, rows, cols, stream); }
