/// @file dtype.hpp
/// @brief The four element types every step supports, their names, and a dispatcher from a
/// run-time DType to a compile-time type.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>

namespace tp {

/// Element type of a matrix, chosen at run time (command line, test parameters).
enum class DType { f32, f64, f16, bf16 };

/// All element types, in the order tables and CSV files list them.
inline constexpr std::array<DType, 4> kAllDTypes = {DType::f32, DType::f64, DType::f16,
                                                    DType::bf16};

/// Short name used on the command line and in CSV files: float, double, half, bf16.
std::string dtype_name(DType t);

/// Parses a name from dtype_name(); throws tp::UsageError for anything else.
DType parse_dtype(const std::string& name);

/// Bytes per element.
std::size_t dtype_size(DType t);

/// The DType of a C++ element type.
template <typename T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, float>) return DType::f32;
  else if constexpr (std::is_same_v<T, double>) return DType::f64;
  else if constexpr (std::is_same_v<T, __half>) return DType::f16;
  else {
    static_assert(std::is_same_v<T, __nv_bfloat16>, "unsupported element type");
    return DType::bf16;
  }
}

/// Unsigned integer of the same size as T: how we look at an element's bits.
template <typename T>
using Bits = std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>;

/// Calls `f(T{})` with the C++ type that `t` names, e.g. `dispatch(t, [](auto x) {
/// using T = decltype(x); ... })`.
template <typename F>
decltype(auto) dispatch(DType t, F&& f) {
  switch (t) {
    case DType::f64: return f(double{});
    case DType::f16: return f(__half{});
    case DType::bf16: return f(__nv_bfloat16{});
    case DType::f32: break;
  }
  return f(float{});
}

}  // namespace tp
