// A model of shared memory's banks for the exercises' CPU tests: how many wavefronts (passes
// of the 32 banks) one warp-wide shared-memory access needs. It is the rule of
// plots/access.py's wavefronts(), which the chapters' predictions use.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tp::banks {

constexpr int kLanes = 32;                            // threads in a warp
constexpr int kBanks = 32;                            // shared-memory banks
constexpr int kBankBytes = 4;                         // a bank is 4 bytes wide: word w is in bank w % 32
constexpr int kWavefrontBytes = kBanks * kBankBytes;  // a wavefront delivers at most 128 bytes

/// Wavefronts for one warp access in which lane l reads `bytes` bytes (1 to 16) from byte
/// address address[l] of shared memory. A bank serves one 4-byte word per wavefront, so the
/// busiest bank decides, counted in DISTINCT words (lanes that read the same word share one
/// read: a broadcast). And a wavefront carries at most 128 bytes, so the request of 32 x
/// `bytes` needs at least ceil(32 x bytes / 128) of them: 2 for 32 doubles.
/// 1 = conflict-free; n = an n-way bank conflict.
inline int wavefronts(const std::array<std::uint64_t, kLanes>& address, int bytes) {
  std::array<std::vector<std::uint64_t>, kBanks> words;  // the distinct words asked of each bank
  for (const std::uint64_t first : address) {
    const std::uint64_t last = first + std::uint64_t(bytes) - 1;  // the lane's last byte
    for (std::uint64_t w = first / kBankBytes; w <= last / kBankBytes; ++w) {
      std::vector<std::uint64_t>& bank = words[w % kBanks];
      if (std::find(bank.begin(), bank.end(), w) == bank.end()) bank.push_back(w);
    }
  }
  std::size_t busiest = 0;
  for (const std::vector<std::uint64_t>& bank : words) busiest = std::max(busiest, bank.size());
  const int least = (kLanes * bytes + kWavefrontBytes - 1) / kWavefrontBytes;  // ceil(request / 128)
  return std::max(int(busiest), least);
}

}  // namespace tp::banks
