// Whether a gpu test runs, is skipped, or fails when no CUDA device is present.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "tp/device.hpp"

namespace tp::testing {

enum class GpuPolicy { run, skip, fail };

/// With a device: run. Without one: skip, unless TP_REQUIRE_GPU=1 asks for a failure (the
/// GPU check script sets it so that a missing GPU cannot pass as "all skipped").
inline GpuPolicy gpu_policy(int devices, const char* require_gpu_env) {
  if (devices > 0) return GpuPolicy::run;
  const bool required = require_gpu_env != nullptr && std::string(require_gpu_env) == "1";
  return required ? GpuPolicy::fail : GpuPolicy::skip;
}

}  // namespace tp::testing

/// First line of every gpu test (or of its fixture's SetUp).
#define TP_GPU_TEST_GUARD()                                                               \
  do {                                                                                    \
    std::string why_;                                                                     \
    const int devices_ = ::tp::device_count(&why_);                                       \
    switch (::tp::testing::gpu_policy(devices_, std::getenv("TP_REQUIRE_GPU"))) {          \
      case ::tp::testing::GpuPolicy::skip:                                                \
        GTEST_SKIP() << "no CUDA GPU (" << why_ << "); set TP_REQUIRE_GPU=1 to fail instead"; \
      case ::tp::testing::GpuPolicy::fail:                                                \
        FAIL() << "TP_REQUIRE_GPU=1 but no CUDA GPU is usable: " << why_;                 \
      case ::tp::testing::GpuPolicy::run:                                                 \
        break;                                                                            \
    }                                                                                     \
  } while (0)
