// Single-precision kernels for predicting float32 data with the Gaussian
// kernel (expansion.hpp):
//
//   dense_dots:      G[r * ldg + j] = sum_k x_r[k] Zt[k * ld + j]  (float)
//   rbf_from_parts:  out[j] = 2^min(0, acc[j] + zpart[j] + xpart)
//   rbf_dot_parts:   sum_j coef[j] 2^(...) of the same values, summed in
//                    float lanes (a model with one output: the kernel values
//                    are never stored)
//
// Twice the lanes of the double kernels per instruction. The Gaussian value
// exp(-gamma |x - z|^2) is computed as a power of two, 2^u with
// u = -g |x - z|^2 = 2 g <x, z> - g |z|^2 - g |x|^2 and g = gamma log2(e), and
// the caller scales the three parts once: the support vectors by 2 g before
// the dot products (so acc = <x, 2 g z>), zpart[j] = -g |z_j|^2 per support
// vector, xpart = -g |x|^2 per row. u is then two additions, capped at 0 (a
// distance rounded below 0), and needs no multiply: the unit these loops
// wait on is the multiply-add one, which the dot products fill. Then
// u = n + r with n = round(u) and r in [-1/2, 1/2] (exactly), 2^r by a
// degree-6 polynomial (the least relative error on that interval, found by
// the Remez exchange: 1.9e-9, below float's half ulp), scaled by 2^n.
// Arguments below -125 give 0 (exp below -86.6; a result stays a normal
// float). Against exp of -gamma times a distance from the dots (the first
// version): no split constant of ln 2 in the reduction, the polynomial one
// degree less for the same error, no multiplies to form u: six instructions
// fewer on the multiply-add unit per vector of values. The rounding of u (float's epsilon times |u|) is that of
// any float exp's argument. Same instruction sets and dispatch as simd.hpp
// (the level is shared).
#pragma once

#include "simd.hpp"

namespace budgetsvm::simd {

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

#if defined(BUDGETSVM_SIMD_X86)
namespace avx2 {

/// u[i] <- 2^u[i] for N registers of u <= 0 (0 below kExp2MinF; see the top
/// of this file), their polynomials interleaved (simd.hpp, "exp").
template <int N>
BUDGETSVM_TARGET("avx2,fma") inline void exp2_nonpositive_f_n(__m256* u) {
  using namespace detail;
  const __m256 lo = _mm256_set1_ps(kExp2MinF);
  __m256 ok[N], n[N], r[N], p[N];
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) {
    ok[i] = _mm256_cmp_ps(u[i], lo, _CMP_GE_OQ);
    const __m256 ui = _mm256_max_ps(u[i], lo);
    n[i] = _mm256_round_ps(ui, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    r[i] = _mm256_sub_ps(ui, n[i]);
    p[i] = _mm256_set1_ps(kExp2F[0]);
  }
  BUDGETSVM_UNROLL for (int k = 1; k < 7; ++k) {
    const __m256 c = _mm256_set1_ps(kExp2F[k]);
    BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) p[i] = _mm256_fmadd_ps(p[i], r[i], c);
  }
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) {
    const __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n[i]), _mm256_set1_epi32(127)), 23);
    u[i] = _mm256_and_ps(ok[i], _mm256_mul_ps(p[i], _mm256_castsi256_ps(bits)));
  }
}

BUDGETSVM_TARGET("avx2,fma") inline __m256 exp2_nonpositive_f(__m256 u) {
  exp2_nonpositive_f_n<1>(&u);
  return u;
}

/// u = min(0, acc[j] + zpart[j] + xpart) for the 8 values at j.
BUDGETSVM_TARGET("avx2,fma")
inline __m256 pow2_argument_f(const float* acc, const float* zpart, __m256 xpart) {
  const __m256 u = _mm256_add_ps(_mm256_add_ps(_mm256_loadu_ps(acc), _mm256_loadu_ps(zpart)), xpart);
  return _mm256_min_ps(u, _mm256_setzero_ps());
}

BUDGETSVM_TARGET("avx2,fma")
inline void rbf_from_parts_f(const float* acc, const float* zpart, float xpart, Index B, float* out) {
  const __m256 xp = _mm256_set1_ps(xpart);
  Index j = 0;
  for (; j + 32 <= B; j += 32) {  // four registers' exps interleaved
    __m256 v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = pow2_argument_f(acc + j + 8 * i, zpart + j + 8 * i, xp);
    exp2_nonpositive_f_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) _mm256_storeu_ps(out + j + 8 * i, v[i]);
  }
  for (; j + 8 <= B; j += 8) _mm256_storeu_ps(out + j, exp2_nonpositive_f(pow2_argument_f(acc + j, zpart + j, xp)));
  scalar::rbf_from_parts_f(acc + j, zpart + j, xpart, B - j, out + j);
}

BUDGETSVM_TARGET("avx2,fma")
inline float rbf_dot_parts_f(const float* acc, const float* zpart, float xpart, Index B, const float* coef) {
  const __m256 xp = _mm256_set1_ps(xpart);
  __m256 sum = _mm256_setzero_ps();
  Index j = 0;
  for (; j + 32 <= B; j += 32) {  // four registers' exps interleaved, summed in order
    __m256 v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = pow2_argument_f(acc + j + 8 * i, zpart + j + 8 * i, xp);
    exp2_nonpositive_f_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) sum = _mm256_fmadd_ps(v[i], _mm256_loadu_ps(coef + j + 8 * i), sum);
  }
  for (; j + 8 <= B; j += 8)
    sum = _mm256_fmadd_ps(exp2_nonpositive_f(pow2_argument_f(acc + j, zpart + j, xp)), _mm256_loadu_ps(coef + j), sum);
  float t[8];
  _mm256_storeu_ps(t, sum);
  return ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7])) +
         scalar::rbf_dot_parts_f(acc + j, zpart + j, xpart, B - j, coef + j);
}

BUDGETSVM_TARGET("avx2,fma")
inline void dense_dots_f(const float* const* x, Index rows, Index d, const float* Zt, Index ld, Index B, float* G,
                         Index ldg) {
  // Tiles of 4 rows x 16 columns (8 accumulators); the columns past the last
  // full tile and the rows past the last group of four in scalar code.
  const Index B16 = B & ~Index{15};
  Index r = 0;
  for (; r + 4 <= rows; r += 4) {
    for (Index j = 0; j < B16; j += 16) {
      __m256 a[4][2];
      for (auto& row : a) row[0] = row[1] = _mm256_setzero_ps();
      for (Index k = 0; k < d; ++k) {
        const float* z = Zt + k * ld + j;
        const __m256 z0 = _mm256_loadu_ps(z), z1 = _mm256_loadu_ps(z + 8);
        for (int t = 0; t < 4; ++t) {
          const __m256 v = _mm256_set1_ps(x[r + t][k]);
          a[t][0] = _mm256_fmadd_ps(v, z0, a[t][0]);
          a[t][1] = _mm256_fmadd_ps(v, z1, a[t][1]);
        }
      }
      for (int t = 0; t < 4; ++t) {
        _mm256_storeu_ps(G + (r + t) * ldg + j, a[t][0]);
        _mm256_storeu_ps(G + (r + t) * ldg + j + 8, a[t][1]);
      }
    }
    if (B16 < B) scalar::dense_dots_f(x + r, 4, d, Zt + B16, ld, B - B16, G + r * ldg + B16, ldg);
  }
  scalar::dense_dots_f(x + r, rows - r, d, Zt, ld, B, G + r * ldg, ldg);
}

}  // namespace avx2

namespace avx512 {

/// u[i] <- 2^u[i] for N registers of u <= 0 (0 below kExp2MinF; see the top
/// of this file), their polynomials interleaved (simd.hpp, "exp").
template <int N>
BUDGETSVM_TARGET("avx512f") inline void exp2_nonpositive_f_n(__m512* u) {
  using namespace detail;
  const __mmask16 all = 0xFFFF;
  const __m512 lo = _mm512_set1_ps(kExp2MinF);
  __mmask16 ok[N];
  __m512 n[N], r[N], p[N];
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) {
    ok[i] = _mm512_cmp_ps_mask(u[i], lo, _CMP_GE_OQ);
    const __m512 ui = _mm512_mask_max_ps(u[i], all, u[i], lo);
    n[i] = _mm512_mask_roundscale_ps(ui, all, ui, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    r[i] = _mm512_sub_ps(ui, n[i]);
    p[i] = _mm512_set1_ps(kExp2F[0]);
  }
  BUDGETSVM_UNROLL for (int k = 1; k < 7; ++k) {
    const __m512 c = _mm512_set1_ps(kExp2F[k]);
    BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) p[i] = _mm512_fmadd_ps(p[i], r[i], c);
  }
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) u[i] = _mm512_maskz_scalef_ps(ok[i], p[i], n[i]);  // 2^n p
}

BUDGETSVM_TARGET("avx512f") inline __m512 exp2_nonpositive_f(__m512 u) {
  exp2_nonpositive_f_n<1>(&u);
  return u;
}

/// u = min(0, acc[j] + zpart[j] + xpart) for the lanes of m at j (lanes
/// outside m read 0: u = xpart, finite).
BUDGETSVM_TARGET("avx512f")
inline __m512 pow2_argument_f(__mmask16 m, const float* acc, const float* zpart, __m512 xpart) {
  const __m512 u = _mm512_add_ps(_mm512_add_ps(_mm512_maskz_loadu_ps(m, acc), _mm512_maskz_loadu_ps(m, zpart)), xpart);
  return _mm512_mask_min_ps(u, static_cast<__mmask16>(0xFFFF), u, _mm512_setzero_ps());
}

BUDGETSVM_TARGET("avx512f")
inline void rbf_from_parts_f(const float* acc, const float* zpart, float xpart, Index B, float* out) {
  const __m512 xp = _mm512_set1_ps(xpart);
  const __mmask16 all = 0xFFFF;
  Index j = 0;
  for (; j + 64 <= B; j += 64) {  // four registers' exps interleaved
    __m512 v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = pow2_argument_f(all, acc + j + 16 * i, zpart + j + 16 * i, xp);
    exp2_nonpositive_f_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) _mm512_storeu_ps(out + j + 16 * i, v[i]);
  }
  for (; j + 16 <= B; j += 16) _mm512_storeu_ps(out + j, exp2_nonpositive_f(pow2_argument_f(all, acc + j, zpart + j, xp)));
  scalar::rbf_from_parts_f(acc + j, zpart + j, xpart, B - j, out + j);
}

BUDGETSVM_TARGET("avx512f")
inline float rbf_dot_parts_f(const float* acc, const float* zpart, float xpart, Index B, const float* coef) {
  // Masked tail: lanes past B carry a coefficient of 0.
  const __m512 xp = _mm512_set1_ps(xpart);
  __m512 sum = _mm512_setzero_ps();
  const __mmask16 all = 0xFFFF;
  Index j = 0;
  for (; j + 64 <= B; j += 64) {  // four registers' exps interleaved, summed in order
    __m512 v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = pow2_argument_f(all, acc + j + 16 * i, zpart + j + 16 * i, xp);
    exp2_nonpositive_f_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) sum = _mm512_fmadd_ps(v[i], _mm512_loadu_ps(coef + j + 16 * i), sum);
  }
  for (; j < B; j += 16) {
    const __mmask16 m = static_cast<__mmask16>(B - j >= 16 ? 0xFFFFu : (1u << (B - j)) - 1u);
    sum = _mm512_fmadd_ps(exp2_nonpositive_f(pow2_argument_f(m, acc + j, zpart + j, xp)), _mm512_maskz_loadu_ps(m, coef + j),
                          sum);
  }
  float t[16];
  _mm512_storeu_ps(t, sum);
  float total = 0.0f;
  for (int l = 0; l < 16; l += 4) total += (t[l] + t[l + 1]) + (t[l + 2] + t[l + 3]);
  return total;
}

BUDGETSVM_TARGET("avx512f")
inline void dense_dots_f(const float* const* x, Index rows, Index d, const float* Zt, Index ld, Index B, float* G,
                         Index ldg) {
  // Tiles of 4 rows x 32 columns (8 accumulators); the last tile of a row
  // block masked (masked loads and stores leave the other columns alone).
  Index r = 0;
  for (; r + 4 <= rows; r += 4) {
    for (Index j = 0; j < B; j += 32) {
      const Index left = B - j;
      const __mmask16 m0 = static_cast<__mmask16>(left >= 16 ? 0xFFFFu : (1u << left) - 1u);
      const __mmask16 m1 = static_cast<__mmask16>(left >= 32 ? 0xFFFFu : left > 16 ? (1u << (left - 16)) - 1u : 0u);
      __m512 a[4][2];
      for (auto& row : a) row[0] = row[1] = _mm512_setzero_ps();
      for (Index k = 0; k < d; ++k) {
        const float* z = Zt + k * ld + j;
        const __m512 z0 = _mm512_maskz_loadu_ps(m0, z), z1 = _mm512_maskz_loadu_ps(m1, z + 16);
        for (int t = 0; t < 4; ++t) {
          const __m512 v = _mm512_set1_ps(x[r + t][k]);
          a[t][0] = _mm512_fmadd_ps(v, z0, a[t][0]);
          a[t][1] = _mm512_fmadd_ps(v, z1, a[t][1]);
        }
      }
      for (int t = 0; t < 4; ++t) {
        _mm512_mask_storeu_ps(G + (r + t) * ldg + j, m0, a[t][0]);
        _mm512_mask_storeu_ps(G + (r + t) * ldg + j + 16, m1, a[t][1]);
      }
    }
  }
  scalar::dense_dots_f(x + r, rows - r, d, Zt, ld, B, G + r * ldg, ldg);
}

}  // namespace avx512
#endif  // BUDGETSVM_SIMD_X86

/// The single-precision kernels of the active level.
struct FloatKernels {
  void (*dense_dots)(const float* const* x, Index rows, Index d, const float* Zt, Index ld, Index B, float* G,
                     Index ldg);
  void (*rbf_from_parts)(const float* acc, const float* zpart, float xpart, Index B, float* out);
  float (*rbf_dot_parts)(const float* acc, const float* zpart, float xpart, Index B, const float* coef);
};

/// The single-precision kernels of a given level (which must not exceed
/// detect_level(); SSE2 uses the scalar ones).
inline FloatKernels float_kernels_for(Level level) {
#if defined(BUDGETSVM_SIMD_X86)
  switch (level) {
    case Level::avx512: return {&avx512::dense_dots_f, &avx512::rbf_from_parts_f, &avx512::rbf_dot_parts_f};
    case Level::avx2: return {&avx2::dense_dots_f, &avx2::rbf_from_parts_f, &avx2::rbf_dot_parts_f};
    default: break;
  }
#else
  (void)level;
#endif
  return {&scalar::dense_dots_f, &scalar::rbf_from_parts_f, &scalar::rbf_dot_parts_f};
}

inline const FloatKernels& active_float_kernels() {
  static const FloatKernels k = float_kernels_for(active_level());
  return k;
}

}  // namespace budgetsvm::simd
