/// @file steps/references.cuh
/// @brief Library transposes the tour shows beside ours: cuBLAS geam (float, double),
/// verified bit for bit like our kernels.
#pragma once

#include <cublas_v2.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "tp/error.hpp"
#include "tp/harness.hpp"

namespace tp::references {

/// Throws std::runtime_error naming the cuBLAS call that failed.
inline void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + " failed: " + cublasGetStatusString(status));
  }
}

/// Owns a cuBLAS handle.
class CublasHandle {
 public:
  CublasHandle() { check_cublas(cublasCreate(&handle_), "cublasCreate"); }
  ~CublasHandle() { cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

/// C = alpha * op(A) + beta * op(B) with op(A) = A^T, alpha = 1, beta = 0. cuBLAS is
/// column-major: our row-major rows x cols input is its cols x rows matrix A (lda = cols),
/// and our cols x rows output is its rows x cols matrix C (ldc = rows). B is C (allowed
/// in-place form; with beta = 0 it contributes nothing).
template <typename T, typename Geam>
void geam_transpose(cublasHandle_t handle, Geam geam, const char* name, T* out, const T* in,
                    int rows, int cols, cudaStream_t stream) {
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  const T alpha = 1, beta = 0;
  check_cublas(cublasSetStream(handle, stream), "cublasSetStream");
  check_cublas(geam(handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &alpha, in, cols, &beta, out,
                    rows, out, rows),
               name);
}

/// cublasSgeam / cublasDgeam as a transpose (float and double only).
inline Kernel cublas_geam(cublasHandle_t handle) {
  Kernel k{"ref", "cublas_geam", Op::transpose, false, {}};
  k.launch[Kernel::index(DType::f32)] = [handle](void* out, const void* in, int rows, int cols,
                                                 cudaStream_t stream) {
    geam_transpose(handle, cublasSgeam, "cublasSgeam", static_cast<float*>(out),
                   static_cast<const float*>(in), rows, cols, stream);
  };
  k.launch[Kernel::index(DType::f64)] = [handle](void* out, const void* in, int rows, int cols,
                                                 cudaStream_t stream) {
    geam_transpose(handle, cublasDgeam, "cublasDgeam", static_cast<double*>(out),
                   static_cast<const double*>(in), rows, cols, stream);
  };
  return k;
}

/// The library handles the tour and the profiler need, and the reference kernels built on them.
class Libraries {
 public:
  /// Every library reference, in the order the tour shows them.
  std::vector<Kernel> kernels() const { return {cublas_geam(cublas_.get())}; }

 private:
  CublasHandle cublas_;
};

}  // namespace tp::references
