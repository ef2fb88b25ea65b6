/// @file nccl.hpp
/// @brief NCCL calls checked like CUDA calls (step 09): a failure becomes an exception that
/// names the call, the file, the line and NCCL's reason.
#pragma once

#include <nccl.h>

#include <stdexcept>
#include <string>

#include "tp/error.hpp"

namespace tp {

/// A failed NCCL call.
class NcclError : public std::runtime_error {
 public:
  NcclError(ncclResult_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  /// The NCCL result code that caused the exception.
  ncclResult_t code() const noexcept { return code_; }

 private:
  ncclResult_t code_;
};

namespace detail {
/// Throws NcclError for `code` unless it is ncclSuccess. Called by TP_NCCL_CHECK.
inline void check_nccl(ncclResult_t code, const char* call, const char* file, int line) {
  if (code == ncclSuccess) return;
  const char* last = ncclGetLastError(nullptr);  // NCCL's own detail, when it left one
  throw NcclError(code, std::string(call) + " failed: " + ncclGetErrorString(code) +
                            (last != nullptr && *last != '\0' ? std::string(" (") + last + ")" : "") + " at " +
                            where(file, line));
}
}  // namespace detail

}  // namespace tp

/// Runs an NCCL call and throws tp::NcclError, naming the call, if it fails.
#define TP_NCCL_CHECK(call) ::tp::detail::check_nccl((call), #call, __FILE__, __LINE__)
