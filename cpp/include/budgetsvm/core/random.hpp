// Seeded random numbers that give the same sequence on every platform and
// compiler: xoshiro256** seeded through splitmix64, with our own bounded
// integer (Lemire's multiply-shift with rejection) and shuffle, because the
// standard distributions are implementation-defined.
#pragma once

#include <cstdint>
#include <vector>

namespace budgetsvm {

class Random {
 public:
  explicit Random(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    for (auto& word : state_) word = splitmix64(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  /// Uniform integer in [0, n), n > 0, without modulo bias.
  std::uint64_t below(std::uint64_t n) {
    std::uint64_t high = 0;
    std::uint64_t low = multiply(next(), n, high);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) low = multiply(next(), n, high);
    }
    return high;
  }

  /// Uniform double in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  template <class T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      const std::size_t j = static_cast<std::size_t>(below(i));
      std::swap(items[i - 1], items[j]);
    }
  }

 private:
  // 64 x 64 -> 128-bit product from 32-bit halves (portable: MSVC has no
  // __int128, and -Wpedantic rejects it).
  static std::uint64_t multiply(std::uint64_t a, std::uint64_t b, std::uint64_t& high) {
    const std::uint64_t a_lo = a & 0xFFFFFFFFu, a_hi = a >> 32;
    const std::uint64_t b_lo = b & 0xFFFFFFFFu, b_hi = b >> 32;
    const std::uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo;
    const std::uint64_t lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    const std::uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + lo_hi;
    high = hi_hi + (hi_lo >> 32) + (cross >> 32);
    return (cross << 32) | (lo_lo & 0xFFFFFFFFu);
  }
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t state_[4];
};

}  // namespace budgetsvm
