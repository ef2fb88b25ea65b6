/// @file lab/record.hpp
/// @brief The lab's record kernel as a registered kernel, built in every configuration: the
/// tour shows it after the main line, and the gpu tests verify it beside the main line.
#pragma once

#include "tp/harness.hpp"

namespace tp::lab {

/// `record` (step "lab"): step 07's headline with small tiles for small matrices and its own
/// element path for shapes without 16-byte rows (lab/README.md, "The record kernel").
Kernel record_kernel();

}  // namespace tp::lab
