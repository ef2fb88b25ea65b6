/// @file buffer.hpp
/// @brief RAII device memory, poisoning, and host <-> device copies.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace tp {

/// The byte every element of a poisoned buffer holds. 0xFF bytes are a NaN in all four
/// element types, and the inputs we generate never contain NaN, so an element that a kernel
/// forgot to write can never pass verification.
inline constexpr unsigned char kPoisonByte = 0xFF;

/// Owns `bytes` of device memory (cudaMalloc / cudaFree). Move-only.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// Allocates `bytes` of device memory; throws tp::CudaError on failure. Zero bytes: no allocation.
  explicit DeviceBuffer(std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* data() const { return ptr_; }
  std::size_t bytes() const { return bytes_; }
  /// The memory as an array of T.
  template <typename T>
  T* as() const { return static_cast<T*>(ptr_); }

  /// Sets every byte to kPoisonByte.
  void poison(cudaStream_t stream = 0);
  /// Copies `bytes` from host memory into this buffer, `at` bytes past its start (synchronous).
  void upload(const void* host, std::size_t bytes, std::size_t at = 0);
  /// Copies `bytes` of this buffer, from `at` bytes past its start, to host memory (synchronous).
  void download(void* host, std::size_t bytes, std::size_t at = 0) const;

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

/// Copies a whole host vector into `buffer`, which must be large enough.
template <typename T>
void upload(DeviceBuffer& buffer, const std::vector<T>& host) {
  buffer.upload(host.data(), host.size() * sizeof(T));
}

/// Copies `buffer` into a host vector of `count` elements.
template <typename T>
std::vector<T> download(const DeviceBuffer& buffer, std::size_t count) {
  std::vector<T> host(count);
  buffer.download(host.data(), count * sizeof(T));
  return host;
}

}  // namespace tp
