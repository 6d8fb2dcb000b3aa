// The kernels of simd.hpp (and simd_float.hpp) at the levels below AVX2:
// portable scalar code, and SSE2 (every x86-64 CPU). The scalar loops also
// finish the last few elements of the AVX2 and AVX-512 kernels
// (simd_wide.hpp). The exp they share is described at the top of simd.hpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "eigen.hpp"
#include "simd_width.hpp"

namespace budgetsvm::simd {

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
#endif  // BUDGETSVM_SIMD_X86

// ---- single precision (simd_float.hpp) -------------------------------------

namespace detail {
constexpr float kExp2MinF = -125.0f;
// 2^r on [-1/2, 1/2]: coefficients of r^k for k = 6 .. 0 (Horner order).
constexpr float kExp2F[7] = {1.53458122e-4f, 1.33999312e-3f, 9.61848896e-3f, 5.55032878e-2f,
                             2.40226469e-1f, 6.93147206e-1f, 1.0f};
constexpr double kLn2 = 0.69314718055994530942;
}  // namespace detail

namespace scalar {

inline void dense_dots_f(const float* const* x, Index rows, Index d, const float* Zt, Index ld, Index B, float* G,
                         Index ldg) {
  for (Index r = 0; r < rows; ++r) {
    float* g = G + r * ldg;
    for (Index j = 0; j < B; ++j) g[j] = 0.0f;
    for (Index k = 0; k < d; ++k) {
      const float v = x[r][k];
      const float* z = Zt + k * ld;
      for (Index j = 0; j < B; ++j) g[j] += v * z[j];
    }
  }
}

/// u = min(0, acc + zpart + xpart), added in the vector kernels' order.
inline float pow2_argument_f(float acc, float zpart, float xpart) {
  const float u = (acc + zpart) + xpart;
  return u < 0.0f ? u : 0.0f;
}

inline void rbf_from_parts_f(const float* acc, const float* zpart, float xpart, Index B, float* out) {
  for (Index j = 0; j < B; ++j)
    out[j] = static_cast<float>(detail::exp_scalar(detail::kLn2 * pow2_argument_f(acc[j], zpart[j], xpart)));
}

inline float rbf_dot_parts_f(const float* acc, const float* zpart, float xpart, Index B, const float* coef) {
  float s = 0.0f;
  for (Index j = 0; j < B; ++j)
    s += coef[j] * static_cast<float>(detail::exp_scalar(detail::kLn2 * pow2_argument_f(acc[j], zpart[j], xpart)));
  return s;
}

}  // namespace scalar

}  // namespace budgetsvm::simd
