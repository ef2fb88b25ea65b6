/// @file lab/record.hpp
/// @brief The lab's record kernel as a registered kernel, built in every configuration: the
/// tour shows it after the main line, and the gpu tests verify it beside the main line.
#pragma once

#include "tp/harness.hpp"

namespace tp::lab {

/// `record` (step "lab"): step 07's headline with small tiles for small matrices (a lean tile
/// for `float`), and for shapes and pointers without 16-byte rows the shifted path (16-byte
/// accesses, shifted in shared memory; `double`: the lab's element path) (lab/README.md, "The
/// record kernel").
Kernel record_kernel();

}  // namespace tp::lab
