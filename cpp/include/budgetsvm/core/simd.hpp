// Vectorised inner loops of the kernel evaluations (budget model margins,
// kernel rows from dot products, the exact solvers' kernel columns and the
// ALFPGM sub-problem), compiled for several instruction sets and chosen at
// run time.
//
// A budget model stores its support vectors feature-major: Zt[k * ld + j] is
// feature k of support vector j (ld >= number of support vectors). One
// margin then is
//
//   dots:           acc[j] = sum_k x_k Zt[k * ld + j]   (over the stored
//                   entries of x only, so a sparse x costs nnz(x) passes)
//   rbf_from_dots:  out[j] = exp(-gamma * max(0, |x|^2 + |z_j|^2 - 2 acc[j]))
//   dot:            sum_j a[j] b[j] (the margin from a kernel row; several
//                   accumulators, since one would wait on every add)
//   exp_to_float:   out[j] = (float) exp(x[j])
//   gemv:           y = A x for a small dense row-major A (the ALFPGM
//                   sub-problem; four rows per pass share the loads of x)
//   dense_dots:     dots for several dense rows x_r (given by pointers):
//                   G[r * ldg + j] = sum_k x_r[k] Zt[k * ld + j]; AVX2 and
//                   AVX-512 hold 4 rows x 32 columns in registers, so that
//                   each load of Zt serves four rows
//   row_dots:       dots of several dense rows x_r (given by pointers)
//                   against a few vectors y_c (the two columns of an SMO
//                   step): Gt[c * ldg + r] = sum_k x_r[k] y_c[k];
//                   vectorised along k, AVX2 / AVX-512 reduce 4 / 8 rows'
//                   accumulators into one register instead of one sum each
//   argmin_abs:     the first j of least |w_j| (the merge's support vector
//                   of least weight)
//   sign_mask:      out[j] = x[j] where w_j s > 0, else -1; returns the
//                   largest out[j] (the merge partners of a coefficient of
//                   sign s, and the nearest one)
//   indices_at_least: the j with x[j] * scale >= cut, in order (the partners
//                   a pruning bound leaves), branch-free per element
//
// all vectorised along j (the support vectors), with our own vectorised
// exp (Cody-Waite reduction, degree-12 Taylor polynomial, |error| < 1 ulp
// relative on the reduced range; arguments below -708 give 0). Its
// polynomial is a chain of 12 dependent multiply-adds, so one register's exp
// waits on the latency of each (about 5 ns per value on a Zen 1 core with
// AVX2, where the core could retire several chains at once): the loops over
// many values run four registers at a time, their chains interleaved
// (exp_neg_n<4>), with the same operations lane by lane, so the same bits.
//
// Instruction sets: portable scalar code, SSE2, AVX2+FMA and AVX-512F. The
// SIMD versions are ordinary inline functions carrying a target attribute
// (GCC/Clang) in their own namespaces, so no translation unit is compiled
// with different -m flags and no inline function exists in two versions
// (the ODR trap of mixing -mavx2 and plain TUs that share Eigen templates).
// MSVC compiles AVX intrinsics without flags, so the same code serves it.
// The level is detected once (cpuid) and may be lowered, never raised, with
// the environment variable BUDGETSVM_SIMD=scalar|sse2|avx2|avx512.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "eigen.hpp"

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#define BUDGETSVM_SIMD_X86 1
#include <immintrin.h>
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif
#endif

#if defined(BUDGETSVM_SIMD_X86) && (defined(__GNUC__) || defined(__clang__))
#define BUDGETSVM_TARGET(isa) __attribute__((target(isa)))
#else
#define BUDGETSVM_TARGET(isa)
#endif

// Full unrolling of the short constant loops over the registers of
// exp_neg_n (the compilers do it at -O3 anyway; this keeps it at -O2).
#if defined(__clang__)
#define BUDGETSVM_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define BUDGETSVM_UNROLL _Pragma("GCC unroll 16")
#else
#define BUDGETSVM_UNROLL
#endif

namespace budgetsvm::simd {

enum class Level { scalar = 0, sse2 = 1, avx2 = 2, avx512 = 3 };

inline const char* level_name(Level level) {
  switch (level) {
    case Level::scalar: return "scalar";
    case Level::sse2: return "sse2";
    case Level::avx2: return "avx2";
    case Level::avx512: return "avx512";
  }
  return "scalar";
}

namespace detail {

// exp(x) on the reduced range: x = n ln2 + r, |r| <= ln2 / 2.
constexpr double kLog2e = 1.4426950408889634074;
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kRoundMagic = 6755399441055744.0;  // 1.5 * 2^52
constexpr double kExpMin = -708.0;                   // below: result 0
constexpr double kExpMax = 709.0;
// 1/k! for k = 12 .. 0 (Horner order).
constexpr double kC[13] = {2.08767569878680989792e-09, 2.50521083854417187751e-08,
                           2.75573192239858906526e-07, 2.75573192239858906526e-06,
                           2.48015873015873015873e-05, 1.98412698412698412698e-04,
                           1.38888888888888888889e-03, 8.33333333333333333333e-03,
                           4.16666666666666666667e-02, 1.66666666666666666667e-01,
                           0.5, 1.0, 1.0};

inline double exp_scalar(double x) {
  if (x < kExpMin) return 0.0;
  if (x > kExpMax) x = kExpMax;
  const double t = x * kLog2e + kRoundMagic;
  const double n = t - kRoundMagic;
  const double r = (x - n * kLn2Hi) - n * kLn2Lo;
  double p = kC[0];
  for (int k = 1; k < 13; ++k) p = p * r + kC[k];
  std::uint64_t bits;
  std::memcpy(&bits, &t, sizeof bits);
  bits = (bits + 1023u) << 52;
  double scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

/// Appends j + l for every set bit l < lanes of mask (branch-free).
inline Index append_set_bits(unsigned mask, int lanes, Index j, Index* idx, Index q) {
  for (int l = 0; l < lanes; ++l) {
    idx[q] = j + l;
    q += static_cast<Index>((mask >> l) & 1u);
  }
  return q;
}

/// The number of set bits of an 8-bit mask.
inline int popcount8(unsigned m) {
  m = m - ((m >> 1) & 0x55u);
  m = (m & 0x33u) + ((m >> 2) & 0x33u);
  return static_cast<int>((m + (m >> 4)) & 0x0Fu);
}

}  // namespace detail

// ---- portable scalar code ------------------------------------------------
namespace scalar {

inline void dots(const double* Zt, Index ld, Index B, const Index* idx, const double* val,
                 Index nnz, double* acc) {
  for (Index j = 0; j < B; ++j) acc[j] = 0.0;
  for (Index q = 0; q < nnz; ++q) {
    const double v = val[q];
    const double* z = Zt + (idx ? idx[q] : q) * ld;
    for (Index j = 0; j < B; ++j) acc[j] += v * z[j];
  }
}

inline void rbf_from_dots(const double* acc, const double* znorm, double xnorm, double gamma,
                          Index B, double* out) {
  for (Index j = 0; j < B; ++j) {
    const double d = xnorm + znorm[j] - 2.0 * acc[j];
    out[j] = detail::exp_scalar(-gamma * (d > 0.0 ? d : 0.0));
  }
}

inline double dot(const double* a, const double* b, Index n) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  Index j = 0;
  for (; j + 4 <= n; j += 4) {
    s0 += a[j] * b[j];
    s1 += a[j + 1] * b[j + 1];
    s2 += a[j + 2] * b[j + 2];
    s3 += a[j + 3] * b[j + 3];
  }
  for (; j < n; ++j) s0 += a[j] * b[j];
  return (s0 + s1) + (s2 + s3);
}

inline void exp_to_float(const double* x, Index n, float* out) {
  for (Index j = 0; j < n; ++j) out[j] = static_cast<float>(detail::exp_scalar(x[j]));
}

inline void gemv(const double* A, Index ld, Index rows, Index cols, const double* x, double* y) {
  for (Index i = 0; i < rows; ++i) y[i] = dot(A + i * ld, x, cols);
}

inline void dense_dots(const double* const* x, Index rows, Index d, const double* Zt, Index ld, Index B,
                       double* G, Index ldg) {
  for (Index r = 0; r < rows; ++r) dots(Zt, ld, B, nullptr, x[r], d, G + r * ldg);
}

inline void row_dots(const double* const* x, Index rows, Index d, const double* Y, Index ldy, Index m,
                     double* Gt, Index ldg) {
  for (Index c = 0; c < m; ++c)
    for (Index r = 0; r < rows; ++r) Gt[c * ldg + r] = dot(x[r], Y + c * ldy, d);
}

inline double min_abs(const double* w, Index n) {
  double m = HUGE_VAL;
  for (Index j = 0; j < n; ++j) m = std::fabs(w[j]) < m ? std::fabs(w[j]) : m;
  return m;
}

inline Index first_abs_equal(const double* w, Index n, double v) {
  for (Index j = 0; j < n; ++j)
    if (std::fabs(w[j]) == v) return j;
  return n;
}

/// The first j of least |w_j|; 0 when none compares equal to the least
/// (NaN entries) or n = 0.
inline Index argmin_abs(const double* w, Index n) {
  const Index j = first_abs_equal(w, n, min_abs(w, n));
  return j < n ? j : 0;
}

inline double sign_mask(const double* w, double s, const double* x, Index n, double* out) {
  double best = -1.0;
  for (Index j = 0; j < n; ++j) {
    out[j] = w[j] * s > 0.0 ? x[j] : -1.0;
    best = out[j] > best ? out[j] : best;
  }
  return best;
}

inline Index indices_at_least(const double* x, Index n, double scale, double cut, Index* idx) {
  Index q = 0;
  for (Index j = 0; j < n; ++j) {
    idx[q] = j;
    q += x[j] * scale < cut ? 0 : 1;
  }
  return q;
}

}  // namespace scalar

#if defined(BUDGETSVM_SIMD_X86)
// ---- SSE2 (every x86-64 CPU) -----------------------------------------------
namespace sse2 {

/// x[i] <- exp(x[i]) for N registers, their polynomials interleaved (see
/// "exp" at the top of this file).
template <int N>
BUDGETSVM_TARGET("sse2") inline void exp_neg_n(__m128d* x) {
  using namespace detail;
  __m128d too_small[N], t[N], r[N], p[N];
  const __m128d magic = _mm_set1_pd(kRoundMagic);
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) {
    too_small[i] = _mm_cmplt_pd(x[i], _mm_set1_pd(kExpMin));
    const __m128d xi = _mm_min_pd(_mm_max_pd(x[i], _mm_set1_pd(kExpMin)), _mm_set1_pd(kExpMax));
    t[i] = _mm_add_pd(_mm_mul_pd(xi, _mm_set1_pd(kLog2e)), magic);
    const __m128d n = _mm_sub_pd(t[i], magic);
    r[i] = _mm_sub_pd(xi, _mm_mul_pd(n, _mm_set1_pd(kLn2Hi)));
    r[i] = _mm_sub_pd(r[i], _mm_mul_pd(n, _mm_set1_pd(kLn2Lo)));
    p[i] = _mm_set1_pd(kC[0]);
  }
  BUDGETSVM_UNROLL for (int k = 1; k < 13; ++k) {
    const __m128d c = _mm_set1_pd(kC[k]);
    BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) p[i] = _mm_add_pd(_mm_mul_pd(p[i], r[i]), c);
  }
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) {
    __m128i bits = _mm_add_epi64(_mm_castpd_si128(t[i]), _mm_set1_epi64x(1023));
    bits = _mm_slli_epi64(bits, 52);
    x[i] = _mm_andnot_pd(too_small[i], _mm_mul_pd(p[i], _mm_castsi128_pd(bits)));
  }
}

BUDGETSVM_TARGET("sse2") inline __m128d exp_neg(__m128d x) {
  exp_neg_n<1>(&x);
  return x;
}

BUDGETSVM_TARGET("sse2")
inline void dots(const double* Zt, Index ld, Index B, const Index* idx, const double* val,
                 Index nnz, double* acc) {
  const Index B2 = B & ~Index{1};
  for (Index j = 0; j < B; ++j) acc[j] = 0.0;
  Index q = 0;
  for (; q + 2 <= nnz; q += 2) {
    const double* z0 = Zt + (idx ? idx[q] : q) * ld;
    const double* z1 = Zt + (idx ? idx[q + 1] : q + 1) * ld;
    const __m128d v0 = _mm_set1_pd(val[q]), v1 = _mm_set1_pd(val[q + 1]);
    for (Index j = 0; j < B2; j += 2) {
      const __m128d s = _mm_add_pd(_mm_mul_pd(v0, _mm_loadu_pd(z0 + j)), _mm_mul_pd(v1, _mm_loadu_pd(z1 + j)));
      _mm_storeu_pd(acc + j, _mm_add_pd(_mm_loadu_pd(acc + j), s));
    }
    for (Index j = B2; j < B; ++j) acc[j] += val[q] * z0[j] + val[q + 1] * z1[j];
  }
  for (; q < nnz; ++q) {
    const double* z = Zt + (idx ? idx[q] : q) * ld;
    const __m128d v = _mm_set1_pd(val[q]);
    for (Index j = 0; j < B2; j += 2)
      _mm_storeu_pd(acc + j, _mm_add_pd(_mm_loadu_pd(acc + j), _mm_mul_pd(v, _mm_loadu_pd(z + j))));
    for (Index j = B2; j < B; ++j) acc[j] += val[q] * z[j];
  }
}

BUDGETSVM_TARGET("sse2")
inline void rbf_from_dots(const double* acc, const double* znorm, double xnorm, double gamma,
                          Index B, double* out) {
  const __m128d xn = _mm_set1_pd(xnorm), ng = _mm_set1_pd(-gamma), two = _mm_set1_pd(2.0);
  const __m128d zero = _mm_setzero_pd();
  auto argument = [&](Index j) BUDGETSVM_TARGET("sse2") {
    const __m128d d = _mm_sub_pd(_mm_add_pd(xn, _mm_loadu_pd(znorm + j)), _mm_mul_pd(two, _mm_loadu_pd(acc + j)));
    return _mm_mul_pd(ng, _mm_max_pd(d, zero));
  };
  Index j = 0;
  for (; j + 8 <= B; j += 8) {
    __m128d v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = argument(j + 2 * i);
    exp_neg_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) _mm_storeu_pd(out + j + 2 * i, v[i]);
  }
  for (; j + 2 <= B; j += 2) _mm_storeu_pd(out + j, exp_neg(argument(j)));
  scalar::rbf_from_dots(acc + j, znorm + j, xnorm, gamma, B - j, out + j);
}

BUDGETSVM_TARGET("sse2") inline double dot(const double* a, const double* b, Index n) {
  __m128d s0 = _mm_setzero_pd(), s1 = _mm_setzero_pd(), s2 = _mm_setzero_pd(), s3 = _mm_setzero_pd();
  Index j = 0;
  for (; j + 8 <= n; j += 8) {
    s0 = _mm_add_pd(s0, _mm_mul_pd(_mm_loadu_pd(a + j), _mm_loadu_pd(b + j)));
    s1 = _mm_add_pd(s1, _mm_mul_pd(_mm_loadu_pd(a + j + 2), _mm_loadu_pd(b + j + 2)));
    s2 = _mm_add_pd(s2, _mm_mul_pd(_mm_loadu_pd(a + j + 4), _mm_loadu_pd(b + j + 4)));
    s3 = _mm_add_pd(s3, _mm_mul_pd(_mm_loadu_pd(a + j + 6), _mm_loadu_pd(b + j + 6)));
  }
  double t[2];
  _mm_storeu_pd(t, _mm_add_pd(_mm_add_pd(s0, s1), _mm_add_pd(s2, s3)));
  return t[0] + t[1] + scalar::dot(a + j, b + j, n - j);
}

BUDGETSVM_TARGET("sse2") inline void exp_to_float(const double* x, Index n, float* out) {
  Index j = 0;
  for (; j + 4 <= n; j += 4) {
    const __m128 lo = _mm_cvtpd_ps(exp_neg(_mm_loadu_pd(x + j)));
    const __m128 hi = _mm_cvtpd_ps(exp_neg(_mm_loadu_pd(x + j + 2)));
    _mm_storeu_ps(out + j, _mm_movelh_ps(lo, hi));
  }
  scalar::exp_to_float(x + j, n - j, out + j);
}

BUDGETSVM_TARGET("sse2")
inline void gemv(const double* A, Index ld, Index rows, Index cols, const double* x, double* y) {
  for (Index i = 0; i < rows; ++i) y[i] = dot(A + i * ld, x, cols);
}

BUDGETSVM_TARGET("sse2")
inline void dense_dots(const double* const* x, Index rows, Index d, const double* Zt, Index ld, Index B,
                       double* G, Index ldg) {
  for (Index r = 0; r < rows; ++r) dots(Zt, ld, B, nullptr, x[r], d, G + r * ldg);
}

BUDGETSVM_TARGET("sse2")
inline void row_dots(const double* const* x, Index rows, Index d, const double* Y, Index ldy, Index m,
                     double* Gt, Index ldg) {
  for (Index c = 0; c < m; ++c)
    for (Index r = 0; r < rows; ++r) Gt[c * ldg + r] = dot(x[r], Y + c * ldy, d);
}

BUDGETSVM_TARGET("sse2") inline double min_abs(const double* w, Index n) {
  const __m128d sign = _mm_set1_pd(-0.0);
  __m128d m0 = _mm_set1_pd(HUGE_VAL), m1 = m0;
  Index j = 0;
  for (; j + 4 <= n; j += 4) {
    m0 = _mm_min_pd(m0, _mm_andnot_pd(sign, _mm_loadu_pd(w + j)));
    m1 = _mm_min_pd(m1, _mm_andnot_pd(sign, _mm_loadu_pd(w + j + 2)));
  }
  double t[2];
  _mm_storeu_pd(t, _mm_min_pd(m0, m1));
  const double m = t[0] < t[1] ? t[0] : t[1];
  const double rest = scalar::min_abs(w + j, n - j);
  return rest < m ? rest : m;
}

BUDGETSVM_TARGET("sse2") inline Index argmin_abs(const double* w, Index n) {
  if (n <= 0) return 0;
  const double least = min_abs(w, n);
  const __m128d sign = _mm_set1_pd(-0.0), v = _mm_set1_pd(least);
  Index j = 0;
  for (; j + 2 <= n; j += 2) {
    const int hit = _mm_movemask_pd(_mm_cmpeq_pd(_mm_andnot_pd(sign, _mm_loadu_pd(w + j)), v));
    if (hit) return j + ((hit & 1) ? 0 : 1);
  }
  const Index r = j + scalar::first_abs_equal(w + j, n - j, least);
  return r < n ? r : 0;
}

BUDGETSVM_TARGET("sse2")
inline double sign_mask(const double* w, double s, const double* x, Index n, double* out) {
  const __m128d sv = _mm_set1_pd(s), zero = _mm_setzero_pd(), none = _mm_set1_pd(-1.0);
  __m128d best = none;
  Index j = 0;
  for (; j + 2 <= n; j += 2) {
    const __m128d keep = _mm_cmpgt_pd(_mm_mul_pd(_mm_loadu_pd(w + j), sv), zero);
    const __m128d v = _mm_or_pd(_mm_and_pd(keep, _mm_loadu_pd(x + j)), _mm_andnot_pd(keep, none));
    _mm_storeu_pd(out + j, v);
    best = _mm_max_pd(best, v);
  }
  double t[2];
  _mm_storeu_pd(t, best);
  const double m = t[0] > t[1] ? t[0] : t[1];
  const double rest = scalar::sign_mask(w + j, s, x + j, n - j, out + j);
  return rest > m ? rest : m;
}

BUDGETSVM_TARGET("sse2")
inline Index indices_at_least(const double* x, Index n, double scale, double cut, Index* idx) {
  const __m128d sc = _mm_set1_pd(scale), c = _mm_set1_pd(cut);
  Index q = 0, j = 0;
  for (; j + 2 <= n; j += 2) {
    const int mask = _mm_movemask_pd(_mm_cmpnlt_pd(_mm_mul_pd(_mm_loadu_pd(x + j), sc), c));
    q = detail::append_set_bits(static_cast<unsigned>(mask), 2, j, idx, q);
  }
  const Index rest = scalar::indices_at_least(x + j, n - j, scale, cut, idx + q);
  for (Index k = q; k < q + rest; ++k) idx[k] += j;
  return q + rest;
}

}  // namespace sse2

// ---- AVX2 + FMA --------------------------------------------------------------
namespace avx2 {

/// x[i] <- exp(x[i]) for N registers, their polynomials interleaved (see
/// "exp" at the top of this file).
template <int N>
BUDGETSVM_TARGET("avx2,fma") inline void exp_neg_n(__m256d* x) {
  using namespace detail;
  __m256d too_small[N], t[N], r[N], p[N];
  const __m256d magic = _mm256_set1_pd(kRoundMagic);
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) {
    too_small[i] = _mm256_cmp_pd(x[i], _mm256_set1_pd(kExpMin), _CMP_LT_OQ);
    const __m256d xi = _mm256_min_pd(_mm256_max_pd(x[i], _mm256_set1_pd(kExpMin)), _mm256_set1_pd(kExpMax));
    t[i] = _mm256_fmadd_pd(xi, _mm256_set1_pd(kLog2e), magic);
    const __m256d n = _mm256_sub_pd(t[i], magic);
    r[i] = _mm256_fnmadd_pd(n, _mm256_set1_pd(kLn2Hi), xi);
    r[i] = _mm256_fnmadd_pd(n, _mm256_set1_pd(kLn2Lo), r[i]);
    p[i] = _mm256_set1_pd(kC[0]);
  }
  BUDGETSVM_UNROLL for (int k = 1; k < 13; ++k) {
    const __m256d c = _mm256_set1_pd(kC[k]);
    BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) p[i] = _mm256_fmadd_pd(p[i], r[i], c);
  }
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) {
    __m256i bits = _mm256_add_epi64(_mm256_castpd_si256(t[i]), _mm256_set1_epi64x(1023));
    bits = _mm256_slli_epi64(bits, 52);
    x[i] = _mm256_andnot_pd(too_small[i], _mm256_mul_pd(p[i], _mm256_castsi256_pd(bits)));
  }
}

BUDGETSVM_TARGET("avx2,fma") inline __m256d exp_neg(__m256d x) {
  exp_neg_n<1>(&x);
  return x;
}

BUDGETSVM_TARGET("avx2,fma")
inline void dots(const double* Zt, Index ld, Index B, const Index* idx, const double* val,
                 Index nnz, double* acc) {
  const Index B4 = B & ~Index{3};
  for (Index j = 0; j < B; ++j) acc[j] = 0.0;
  Index q = 0;
  // Four features per pass over the support vectors: one load and one store
  // of acc per four multiply-adds.
  for (; q + 4 <= nnz; q += 4) {
    const double* z0 = Zt + (idx ? idx[q] : q) * ld;
    const double* z1 = Zt + (idx ? idx[q + 1] : q + 1) * ld;
    const double* z2 = Zt + (idx ? idx[q + 2] : q + 2) * ld;
    const double* z3 = Zt + (idx ? idx[q + 3] : q + 3) * ld;
    const __m256d v0 = _mm256_set1_pd(val[q]), v1 = _mm256_set1_pd(val[q + 1]);
    const __m256d v2 = _mm256_set1_pd(val[q + 2]), v3 = _mm256_set1_pd(val[q + 3]);
    for (Index j = 0; j < B4; j += 4) {
      __m256d s = _mm256_fmadd_pd(v0, _mm256_loadu_pd(z0 + j), _mm256_loadu_pd(acc + j));
      __m256d u = _mm256_mul_pd(v1, _mm256_loadu_pd(z1 + j));
      s = _mm256_fmadd_pd(v2, _mm256_loadu_pd(z2 + j), s);
      u = _mm256_fmadd_pd(v3, _mm256_loadu_pd(z3 + j), u);
      _mm256_storeu_pd(acc + j, _mm256_add_pd(s, u));
    }
    for (Index j = B4; j < B; ++j)
      acc[j] += val[q] * z0[j] + val[q + 1] * z1[j] + val[q + 2] * z2[j] + val[q + 3] * z3[j];
  }
  for (; q < nnz; ++q) {
    const double* z = Zt + (idx ? idx[q] : q) * ld;
    const __m256d v = _mm256_set1_pd(val[q]);
    for (Index j = 0; j < B4; j += 4)
      _mm256_storeu_pd(acc + j, _mm256_fmadd_pd(v, _mm256_loadu_pd(z + j), _mm256_loadu_pd(acc + j)));
    for (Index j = B4; j < B; ++j) acc[j] += val[q] * z[j];
  }
}

BUDGETSVM_TARGET("avx2,fma")
inline void rbf_from_dots(const double* acc, const double* znorm, double xnorm, double gamma,
                          Index B, double* out) {
  const __m256d xn = _mm256_set1_pd(xnorm), ng = _mm256_set1_pd(-gamma);
  const __m256d mtwo = _mm256_set1_pd(-2.0), zero = _mm256_setzero_pd();
  auto argument = [&](Index j) BUDGETSVM_TARGET("avx2,fma") {
    const __m256d d = _mm256_fmadd_pd(mtwo, _mm256_loadu_pd(acc + j), _mm256_add_pd(xn, _mm256_loadu_pd(znorm + j)));
    return _mm256_mul_pd(ng, _mm256_max_pd(d, zero));
  };
  Index j = 0;
  for (; j + 16 <= B; j += 16) {
    __m256d v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = argument(j + 4 * i);
    exp_neg_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) _mm256_storeu_pd(out + j + 4 * i, v[i]);
  }
  for (; j + 4 <= B; j += 4) _mm256_storeu_pd(out + j, exp_neg(argument(j)));
  scalar::rbf_from_dots(acc + j, znorm + j, xnorm, gamma, B - j, out + j);
}

BUDGETSVM_TARGET("avx2,fma") inline double dot(const double* a, const double* b, Index n) {
  __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd(), s2 = _mm256_setzero_pd(), s3 = _mm256_setzero_pd();
  Index j = 0;
  for (; j + 16 <= n; j += 16) {
    s0 = _mm256_fmadd_pd(_mm256_loadu_pd(a + j), _mm256_loadu_pd(b + j), s0);
    s1 = _mm256_fmadd_pd(_mm256_loadu_pd(a + j + 4), _mm256_loadu_pd(b + j + 4), s1);
    s2 = _mm256_fmadd_pd(_mm256_loadu_pd(a + j + 8), _mm256_loadu_pd(b + j + 8), s2);
    s3 = _mm256_fmadd_pd(_mm256_loadu_pd(a + j + 12), _mm256_loadu_pd(b + j + 12), s3);
  }
  double t[4];
  _mm256_storeu_pd(t, _mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3)));
  return (t[0] + t[1]) + (t[2] + t[3]) + scalar::dot(a + j, b + j, n - j);
}

BUDGETSVM_TARGET("avx2,fma") inline void exp_to_float(const double* x, Index n, float* out) {
  Index j = 0;
  for (; j + 4 <= n; j += 4) _mm_storeu_ps(out + j, _mm256_cvtpd_ps(exp_neg(_mm256_loadu_pd(x + j))));
  scalar::exp_to_float(x + j, n - j, out + j);
}

BUDGETSVM_TARGET("avx2,fma") inline double sum4(__m256d v) {
  const __m128d s = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
  return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
}

BUDGETSVM_TARGET("avx2,fma")
inline void gemv(const double* A, Index ld, Index rows, Index cols, const double* x, double* y) {
  const Index c4 = cols & ~Index{3};
  Index i = 0;
  for (; i + 4 <= rows; i += 4) {
    const double *a0 = A + i * ld, *a1 = a0 + ld, *a2 = a1 + ld, *a3 = a2 + ld;
    __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd(), s2 = _mm256_setzero_pd(), s3 = _mm256_setzero_pd();
    for (Index j = 0; j < c4; j += 4) {
      const __m256d xv = _mm256_loadu_pd(x + j);
      s0 = _mm256_fmadd_pd(_mm256_loadu_pd(a0 + j), xv, s0);
      s1 = _mm256_fmadd_pd(_mm256_loadu_pd(a1 + j), xv, s1);
      s2 = _mm256_fmadd_pd(_mm256_loadu_pd(a2 + j), xv, s2);
      s3 = _mm256_fmadd_pd(_mm256_loadu_pd(a3 + j), xv, s3);
    }
    double t0 = sum4(s0), t1 = sum4(s1), t2 = sum4(s2), t3 = sum4(s3);
    for (Index j = c4; j < cols; ++j) {
      t0 += a0[j] * x[j];
      t1 += a1[j] * x[j];
      t2 += a2[j] * x[j];
      t3 += a3[j] * x[j];
    }
    y[i] = t0;
    y[i + 1] = t1;
    y[i + 2] = t2;
    y[i + 3] = t3;
  }
  for (; i < rows; ++i) y[i] = dot(A + i * ld, x, cols);
}

BUDGETSVM_TARGET("avx2,fma")
inline void dense_dots(const double* const* x, Index rows, Index d, const double* Zt, Index ld, Index B,
                       double* G, Index ldg) {
  const Index B16 = B & ~Index{15};
  Index r = 0;
  for (; r + 4 <= rows; r += 4) {
    const double *x0 = x[r], *x1 = x[r + 1], *x2 = x[r + 2], *x3 = x[r + 3];
    for (Index j = 0; j < B16; j += 16) {
      __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd(), a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
      __m256d b0 = _mm256_setzero_pd(), b1 = _mm256_setzero_pd(), b2 = _mm256_setzero_pd(), b3 = _mm256_setzero_pd();
      __m256d c0 = _mm256_setzero_pd(), c1 = _mm256_setzero_pd(), c2 = _mm256_setzero_pd(), c3 = _mm256_setzero_pd();
      __m256d e0 = _mm256_setzero_pd(), e1 = _mm256_setzero_pd(), e2 = _mm256_setzero_pd(), e3 = _mm256_setzero_pd();
      for (Index k = 0; k < d; ++k) {
        const double* z = Zt + k * ld + j;
        const __m256d z0 = _mm256_loadu_pd(z), z1 = _mm256_loadu_pd(z + 4);
        const __m256d z2 = _mm256_loadu_pd(z + 8), z3 = _mm256_loadu_pd(z + 12);
        __m256d v = _mm256_set1_pd(x0[k]);
        a0 = _mm256_fmadd_pd(v, z0, a0); a1 = _mm256_fmadd_pd(v, z1, a1);
        a2 = _mm256_fmadd_pd(v, z2, a2); a3 = _mm256_fmadd_pd(v, z3, a3);
        v = _mm256_set1_pd(x1[k]);
        b0 = _mm256_fmadd_pd(v, z0, b0); b1 = _mm256_fmadd_pd(v, z1, b1);
        b2 = _mm256_fmadd_pd(v, z2, b2); b3 = _mm256_fmadd_pd(v, z3, b3);
        v = _mm256_set1_pd(x2[k]);
        c0 = _mm256_fmadd_pd(v, z0, c0); c1 = _mm256_fmadd_pd(v, z1, c1);
        c2 = _mm256_fmadd_pd(v, z2, c2); c3 = _mm256_fmadd_pd(v, z3, c3);
        v = _mm256_set1_pd(x3[k]);
        e0 = _mm256_fmadd_pd(v, z0, e0); e1 = _mm256_fmadd_pd(v, z1, e1);
        e2 = _mm256_fmadd_pd(v, z2, e2); e3 = _mm256_fmadd_pd(v, z3, e3);
      }
      double* g = G + r * ldg + j;
      _mm256_storeu_pd(g, a0); _mm256_storeu_pd(g + 4, a1); _mm256_storeu_pd(g + 8, a2); _mm256_storeu_pd(g + 12, a3);
      g += ldg;
      _mm256_storeu_pd(g, b0); _mm256_storeu_pd(g + 4, b1); _mm256_storeu_pd(g + 8, b2); _mm256_storeu_pd(g + 12, b3);
      g += ldg;
      _mm256_storeu_pd(g, c0); _mm256_storeu_pd(g + 4, c1); _mm256_storeu_pd(g + 8, c2); _mm256_storeu_pd(g + 12, c3);
      g += ldg;
      _mm256_storeu_pd(g, e0); _mm256_storeu_pd(g + 4, e1); _mm256_storeu_pd(g + 8, e2); _mm256_storeu_pd(g + 12, e3);
    }
    if (B16 < B)
      for (Index t = 0; t < 4; ++t) dots(Zt + B16, ld, B - B16, nullptr, x[r + t], d, G + (r + t) * ldg + B16);
  }
  for (; r < rows; ++r) dots(Zt, ld, B, nullptr, x[r], d, G + r * ldg);
}

BUDGETSVM_TARGET("avx2,fma")
inline void row_dots(const double* const* x, Index rows, Index d, const double* Y, Index ldy, Index m,
                     double* Gt, Index ldg) {
  // Four rows at a time: four accumulators along k, then one horizontal
  // reduction of all four into the lanes of one register.
  const Index d4 = d & ~Index{3};
  const __m256i tail = _mm256_setr_epi64x(d - d4 > 0 ? -1 : 0, d - d4 > 1 ? -1 : 0, d - d4 > 2 ? -1 : 0, 0);
  Index r = 0;
  for (; r + 4 <= rows; r += 4) {
    const double *x0 = x[r], *x1 = x[r + 1], *x2 = x[r + 2], *x3 = x[r + 3];
    for (Index c = 0; c < m; ++c) {
      const double* y = Y + c * ldy;
      __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd(), a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
      for (Index k = 0; k < d4; k += 4) {
        const __m256d yv = _mm256_loadu_pd(y + k);
        a0 = _mm256_fmadd_pd(_mm256_loadu_pd(x0 + k), yv, a0);
        a1 = _mm256_fmadd_pd(_mm256_loadu_pd(x1 + k), yv, a1);
        a2 = _mm256_fmadd_pd(_mm256_loadu_pd(x2 + k), yv, a2);
        a3 = _mm256_fmadd_pd(_mm256_loadu_pd(x3 + k), yv, a3);
      }
      if (d4 < d) {
        const __m256d yv = _mm256_maskload_pd(y + d4, tail);
        a0 = _mm256_fmadd_pd(_mm256_maskload_pd(x0 + d4, tail), yv, a0);
        a1 = _mm256_fmadd_pd(_mm256_maskload_pd(x1 + d4, tail), yv, a1);
        a2 = _mm256_fmadd_pd(_mm256_maskload_pd(x2 + d4, tail), yv, a2);
        a3 = _mm256_fmadd_pd(_mm256_maskload_pd(x3 + d4, tail), yv, a3);
      }
      const __m256d h01 = _mm256_hadd_pd(a0, a1), h23 = _mm256_hadd_pd(a2, a3);
      const __m256d sum = _mm256_add_pd(_mm256_permute2f128_pd(h01, h23, 0x20), _mm256_permute2f128_pd(h01, h23, 0x31));
      _mm256_storeu_pd(Gt + c * ldg + r, sum);
    }
  }
  for (; r < rows; ++r)
    for (Index c = 0; c < m; ++c) Gt[c * ldg + r] = dot(x[r], Y + c * ldy, d);
}

BUDGETSVM_TARGET("avx2,fma") inline double min_abs(const double* w, Index n) {
  const __m256d sign = _mm256_set1_pd(-0.0);
  __m256d m0 = _mm256_set1_pd(HUGE_VAL), m1 = m0;
  Index j = 0;
  for (; j + 8 <= n; j += 8) {
    m0 = _mm256_min_pd(m0, _mm256_andnot_pd(sign, _mm256_loadu_pd(w + j)));
    m1 = _mm256_min_pd(m1, _mm256_andnot_pd(sign, _mm256_loadu_pd(w + j + 4)));
  }
  double t[4];
  _mm256_storeu_pd(t, _mm256_min_pd(m0, m1));
  double m = scalar::min_abs(w + j, n - j);
  for (double v : t) m = v < m ? v : m;
  return m;
}

BUDGETSVM_TARGET("avx2,fma") inline Index argmin_abs(const double* w, Index n) {
  if (n <= 0) return 0;
  const double least = min_abs(w, n);
  const __m256d sign = _mm256_set1_pd(-0.0), v = _mm256_set1_pd(least);
  Index j = 0;
  for (; j + 4 <= n; j += 4) {
    const int hit =
        _mm256_movemask_pd(_mm256_cmp_pd(_mm256_andnot_pd(sign, _mm256_loadu_pd(w + j)), v, _CMP_EQ_OQ));
    if (hit) return j + scalar::first_abs_equal(w + j, 4, least);
  }
  const Index r = j + scalar::first_abs_equal(w + j, n - j, least);
  return r < n ? r : 0;
}

BUDGETSVM_TARGET("avx2,fma")
inline double sign_mask(const double* w, double s, const double* x, Index n, double* out) {
  const __m256d sv = _mm256_set1_pd(s), zero = _mm256_setzero_pd(), none = _mm256_set1_pd(-1.0);
  __m256d best = none;
  Index j = 0;
  for (; j + 4 <= n; j += 4) {
    const __m256d keep = _mm256_cmp_pd(_mm256_mul_pd(_mm256_loadu_pd(w + j), sv), zero, _CMP_GT_OQ);
    const __m256d v = _mm256_blendv_pd(none, _mm256_loadu_pd(x + j), keep);
    _mm256_storeu_pd(out + j, v);
    best = _mm256_max_pd(best, v);
  }
  double t[4];
  _mm256_storeu_pd(t, best);
  double m = scalar::sign_mask(w + j, s, x + j, n - j, out + j);
  for (double v : t) m = v > m ? v : m;
  return m;
}

BUDGETSVM_TARGET("avx2,fma")
inline Index indices_at_least(const double* x, Index n, double scale, double cut, Index* idx) {
  const __m256d sc = _mm256_set1_pd(scale), c = _mm256_set1_pd(cut);
  Index q = 0, j = 0;
  for (; j + 4 <= n; j += 4) {
    const int mask = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_mul_pd(_mm256_loadu_pd(x + j), sc), c, _CMP_NLT_UQ));
    if (mask) q = detail::append_set_bits(static_cast<unsigned>(mask), 4, j, idx, q);
  }
  const Index rest = scalar::indices_at_least(x + j, n - j, scale, cut, idx + q);
  for (Index k = q; k < q + rest; ++k) idx[k] += j;
  return q + rest;
}

}  // namespace avx2

// ---- AVX-512F ----------------------------------------------------------------
namespace avx512 {

/// x[i] <- exp(x[i]) for N registers, their polynomials interleaved (see
/// "exp" at the top of this file).
template <int N>
BUDGETSVM_TARGET("avx512f") inline void exp_neg_n(__m512d* x) {
  using namespace detail;
  __mmask8 ok[N];
  __m512d t[N], r[N], p[N];
  // The masked forms with an explicit source: GCC 12 warns (wrongly) about
  // the undefined source register inside the unmasked _mm512_max_pd.
  const __mmask8 all = 0xFF;
  const __m512d magic = _mm512_set1_pd(kRoundMagic);
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) {
    ok[i] = _mm512_cmp_pd_mask(x[i], _mm512_set1_pd(kExpMin), _CMP_GE_OQ);
    __m512d xi = _mm512_mask_max_pd(x[i], all, x[i], _mm512_set1_pd(kExpMin));
    xi = _mm512_mask_min_pd(xi, all, xi, _mm512_set1_pd(kExpMax));
    t[i] = _mm512_fmadd_pd(xi, _mm512_set1_pd(kLog2e), magic);
    const __m512d n = _mm512_sub_pd(t[i], magic);
    r[i] = _mm512_fnmadd_pd(n, _mm512_set1_pd(kLn2Hi), xi);
    r[i] = _mm512_fnmadd_pd(n, _mm512_set1_pd(kLn2Lo), r[i]);
    p[i] = _mm512_set1_pd(kC[0]);
  }
  BUDGETSVM_UNROLL for (int k = 1; k < 13; ++k) {
    const __m512d c = _mm512_set1_pd(kC[k]);
    BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) p[i] = _mm512_fmadd_pd(p[i], r[i], c);
  }
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) {
    __m512i bits = _mm512_add_epi64(_mm512_castpd_si512(t[i]), _mm512_set1_epi64(1023));
    bits = _mm512_mask_slli_epi64(bits, all, bits, 52);
    x[i] = _mm512_maskz_mul_pd(ok[i], p[i], _mm512_castsi512_pd(bits));
  }
}

BUDGETSVM_TARGET("avx512f") inline __m512d exp_neg(__m512d x) {
  exp_neg_n<1>(&x);
  return x;
}

// acc[j..j+8) += v0 z[0][j..] + v1 z[1][j..] + v2 z[2][j..] + v3 z[3][j..],
// the lanes outside m neither read nor written.
BUDGETSVM_TARGET("avx512f")
inline void add_four(const double* const* z, __m512d v0, __m512d v1, __m512d v2, __m512d v3, Index j,
                     __mmask8 m, double* acc) {
  __m512d s = _mm512_fmadd_pd(v0, _mm512_maskz_loadu_pd(m, z[0] + j), _mm512_maskz_loadu_pd(m, acc + j));
  __m512d u = _mm512_mul_pd(v1, _mm512_maskz_loadu_pd(m, z[1] + j));
  s = _mm512_fmadd_pd(v2, _mm512_maskz_loadu_pd(m, z[2] + j), s);
  u = _mm512_fmadd_pd(v3, _mm512_maskz_loadu_pd(m, z[3] + j), u);
  _mm512_mask_storeu_pd(acc + j, m, _mm512_add_pd(s, u));
}

BUDGETSVM_TARGET("avx512f")
inline void dots(const double* Zt, Index ld, Index B, const Index* idx, const double* val,
                 Index nnz, double* acc) {
  const Index B8 = B & ~Index{7};
  // The last B - B8 support vectors in one masked register (no scalar tail).
  const auto tail = static_cast<__mmask8>((1u << (B - B8)) - 1u);
  const auto all = static_cast<__mmask8>(0xFF);
  for (Index j = 0; j < B; ++j) acc[j] = 0.0;
  Index q = 0;
  for (; q + 4 <= nnz; q += 4) {
    const double* z[4];
    for (int t = 0; t < 4; ++t) z[t] = Zt + (idx ? idx[q + t] : q + t) * ld;
    const __m512d v0 = _mm512_set1_pd(val[q]), v1 = _mm512_set1_pd(val[q + 1]);
    const __m512d v2 = _mm512_set1_pd(val[q + 2]), v3 = _mm512_set1_pd(val[q + 3]);
    for (Index j = 0; j < B8; j += 8) add_four(z, v0, v1, v2, v3, j, all, acc);
    if (tail) add_four(z, v0, v1, v2, v3, B8, tail, acc);
  }
  for (; q < nnz; ++q) {
    const double* z = Zt + (idx ? idx[q] : q) * ld;
    const __m512d v = _mm512_set1_pd(val[q]);
    for (Index j = 0; j < B8; j += 8)
      _mm512_storeu_pd(acc + j, _mm512_fmadd_pd(v, _mm512_loadu_pd(z + j), _mm512_loadu_pd(acc + j)));
    if (tail)
      _mm512_mask_storeu_pd(acc + B8, tail,
                            _mm512_fmadd_pd(v, _mm512_maskz_loadu_pd(tail, z + B8), _mm512_maskz_loadu_pd(tail, acc + B8)));
  }
}

BUDGETSVM_TARGET("avx512f")
inline void rbf_from_dots(const double* acc, const double* znorm, double xnorm, double gamma,
                          Index B, double* out) {
  const __m512d xn = _mm512_set1_pd(xnorm), ng = _mm512_set1_pd(-gamma);
  const __m512d mtwo = _mm512_set1_pd(-2.0), zero = _mm512_setzero_pd();
  auto argument = [&](Index j) BUDGETSVM_TARGET("avx512f") {
    const __m512d d = _mm512_fmadd_pd(mtwo, _mm512_loadu_pd(acc + j), _mm512_add_pd(xn, _mm512_loadu_pd(znorm + j)));
    return _mm512_mul_pd(ng, _mm512_mask_max_pd(d, static_cast<__mmask8>(0xFF), d, zero));
  };
  Index j = 0;
  for (; j + 32 <= B; j += 32) {
    __m512d v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = argument(j + 8 * i);
    exp_neg_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) _mm512_storeu_pd(out + j + 8 * i, v[i]);
  }
  for (; j + 8 <= B; j += 8) _mm512_storeu_pd(out + j, exp_neg(argument(j)));
  scalar::rbf_from_dots(acc + j, znorm + j, xnorm, gamma, B - j, out + j);
}

BUDGETSVM_TARGET("avx512f") inline double dot(const double* a, const double* b, Index n) {
  __m512d s0 = _mm512_setzero_pd(), s1 = _mm512_setzero_pd();
  Index j = 0;
  for (; j + 16 <= n; j += 16) {
    s0 = _mm512_fmadd_pd(_mm512_loadu_pd(a + j), _mm512_loadu_pd(b + j), s0);
    s1 = _mm512_fmadd_pd(_mm512_loadu_pd(a + j + 8), _mm512_loadu_pd(b + j + 8), s1);
  }
  double t[8];
  _mm512_storeu_pd(t, _mm512_add_pd(s0, s1));
  return ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7])) + scalar::dot(a + j, b + j, n - j);
}

BUDGETSVM_TARGET("avx512f") inline void exp_to_float(const double* x, Index n, float* out) {
  Index j = 0;
  // The masked conversion with an explicit source (GCC 12's warning again).
  for (; j + 8 <= n; j += 8)
    _mm256_storeu_ps(out + j, _mm512_mask_cvtpd_ps(_mm256_setzero_ps(), static_cast<__mmask8>(0xFF),
                                                   exp_neg(_mm512_loadu_pd(x + j))));
  scalar::exp_to_float(x + j, n - j, out + j);
}

BUDGETSVM_TARGET("avx512f") inline double sum8(__m512d v) {
  double t[8];
  _mm512_storeu_pd(t, v);
  return ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7]));
}

BUDGETSVM_TARGET("avx512f")
inline void gemv(const double* A, Index ld, Index rows, Index cols, const double* x, double* y) {
  const Index c8 = cols & ~Index{7};
  Index i = 0;
  for (; i + 4 <= rows; i += 4) {
    const double *a0 = A + i * ld, *a1 = a0 + ld, *a2 = a1 + ld, *a3 = a2 + ld;
    __m512d s0 = _mm512_setzero_pd(), s1 = _mm512_setzero_pd(), s2 = _mm512_setzero_pd(), s3 = _mm512_setzero_pd();
    for (Index j = 0; j < c8; j += 8) {
      const __m512d xv = _mm512_loadu_pd(x + j);
      s0 = _mm512_fmadd_pd(_mm512_loadu_pd(a0 + j), xv, s0);
      s1 = _mm512_fmadd_pd(_mm512_loadu_pd(a1 + j), xv, s1);
      s2 = _mm512_fmadd_pd(_mm512_loadu_pd(a2 + j), xv, s2);
      s3 = _mm512_fmadd_pd(_mm512_loadu_pd(a3 + j), xv, s3);
    }
    double t0 = sum8(s0), t1 = sum8(s1), t2 = sum8(s2), t3 = sum8(s3);
    for (Index j = c8; j < cols; ++j) {
      t0 += a0[j] * x[j];
      t1 += a1[j] * x[j];
      t2 += a2[j] * x[j];
      t3 += a3[j] * x[j];
    }
    y[i] = t0;
    y[i + 1] = t1;
    y[i + 2] = t2;
    y[i + 3] = t3;
  }
  for (; i < rows; ++i) y[i] = dot(A + i * ld, x, cols);
}

BUDGETSVM_TARGET("avx512f")
inline void dense_dots(const double* const* x, Index rows, Index d, const double* Zt, Index ld, Index B,
                       double* G, Index ldg) {
  // Tiles of 4 rows x 32 columns (16 accumulators); the last tile of a row
  // block masked (masked loads and stores do not touch the columns left out).
  Index r = 0;
  for (; r + 4 <= rows; r += 4) {
    const double *x0 = x[r], *x1 = x[r + 1], *x2 = x[r + 2], *x3 = x[r + 3];
    for (Index j = 0; j < B; j += 32) {
      __mmask8 m[4];
      for (Index t = 0; t < 4; ++t) {
        const Index left = B - j - 8 * t;
        m[t] = static_cast<__mmask8>(left >= 8 ? 0xFFu : left > 0 ? (1u << left) - 1u : 0u);
      }
      __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd(), a2 = _mm512_setzero_pd(), a3 = _mm512_setzero_pd();
      __m512d b0 = _mm512_setzero_pd(), b1 = _mm512_setzero_pd(), b2 = _mm512_setzero_pd(), b3 = _mm512_setzero_pd();
      __m512d c0 = _mm512_setzero_pd(), c1 = _mm512_setzero_pd(), c2 = _mm512_setzero_pd(), c3 = _mm512_setzero_pd();
      __m512d e0 = _mm512_setzero_pd(), e1 = _mm512_setzero_pd(), e2 = _mm512_setzero_pd(), e3 = _mm512_setzero_pd();
      const __mmask8 m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3];
      for (Index k = 0; k < d; ++k) {
        const double* z = Zt + k * ld + j;
        const __m512d z0 = _mm512_maskz_loadu_pd(m0, z), z1 = _mm512_maskz_loadu_pd(m1, z + 8);
        const __m512d z2 = _mm512_maskz_loadu_pd(m2, z + 16), z3 = _mm512_maskz_loadu_pd(m3, z + 24);
        __m512d v = _mm512_set1_pd(x0[k]);
        a0 = _mm512_fmadd_pd(v, z0, a0); a1 = _mm512_fmadd_pd(v, z1, a1);
        a2 = _mm512_fmadd_pd(v, z2, a2); a3 = _mm512_fmadd_pd(v, z3, a3);
        v = _mm512_set1_pd(x1[k]);
        b0 = _mm512_fmadd_pd(v, z0, b0); b1 = _mm512_fmadd_pd(v, z1, b1);
        b2 = _mm512_fmadd_pd(v, z2, b2); b3 = _mm512_fmadd_pd(v, z3, b3);
        v = _mm512_set1_pd(x2[k]);
        c0 = _mm512_fmadd_pd(v, z0, c0); c1 = _mm512_fmadd_pd(v, z1, c1);
        c2 = _mm512_fmadd_pd(v, z2, c2); c3 = _mm512_fmadd_pd(v, z3, c3);
        v = _mm512_set1_pd(x3[k]);
        e0 = _mm512_fmadd_pd(v, z0, e0); e1 = _mm512_fmadd_pd(v, z1, e1);
        e2 = _mm512_fmadd_pd(v, z2, e2); e3 = _mm512_fmadd_pd(v, z3, e3);
      }
      double* g = G + r * ldg + j;
      _mm512_mask_storeu_pd(g, m0, a0); _mm512_mask_storeu_pd(g + 8, m1, a1);
      _mm512_mask_storeu_pd(g + 16, m2, a2); _mm512_mask_storeu_pd(g + 24, m3, a3);
      g += ldg;
      _mm512_mask_storeu_pd(g, m0, b0); _mm512_mask_storeu_pd(g + 8, m1, b1);
      _mm512_mask_storeu_pd(g + 16, m2, b2); _mm512_mask_storeu_pd(g + 24, m3, b3);
      g += ldg;
      _mm512_mask_storeu_pd(g, m0, c0); _mm512_mask_storeu_pd(g + 8, m1, c1);
      _mm512_mask_storeu_pd(g + 16, m2, c2); _mm512_mask_storeu_pd(g + 24, m3, c3);
      g += ldg;
      _mm512_mask_storeu_pd(g, m0, e0); _mm512_mask_storeu_pd(g + 8, m1, e1);
      _mm512_mask_storeu_pd(g + 16, m2, e2); _mm512_mask_storeu_pd(g + 24, m3, e3);
    }
  }
  for (; r < rows; ++r) dots(Zt, ld, B, nullptr, x[r], d, G + r * ldg);
}

BUDGETSVM_TARGET("avx512f")
inline void row_dots(const double* const* x, Index rows, Index d, const double* Y, Index ldy, Index m,
                     double* Gt, Index ldg) {
  // Eight rows at a time: eight accumulators along k (the last chunk of k
  // masked), then a reduction tree that leaves row t's sum in lane t.
  const Index d8 = d & ~Index{7};
  const __mmask8 tail = static_cast<__mmask8>((1u << (d - d8)) - 1u);
  Index r = 0;
  for (; r + 8 <= rows; r += 8) {
    const double* xr[8];
    for (Index t = 0; t < 8; ++t) xr[t] = x[r + t];
    for (Index c = 0; c < m; ++c) {
      const double* y = Y + c * ldy;
      __m512d a[8];
      for (Index t = 0; t < 8; ++t) a[t] = _mm512_setzero_pd();
      for (Index k = 0; k < d8; k += 8) {
        const __m512d yv = _mm512_loadu_pd(y + k);
        for (Index t = 0; t < 8; ++t) a[t] = _mm512_fmadd_pd(_mm512_loadu_pd(xr[t] + k), yv, a[t]);
      }
      if (d8 < d) {
        const __m512d yv = _mm512_maskz_loadu_pd(tail, y + d8);
        for (Index t = 0; t < 8; ++t) a[t] = _mm512_fmadd_pd(_mm512_maskz_loadu_pd(tail, xr[t] + d8), yv, a[t]);
      }
      // pairs within 128-bit lanes, then 128-bit lanes across registers
      // (the masked forms with an explicit source: GCC 12's unmasked ones
      // start from an undefined register and warn at -O3)
      const __m512d z = _mm512_setzero_pd();
      const __mmask8 all = 0xFF;
      __m512d p[4];
      for (Index t = 0; t < 4; ++t)
        p[t] = _mm512_add_pd(_mm512_mask_unpacklo_pd(z, all, a[2 * t], a[2 * t + 1]),
                             _mm512_mask_unpackhi_pd(z, all, a[2 * t], a[2 * t + 1]));
      const __m512d q0 = _mm512_add_pd(_mm512_mask_shuffle_f64x2(z, all, p[0], p[1], 0x88),
                                       _mm512_mask_shuffle_f64x2(z, all, p[0], p[1], 0xDD));
      const __m512d q1 = _mm512_add_pd(_mm512_mask_shuffle_f64x2(z, all, p[2], p[3], 0x88),
                                       _mm512_mask_shuffle_f64x2(z, all, p[2], p[3], 0xDD));
      const __m512d sum = _mm512_add_pd(_mm512_mask_shuffle_f64x2(z, all, q0, q1, 0x88),
                                        _mm512_mask_shuffle_f64x2(z, all, q0, q1, 0xDD));
      _mm512_storeu_pd(Gt + c * ldg + r, sum);
    }
  }
  for (; r < rows; ++r)
    for (Index c = 0; c < m; ++c) Gt[c * ldg + r] = dot(x[r], Y + c * ldy, d);
}

BUDGETSVM_TARGET("avx512f") inline double min_abs(const double* w, Index n) {
  __m512d m = _mm512_set1_pd(HUGE_VAL);
  Index j = 0;
  for (; j + 8 <= n; j += 8) m = _mm512_mask_min_pd(m, 0xFF, m, _mm512_abs_pd(_mm512_loadu_pd(w + j)));
  if (j < n) {
    const __mmask8 tail = static_cast<__mmask8>((1u << (n - j)) - 1u);
    m = _mm512_mask_min_pd(m, tail, m, _mm512_abs_pd(_mm512_maskz_loadu_pd(tail, w + j)));
  }
  double t[8];
  _mm512_storeu_pd(t, m);
  double least = t[0];
  for (double v : t) least = v < least ? v : least;
  return least;
}

BUDGETSVM_TARGET("avx512f") inline Index argmin_abs(const double* w, Index n) {
  if (n <= 0) return 0;
  const double least = min_abs(w, n);
  const __m512d v = _mm512_set1_pd(least);
  for (Index j = 0; j < n; j += 8) {
    const __mmask8 lanes = static_cast<__mmask8>(n - j >= 8 ? 0xFFu : (1u << (n - j)) - 1u);
    const __mmask8 hit =
        _mm512_mask_cmp_pd_mask(lanes, _mm512_abs_pd(_mm512_maskz_loadu_pd(lanes, w + j)), v, _CMP_EQ_OQ);
    if (hit) return j + scalar::first_abs_equal(w + j, 8, least);
  }
  return 0;
}

BUDGETSVM_TARGET("avx512f")
inline double sign_mask(const double* w, double s, const double* x, Index n, double* out) {
  const __m512d sv = _mm512_set1_pd(s), zero = _mm512_setzero_pd(), none = _mm512_set1_pd(-1.0);
  __m512d best = none;
  for (Index j = 0; j < n; j += 8) {
    const __mmask8 lanes = static_cast<__mmask8>(n - j >= 8 ? 0xFFu : (1u << (n - j)) - 1u);
    const __mmask8 keep =
        _mm512_mask_cmp_pd_mask(lanes, _mm512_mul_pd(_mm512_maskz_loadu_pd(lanes, w + j), sv), zero, _CMP_GT_OQ);
    const __m512d v = _mm512_mask_loadu_pd(none, keep, x + j);
    _mm512_mask_storeu_pd(out + j, lanes, v);
    best = _mm512_mask_max_pd(best, 0xFF, best, v);
  }
  double t[8];
  _mm512_storeu_pd(t, best);
  double most = t[0];
  for (double v : t) most = v > most ? v : most;
  return most;
}

BUDGETSVM_TARGET("avx512f")
inline Index indices_at_least(const double* x, Index n, double scale, double cut, Index* idx) {
  static_assert(sizeof(Index) == 8, "64-bit lanes of indices");
  const __m512d sc = _mm512_set1_pd(scale), c = _mm512_set1_pd(cut);
  const __m512i iota = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  Index q = 0;
  for (Index j = 0; j < n; j += 8) {
    const __mmask8 lanes = static_cast<__mmask8>(n - j >= 8 ? 0xFFu : (1u << (n - j)) - 1u);
    const __mmask8 mask = _mm512_mask_cmp_pd_mask(lanes, _mm512_mul_pd(_mm512_maskz_loadu_pd(lanes, x + j), sc), c,
                                                  _CMP_NLT_UQ);
    // packed in a register, then a masked store (a compressing store to
    // memory is microcoded and slow on some cores)
    const __m512i packed = _mm512_maskz_compress_epi64(mask, _mm512_add_epi64(_mm512_set1_epi64(j), iota));
    const int count = detail::popcount8(mask);
    _mm512_mask_storeu_epi64(idx + q, static_cast<__mmask8>((1u << count) - 1u), packed);
    q += count;
  }
  return q;
}

}  // namespace avx512
#endif  // BUDGETSVM_SIMD_X86

// ---- detection and dispatch ----------------------------------------------------

/// The best level this CPU and operating system support.
inline Level detect_level() {
#if defined(BUDGETSVM_SIMD_X86) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  // __builtin_cpu_supports also checks that the OS saves the wide registers.
  if (__builtin_cpu_supports("avx512f")) return Level::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Level::avx2;
  if (__builtin_cpu_supports("sse2")) return Level::sse2;
  return Level::scalar;
#elif defined(BUDGETSVM_SIMD_X86) && defined(_MSC_VER)
  int info[4];
  __cpuid(info, 0);
  const int max_leaf = info[0];
  __cpuid(info, 1);
  const bool sse2 = (info[3] >> 26) & 1;
  const bool fma = (info[2] >> 12) & 1;
  const bool osxsave = (info[2] >> 27) & 1;
  const bool avx = (info[2] >> 28) & 1;
  if (!sse2) return Level::scalar;
  if (!(osxsave && avx) || max_leaf < 7) return Level::sse2;
  const unsigned long long xcr0 = _xgetbv(0);
  if ((xcr0 & 0x6) != 0x6) return Level::sse2;
  __cpuidex(info, 7, 0);
  const bool avx2 = (info[1] >> 5) & 1;
  const bool avx512f = (info[1] >> 16) & 1;
  if (avx512f && (xcr0 & 0xE6) == 0xE6) return Level::avx512;
  if (avx2 && fma) return Level::avx2;
  return Level::sse2;
#else
  return Level::scalar;
#endif
}

/// Every level this CPU supports, lowest first (for tests and benchmarks).
inline std::vector<Level> supported_levels() {
  std::vector<Level> levels;
  for (int l = 0; l <= static_cast<int>(detect_level()); ++l) levels.push_back(static_cast<Level>(l));
  return levels;
}

/// The level in use: the detected one, lowered by BUDGETSVM_SIMD if set.
inline Level active_level() {
  static const Level level = [] {
    Level best = detect_level();
#if defined(_MSC_VER)
    char* env = nullptr;
    std::size_t len = 0;
    std::string wanted;
    if (_dupenv_s(&env, &len, "BUDGETSVM_SIMD") == 0 && env) {
      wanted = env;
      std::free(env);
    }
#else
    const char* env = std::getenv("BUDGETSVM_SIMD");
    const std::string wanted = env ? env : "";
#endif
    Level asked = best;
    if (wanted == "scalar") asked = Level::scalar;
    if (wanted == "sse2") asked = Level::sse2;
    if (wanted == "avx2") asked = Level::avx2;
    if (wanted == "avx512") asked = Level::avx512;
    return static_cast<int>(asked) < static_cast<int>(best) ? asked : best;
  }();
  return level;
}

/// The kernels of one level, as plain function pointers.
struct Kernels {
  Level level;
  void (*dots)(const double* Zt, Index ld, Index B, const Index* idx, const double* val,
               Index nnz, double* acc);
  void (*rbf_from_dots)(const double* acc, const double* znorm, double xnorm, double gamma,
                        Index B, double* out);
  double (*dot)(const double* a, const double* b, Index n);
  void (*exp_to_float)(const double* x, Index n, float* out);
  void (*gemv)(const double* A, Index ld, Index rows, Index cols, const double* x, double* y);
  void (*dense_dots)(const double* const* x, Index rows, Index d, const double* Zt, Index ld, Index B,
                     double* G, Index ldg);
  void (*row_dots)(const double* const* x, Index rows, Index d, const double* Y, Index ldy, Index m,
                   double* Gt, Index ldg);
  Index (*argmin_abs)(const double* w, Index n);
  double (*sign_mask)(const double* w, double s, const double* x, Index n, double* out);
  Index (*indices_at_least)(const double* x, Index n, double scale, double cut, Index* idx);
};

/// Kernels of a given level (which must not exceed detect_level()).
inline Kernels kernels_for(Level level) {
#if defined(BUDGETSVM_SIMD_X86)
  switch (level) {
    case Level::avx512: return {level, &avx512::dots, &avx512::rbf_from_dots, &avx512::dot,
                                      &avx512::exp_to_float, &avx512::gemv, &avx512::dense_dots, &avx512::row_dots,
                                      &avx512::argmin_abs, &avx512::sign_mask, &avx512::indices_at_least};
    case Level::avx2: return {level, &avx2::dots, &avx2::rbf_from_dots, &avx2::dot,
                                      &avx2::exp_to_float, &avx2::gemv, &avx2::dense_dots, &avx2::row_dots,
                                      &avx2::argmin_abs, &avx2::sign_mask, &avx2::indices_at_least};
    case Level::sse2: return {level, &sse2::dots, &sse2::rbf_from_dots, &sse2::dot,
                                      &sse2::exp_to_float, &sse2::gemv, &sse2::dense_dots, &sse2::row_dots,
                                      &sse2::argmin_abs, &sse2::sign_mask, &sse2::indices_at_least};
    case Level::scalar: break;
  }
#endif
  return {Level::scalar, &scalar::dots, &scalar::rbf_from_dots, &scalar::dot,
          &scalar::exp_to_float, &scalar::gemv, &scalar::dense_dots, &scalar::row_dots,
          &scalar::argmin_abs, &scalar::sign_mask, &scalar::indices_at_least};
}

/// The kernels of the active level.
inline const Kernels& active_kernels() {
  static const Kernels k = kernels_for(active_level());
  return k;
}

}  // namespace budgetsvm::simd
