#include "tp/buffer.hpp"

#include <utility>

#include "tp/error.hpp"

namespace tp {

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes > 0) TP_CUDA_CHECK(cudaMalloc(&ptr_, bytes));
}

DeviceBuffer::~DeviceBuffer() {
  if (ptr_) cudaFree(ptr_);  // no throw from a destructor; a failure here has no one to tell
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    if (ptr_) cudaFree(ptr_);
    ptr_ = std::exchange(other.ptr_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

void DeviceBuffer::poison(cudaStream_t stream) {
  if (bytes_ > 0) TP_CUDA_CHECK(cudaMemsetAsync(ptr_, kPoisonByte, bytes_, stream));
}

void DeviceBuffer::upload(const void* host, std::size_t bytes) {
  if (bytes > bytes_) throw std::out_of_range("DeviceBuffer::upload: more bytes than the buffer holds");
  if (bytes == 0) return;
  TP_CUDA_CHECK(cudaMemcpy(ptr_, host, bytes, cudaMemcpyHostToDevice));
  // From pageable host memory, cudaMemcpy may return once the data is staged, before the DMA
  // has reached the device. Work on the legacy default stream would still be ordered after
  // it, but a stream created with cudaStreamNonBlocking (as the benchmarks use) is not: its
  // first kernel could read a half-uploaded input. Wait for the copy to land.
  TP_CUDA_CHECK(cudaDeviceSynchronize());
}

void DeviceBuffer::download(void* host, std::size_t bytes) const {
  if (bytes > bytes_) throw std::out_of_range("DeviceBuffer::download: more bytes than the buffer holds");
  if (bytes > 0) TP_CUDA_CHECK(cudaMemcpy(host, ptr_, bytes, cudaMemcpyDeviceToHost));
}

}  // namespace tp
