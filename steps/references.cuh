/// @file steps/references.cuh
/// @brief Library transposes the tour shows beside ours: cuBLAS geam (float, double) and
/// cuBLASLt's matrix transform (half, bf16), verified bit for bit like our kernels.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "tp/error.hpp"
#include "tp/harness.hpp"

namespace tp::references {

/// Throws std::runtime_error naming the cuBLAS (or cuBLASLt) call that failed.
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

// [geam]
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
// [geam]

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

/// Owns a cuBLASLt handle.
class CublasLtHandle {
 public:
  CublasLtHandle() { check_cublas(cublasLtCreate(&handle_), "cublasLtCreate"); }
  ~CublasLtHandle() { cublasLtDestroy(handle_); }
  CublasLtHandle(const CublasLtHandle&) = delete;
  CublasLtHandle& operator=(const CublasLtHandle&) = delete;
  cublasLtHandle_t get() const { return handle_; }

 private:
  cublasLtHandle_t handle_ = nullptr;
};

/// cuBLASLt descriptors that destroy themselves, also when a later call throws.
struct LtLayoutDeleter {
  void operator()(cublasLtMatrixLayout_t p) const { cublasLtMatrixLayoutDestroy(p); }
};
struct LtTransformDeleter {
  void operator()(cublasLtMatrixTransformDesc_t p) const { cublasLtMatrixTransformDescDestroy(p); }
};
using LtLayout = std::unique_ptr<std::remove_pointer_t<cublasLtMatrixLayout_t>, LtLayoutDeleter>;
using LtTransformDesc =
    std::unique_ptr<std::remove_pointer_t<cublasLtMatrixTransformDesc_t>, LtTransformDeleter>;

/// A rows x cols row-major matrix of `type`: the leading dimension is the row length, cols.
inline LtLayout row_major_layout(cudaDataType type, int rows, int cols) {
  cublasLtMatrixLayout_t raw = nullptr;
  check_cublas(cublasLtMatrixLayoutCreate(&raw, type, rows, cols, cols),
               "cublasLtMatrixLayoutCreate");
  LtLayout layout(raw);
  const cublasLtOrder_t order = CUBLASLT_ORDER_ROW;
  check_cublas(
      cublasLtMatrixLayoutSetAttribute(raw, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order)),
      "cublasLtMatrixLayoutSetAttribute(ORDER)");
  return layout;
}

/// C = alpha * op(A) + beta * op(B) with op(A) = A^T, alpha = 1, beta = 0 (float scales; a
/// half or bf16 times 1.0f rounds back to itself). Unlike geam, cuBLASLt layouts carry their
/// order, so nothing is swapped: A is our input as it is, rows x cols row-major (ld = cols),
/// and C is our output, cols x rows row-major (ld = rows). B is absent (nullptr and no
/// layout), which the cuBLASLt docs allow when its pointer is null and beta is zero.
template <typename T>
void lt_transpose(cublasLtHandle_t handle, T* out, const T* in, int rows, int cols,
                  cudaStream_t stream) {
  static_assert(std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>);
  check_shape(rows, cols);
  if (rows == 0 || cols == 0) return;
  constexpr cudaDataType type = std::is_same_v<T, __half> ? CUDA_R_16F : CUDA_R_16BF;
  cublasLtMatrixTransformDesc_t raw = nullptr;
  check_cublas(cublasLtMatrixTransformDescCreate(&raw, CUDA_R_32F),
               "cublasLtMatrixTransformDescCreate");
  const LtTransformDesc desc(raw);
  const cublasOperation_t transa = CUBLAS_OP_T;
  check_cublas(cublasLtMatrixTransformDescSetAttribute(raw, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA,
                                                       &transa, sizeof(transa)),
               "cublasLtMatrixTransformDescSetAttribute(TRANSA)");
  const LtLayout a = row_major_layout(type, rows, cols);  // in:  rows x cols
  const LtLayout c = row_major_layout(type, cols, rows);  // out: cols x rows
  const float alpha = 1.0f, beta = 0.0f;
  check_cublas(cublasLtMatrixTransform(handle, desc.get(), &alpha, in, a.get(), &beta, nullptr,
                                       nullptr, out, c.get(), stream),
               "cublasLtMatrixTransform");
}

/// cublasLtMatrixTransform as a transpose (half and bf16 only).
inline Kernel cublaslt_transform(cublasLtHandle_t handle) {
  Kernel k{"ref", "cublaslt_transform", Op::transpose, false, {}};
  k.launch[Kernel::index(DType::f16)] = [handle](void* out, const void* in, int rows, int cols,
                                                 cudaStream_t stream) {
    lt_transpose(handle, static_cast<__half*>(out), static_cast<const __half*>(in), rows, cols,
                 stream);
  };
  k.launch[Kernel::index(DType::bf16)] = [handle](void* out, const void* in, int rows, int cols,
                                                  cudaStream_t stream) {
    lt_transpose(handle, static_cast<__nv_bfloat16*>(out), static_cast<const __nv_bfloat16*>(in),
                 rows, cols, stream);
  };
  return k;
}

/// The library handles the tour and the profiler need, and the reference kernels built on them.
class Libraries {
 public:
  /// Every library reference, in the order the tour shows them.
  std::vector<Kernel> kernels() const {
    return {cublas_geam(cublas_.get()), cublaslt_transform(cublaslt_.get())};
  }

 private:
  CublasHandle cublas_;
  CublasLtHandle cublaslt_;
};

}  // namespace tp::references
