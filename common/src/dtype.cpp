#include "tp/dtype.hpp"

#include "tp/error.hpp"

namespace tp {

std::string dtype_name(DType t) {
  switch (t) {
    case DType::f32: return "float";
    case DType::f64: return "double";
    case DType::f16: return "half";
    case DType::bf16: return "bf16";
  }
  return "?";
}

DType parse_dtype(const std::string& name) {
  for (DType t : kAllDTypes) {
    if (dtype_name(t) == name) return t;
  }
  throw UsageError("unknown dtype '" + name + "' (expected float, double, half, bf16 or all)");
}

std::size_t dtype_size(DType t) {
  return dispatch(t, [](auto x) { return sizeof(x); });
}

}  // namespace tp
