/// @file error.hpp
/// @brief Error handling: every CUDA call and every kernel launch is checked, and a failure
/// becomes an exception that names the call, the file and the line.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace tp {

/// A failed CUDA runtime call or kernel launch.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  /// The CUDA error code that caused the exception.
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

/// A request that cannot be served as asked (bad command line, a shape too large for memory).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
/// Throws CudaError for `code` unless it is cudaSuccess. Called by TP_CUDA_CHECK.
void check_cuda(cudaError_t code, const char* call, const char* file, int line);
/// "steps/00_copy/kernel.cuh:42": the file's last two path parts and the line, for messages.
std::string where(const char* file, int line);
}  // namespace detail

/// Throws std::invalid_argument if `rows` or `cols` is negative. Zero is allowed (a no-op).
void check_shape(long long rows, long long cols);

}  // namespace tp

/// Runs a CUDA runtime call and throws tp::CudaError, naming the call, if it fails.
#define TP_CUDA_CHECK(call) ::tp::detail::check_cuda((call), #call, __FILE__, __LINE__)

/// Checks the launch that was just made (bad configuration, missing kernel image, ...).
#define TP_CHECK_LAUNCH(kernel_name) \
  ::tp::detail::check_cuda(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__)
