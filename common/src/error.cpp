#include "tp/error.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace tp {
namespace detail {

namespace {
// "steps/00_copy/kernel.cuh" rather than the full path of the machine that built it.
std::string short_path(const char* file) {
  std::string path(file);
  std::size_t cut = path.size();
  for (int parts = 0; parts < 2 && cut != std::string::npos && cut > 0; ++parts) {
    cut = path.rfind('/', cut - 1);
  }
  return cut == std::string::npos ? path : path.substr(cut + 1);
}
}  // namespace

std::string where(const char* file, int line) { return short_path(file) + ":" + std::to_string(line); }

void check_cuda(cudaError_t code, const char* call, const char* file, int line) {
  if (code == cudaSuccess) return;
  throw CudaError(code, std::string(call) + " failed: " + cudaGetErrorString(code) + " (" +
                            cudaGetErrorName(code) + ") at " + where(file, line));
}

}  // namespace detail

void check_shape(long long rows, long long cols) {
  if (rows < 0 || cols < 0) {
    throw std::invalid_argument("matrix shape must not be negative, got " + std::to_string(rows) +
                                " x " + std::to_string(cols));
  }
}

}  // namespace tp
