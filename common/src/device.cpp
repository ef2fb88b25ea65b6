#include "tp/device.hpp"

#include <cuda_runtime.h>

#include <cctype>
#include <stdexcept>
#include <string>

#include "tp/error.hpp"
#include "tp/report.hpp"

namespace tp {

std::string DeviceInfo::cc() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }

std::string DeviceInfo::cuda() const {
  return std::to_string(runtime_version / 1000) + "." + std::to_string(runtime_version % 1000 / 10);
}

std::string DeviceInfo::summary() const {
  std::string s = name + " (cc " + cc() + ", " + std::to_string(sms) + " SMs, L2 " +
                  format("%.0f MB", l2_bytes / 1e6) + ", " + format("%.1f GB", mem_bytes / 1e9);
  if (peak_gbps > 0) s += format(", peak %.0f GB/s", peak_gbps);
  return s + "), CUDA " + cuda();
}

std::string DeviceInfo::slug() const {
  std::string s;
  for (char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c)) s += static_cast<char>(std::tolower(c));
    else if (!s.empty() && s.back() != '-') s += '-';
  }
  if (s.rfind("nvidia-", 0) == 0) s.erase(0, 7);
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s.empty() ? "gpu" : s;
}

int device_count(std::string* why) {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    if (why) *why = cudaGetErrorString(err);
    if (why && err == cudaErrorInsufficientDriver) {  // also what the runtime says with no driver at all
      int runtime = 0;
      cudaRuntimeGetVersion(&runtime);
      *why = "no NVIDIA driver is loaded, or it is older than CUDA " + std::to_string(runtime / 1000) + "." +
             std::to_string(runtime % 1000 / 10) + " needs; the runtime says: " + *why;
    }
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return 0;
  }
  if (n == 0 && why) *why = "the runtime reports 0 devices";
  return n;
}

DeviceInfo query_device(int id) {
  cudaDeviceProp p{};
  TP_CUDA_CHECK(cudaGetDeviceProperties(&p, id));
  DeviceInfo d;
  d.id = id;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sms = p.multiProcessorCount;
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.mem_bytes = p.totalGlobalMem;
  int clock_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, id) == cudaSuccess &&
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, id) == cudaSuccess) {
    // Double data rate: two transfers per clock, bus_bits / 8 bytes each.
    d.peak_gbps = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  }
  cudaGetLastError();
  TP_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  return d;
}

void require_device() {
  std::string why;
  if (device_count(&why) == 0) throw std::runtime_error("no CUDA GPU found (" + why + "); this program needs one");
}

}  // namespace tp
