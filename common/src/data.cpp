#include "tp/data.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>

#include "tp/dtype.hpp"

namespace tp {
namespace {

// Layout of a binary floating-point format: exponent and mantissa widths.
template <typename T> struct Format;
template <> struct Format<float> { static constexpr int exp = 8, man = 23; };
template <> struct Format<double> { static constexpr int exp = 11, man = 52; };
template <> struct Format<__half> { static constexpr int exp = 5, man = 10; };
template <> struct Format<__nv_bfloat16> { static constexpr int exp = 8, man = 7; };

using u64 = std::uint64_t;
__extension__ typedef unsigned __int128 u128;  // for a 64 x 64-bit product

// The normal (finite, non-zero, non-subnormal) values of T, numbered 0 .. count - 1:
// first the positive ones, then the negative ones.
template <typename T>
struct NormalValues {
  static constexpr u64 per_sign = ((u64{1} << Format<T>::exp) - 2) << Format<T>::man;
  static constexpr u64 count = 2 * per_sign;
  // Bits of normal value number y: exponent field 1 .. max-1, any mantissa, either sign.
  static Bits<T> bits(u64 y) {
    const u64 sign = y >= per_sign ? 1 : 0;
    const u64 magnitude = y - sign * per_sign + (u64{1} << Format<T>::man);
    return static_cast<Bits<T>>((sign << (Format<T>::exp + Format<T>::man)) | magnitude);
  }
};

// Element (r, c) gets normal value number y = (kMul * t + offset) mod count, where t is
//   (r * cols + c) mod count   for float and double: distinct over the whole matrix;
//   (r * kRowStep + c) mod count for half and bf16: distinct along rows and columns.
// kMul and kRowStep are primes that divide none of the counts, so both maps are bijections
// and (r, c) and (c, r) get different values unless r == c.
constexpr u64 kMul = 2654435761u;
constexpr u64 kRowStep = 7919;
static_assert(std::gcd(kMul, NormalValues<float>::count) == 1 &&
              std::gcd(kMul, NormalValues<double>::count) == 1 &&
              std::gcd(kMul, NormalValues<__half>::count) == 1 &&
              std::gcd(kMul, NormalValues<__nv_bfloat16>::count) == 1 &&
              std::gcd(kRowStep, NormalValues<__half>::count) == 1 &&
              std::gcd(kRowStep, NormalValues<__nv_bfloat16>::count) == 1);

u64 mix(u64 x) {  // splitmix64 finalizer: turns a seed into a well-spread offset
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

u64 mulmod(u64 a, u64 b, u64 m) { return static_cast<u64>(static_cast<u128>(a) * b % m); }
u64 addmod(u64 a, u64 b, u64 m) { return a >= m - b ? a - (m - b) : a + b; }  // a, b < m; no overflow

template <typename T>
double to_double(T v) {
  if constexpr (std::is_same_v<T, __half>) return static_cast<double>(__half2float(v));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return static_cast<double>(__bfloat162float(v));
  else return static_cast<double>(v);
}

template <typename T>
std::string show(const T& v) {
  Bits<T> bits;
  std::memcpy(&bits, &v, sizeof(T));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g (0x%0*llx)", to_double(v), static_cast<int>(2 * sizeof(T)),
                static_cast<unsigned long long>(bits));
  return buf;
}

}  // namespace

template <typename T>
void fill_distinct_block(T* data, long long row0, long long rows, long long col0, long long block_cols,
                         long long cols, std::uint64_t seed) {
  using Values = NormalValues<T>;
  constexpr u64 m = Values::count;
  constexpr bool whole_matrix_distinct = sizeof(T) >= 4;
  const u64 step = kMul % m;  // y grows by this from one column to the next
  const u64 offset = addmod(mix(seed) % m, mulmod(static_cast<u64>(col0), step, m), m);  // y at column col0
  for (long long r = 0; r < rows; ++r) {
    const u64 global_row = static_cast<u64>(row0 + r);
    const u64 t0 = whole_matrix_distinct ? mulmod(global_row, static_cast<u64>(cols), m)
                                         : mulmod(global_row, kRowStep, m);
    u64 y = addmod(mulmod(kMul, t0, m), offset, m);
    T* row = data + r * block_cols;
    for (long long c = 0; c < block_cols; ++c) {
      const Bits<T> bits = Values::bits(y);
      std::memcpy(static_cast<void*>(&row[c]), &bits, sizeof(T));
      y = addmod(y, step, m);
    }
  }
}

template <typename T>
void fill_distinct(T* data, long long rows, long long cols, std::uint64_t seed) {
  fill_distinct_block(data, 0, rows, 0, cols, cols, seed);
}

template <typename T>
void reference_transpose(T* out, const T* in, long long rows, long long cols) {
  constexpr long long kBlock = 64;  // a 64 x 64 block of both matrices stays in the CPU cache
  for (long long r0 = 0; r0 < rows; r0 += kBlock) {
    const long long r1 = std::min(r0 + kBlock, rows);
    for (long long c0 = 0; c0 < cols; c0 += kBlock) {
      const long long c1 = std::min(c0 + kBlock, cols);
      for (long long r = r0; r < r1; ++r) {
        for (long long c = c0; c < c1; ++c) out[c * rows + r] = in[r * cols + c];
      }
    }
  }
}

template <typename T>
CompareResult compare_bits(const T* expected, const T* got, long long rows, long long cols,
                           std::size_t max_report) {
  CompareResult result;
  for (long long r = 0; r < rows; ++r) {
    const T* e = expected + r * cols;
    const T* g = got + r * cols;
    if (std::memcmp(e, g, static_cast<std::size_t>(cols) * sizeof(T)) == 0) continue;
    for (long long c = 0; c < cols; ++c) {
      if (std::memcmp(&e[c], &g[c], sizeof(T)) == 0) continue;
      if (result.first.size() < max_report) result.first.push_back({r, c, show(e[c]), show(g[c])});
      ++result.mismatches;
    }
  }
  return result;
}

std::string CompareResult::describe() const {
  if (ok()) return "OK";
  std::string text = std::to_string(mismatches) + " element(s) differ from the reference";
  for (const Mismatch& m : first) {
    text += "\n  (row " + std::to_string(m.row) + ", col " + std::to_string(m.col) +
            "): expected " + m.expected + ", got " + m.got;
  }
  if (written_around > 0) text += "\n  " + std::to_string(written_around) + " byte(s) next to the output were written";
  return text;
}

#define TP_INSTANTIATE(T)                                                                    \
  template void fill_distinct<T>(T*, long long, long long, std::uint64_t);                  \
  template void fill_distinct_block<T>(T*, long long, long long, long long, long long, long long, std::uint64_t); \
  template void reference_transpose<T>(T*, const T*, long long, long long);                  \
  template CompareResult compare_bits<T>(const T*, const T*, long long, long long, std::size_t);
TP_INSTANTIATE(float)
TP_INSTANTIATE(double)
TP_INSTANTIATE(__half)
TP_INSTANTIATE(__nv_bfloat16)
#undef TP_INSTANTIATE

}  // namespace tp
