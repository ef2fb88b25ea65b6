/// @file device.hpp
/// @brief What GPU we run on: name, compute capability, size of L2 and memory, peak bandwidth.
#pragma once

#include <cstddef>
#include <string>

namespace tp {

/// Properties of one CUDA device, as the runtime reports them.
struct DeviceInfo {
  int id = 0;
  std::string name;          ///< e.g. "NVIDIA H200"
  int cc_major = 0;          ///< compute capability, major
  int cc_minor = 0;          ///< compute capability, minor
  int sms = 0;               ///< streaming multiprocessors
  std::size_t l2_bytes = 0;  ///< L2 cache size
  std::size_t mem_bytes = 0; ///< global memory size
  double peak_gbps = 0;      ///< theoretical DRAM bandwidth (1e9 B/s); 0 when the driver does not say
  int runtime_version = 0;   ///< CUDA runtime version, e.g. 13000

  /// "9.0"
  std::string cc() const;
  /// "13.0"
  std::string cuda() const;
  /// One line: name, compute capability, SMs, L2, memory, peak bandwidth, CUDA version.
  std::string summary() const;
  /// The name for file names: lower case, "nvidia" dropped, e.g. "h200" or "h100-80gb-hbm3".
  std::string slug() const;
};

/// Number of CUDA devices; 0 when there is none or no usable driver (never throws).
/// When there is none, `why` (if given) receives the runtime's reason.
int device_count(std::string* why = nullptr);

/// Properties of device `id`; throws tp::CudaError on failure.
DeviceInfo query_device(int id = 0);

/// Throws tp::UsageError with a one-line reason when no CUDA device can be used.
void require_device();

}  // namespace tp
