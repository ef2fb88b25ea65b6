// The record kernel, compiled once (lab/record.hpp).
#include "record.hpp"

#include "record.cuh"
#include "launchers.hpp"

namespace tp::lab {

Kernel record_kernel() {
  return make_kernel("lab", "record", Op::transpose, TP_LAUNCHER(transpose_record));
}

}  // namespace tp::lab
