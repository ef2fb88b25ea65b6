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

void DeviceBuffer::upload(const void* host, std::size_t bytes, std::size_t at) {
  if (at > bytes_ || bytes > bytes_ - at) throw std::out_of_range("DeviceBuffer::upload: past the end of the buffer");
  if (bytes == 0) return;
  TP_CUDA_CHECK(cudaMemcpy(static_cast<unsigned char*>(ptr_) + at, host, bytes, cudaMemcpyHostToDevice));
  // From pageable host memory, cudaMemcpy may return once the data is staged, before the DMA
  // has reached the device. Work on the legacy default stream would still be ordered after
  // it, but a stream created with cudaStreamNonBlocking (as the benchmarks use) is not: its
  // first kernel could read a half-uploaded input. Wait for the copy to land.
  TP_CUDA_CHECK(cudaDeviceSynchronize());
}

void DeviceBuffer::download(void* host, std::size_t bytes, std::size_t at) const {
  if (at > bytes_ || bytes > bytes_ - at) throw std::out_of_range("DeviceBuffer::download: past the end of the buffer");
  if (bytes > 0) TP_CUDA_CHECK(cudaMemcpy(host, static_cast<const unsigned char*>(ptr_) + at, bytes, cudaMemcpyDeviceToHost));
}

}  // namespace tp
