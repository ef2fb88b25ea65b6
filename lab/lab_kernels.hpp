/// @file lab/lab_kernels.hpp
/// @brief The lab's kernels (step "lab"): the research variants of steps 07 and 08 and the
/// lab's record kernel, for the lab's programs and its gpu tests (label lab).
#pragma once

#include <vector>

#include "tp/harness.hpp"

namespace tp::lab {

/// Out-of-place variants: the record kernel, its shifted path with each of its tile sizes
/// (the line tile for odd cols, as the record takes it, and the packed tile always; output
/// chunks from 32-byte sectors, and from 16-byte boundaries in the `shifted16_*` rows) and its
/// former element path (on every shape), then one change of the headline per row.
std::vector<Kernel> coarsen_kernels();

/// In-place variants of step 08: one change of its headline per row.
std::vector<Kernel> inplace_kernels();

/// Both lists.
std::vector<Kernel> all();

}  // namespace tp::lab
