// Single-precision versions of two of simd.hpp's kernels, for predicting
// float32 data with the Gaussian kernel (expansion.hpp):
//
//   dense_dots:     G[r * ldg + j] = sum_k x_r[k] Zt[k * ld + j]  (float)
//   rbf_from_dots:  out[j] = exp(-gamma * max(0, xnorm + znorm[j] - 2 acc[j]))
//   rbf_dot:        sum_j coef[j] exp(...) of the same values, summed in
//                   float lanes (a model with one output: the kernel values
//                   are never stored)
//
// Twice the lanes of the double kernels per instruction. The exp: the same
// Cody-Waite reduction as the double one (ln 2 split in two floats), a
// degree-7 Taylor polynomial (|error| about 1e-8 relative on the reduced
// range, below float's half ulp), arguments below -87 give 0. Same
// instruction sets and dispatch as simd.hpp (the level is shared).
#pragma once

#include "simd.hpp"

namespace budgetsvm::simd {

namespace detail {
constexpr float kLog2eF = 1.44269504f;
constexpr float kLn2HiF = 0.693359375f;  // few bits: n * kLn2HiF is exact
constexpr float kLn2LoF = -2.12194440e-4f;
constexpr float kRoundMagicF = 12582912.0f;  // 1.5 * 2^23
constexpr float kExpMinF = -87.0f;
// 1/k! for k = 7 .. 0 (Horner order).
constexpr float kCF[8] = {1.98412698e-4f, 1.38888889e-3f, 8.33333333e-3f, 4.16666667e-2f,
                          1.66666667e-1f, 0.5f,           1.0f,           1.0f};
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

inline void rbf_from_dots_f(const float* acc, const float* znorm, float xnorm, float gamma, Index B, float* out) {
  for (Index j = 0; j < B; ++j) {
    const float d = xnorm + znorm[j] - 2.0f * acc[j];
    out[j] = static_cast<float>(detail::exp_scalar(-static_cast<double>(gamma) * (d > 0.0f ? d : 0.0f)));
  }
}

inline float rbf_dot_f(const float* acc, const float* znorm, float xnorm, float gamma, Index B, const float* coef) {
  float s = 0.0f;
  for (Index j = 0; j < B; ++j) {
    const float d = xnorm + znorm[j] - 2.0f * acc[j];
    s += coef[j] * static_cast<float>(detail::exp_scalar(-static_cast<double>(gamma) * (d > 0.0f ? d : 0.0f)));
  }
  return s;
}

}  // namespace scalar

#if defined(BUDGETSVM_SIMD_X86)
namespace avx2 {

BUDGETSVM_TARGET("avx2,fma") inline __m256 exp_neg_f(__m256 x) {
  using namespace detail;
  const __m256 ok = _mm256_cmp_ps(x, _mm256_set1_ps(kExpMinF), _CMP_GE_OQ);
  x = _mm256_max_ps(x, _mm256_set1_ps(kExpMinF));
  const __m256 magic = _mm256_set1_ps(kRoundMagicF);
  const __m256 t = _mm256_fmadd_ps(x, _mm256_set1_ps(kLog2eF), magic);
  const __m256 n = _mm256_sub_ps(t, magic);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2HiF), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2LoF), r);
  __m256 p = _mm256_set1_ps(kCF[0]);
  for (int k = 1; k < 8; ++k) p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kCF[k]));
  const __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_castps_si256(t), _mm256_set1_epi32(127)), 23);
  return _mm256_and_ps(ok, _mm256_mul_ps(p, _mm256_castsi256_ps(bits)));
}

BUDGETSVM_TARGET("avx2,fma")
inline void rbf_from_dots_f(const float* acc, const float* znorm, float xnorm, float gamma, Index B, float* out) {
  const __m256 xn = _mm256_set1_ps(xnorm), ng = _mm256_set1_ps(-gamma), mtwo = _mm256_set1_ps(-2.0f);
  Index j = 0;
  for (; j + 8 <= B; j += 8) {
    __m256 d = _mm256_fmadd_ps(mtwo, _mm256_loadu_ps(acc + j), _mm256_add_ps(xn, _mm256_loadu_ps(znorm + j)));
    d = _mm256_max_ps(d, _mm256_setzero_ps());
    _mm256_storeu_ps(out + j, exp_neg_f(_mm256_mul_ps(ng, d)));
  }
  scalar::rbf_from_dots_f(acc + j, znorm + j, xnorm, gamma, B - j, out + j);
}

BUDGETSVM_TARGET("avx2,fma")
inline float rbf_dot_f(const float* acc, const float* znorm, float xnorm, float gamma, Index B, const float* coef) {
  const __m256 xn = _mm256_set1_ps(xnorm), ng = _mm256_set1_ps(-gamma), mtwo = _mm256_set1_ps(-2.0f);
  __m256 sum = _mm256_setzero_ps();
  Index j = 0;
  for (; j + 8 <= B; j += 8) {
    __m256 d = _mm256_fmadd_ps(mtwo, _mm256_loadu_ps(acc + j), _mm256_add_ps(xn, _mm256_loadu_ps(znorm + j)));
    d = _mm256_max_ps(d, _mm256_setzero_ps());
    sum = _mm256_fmadd_ps(exp_neg_f(_mm256_mul_ps(ng, d)), _mm256_loadu_ps(coef + j), sum);
  }
  float t[8];
  _mm256_storeu_ps(t, sum);
  return ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7])) +
         scalar::rbf_dot_f(acc + j, znorm + j, xnorm, gamma, B - j, coef + j);
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

BUDGETSVM_TARGET("avx512f") inline __m512 exp_neg_f(__m512 x) {
  using namespace detail;
  const __mmask16 ok = _mm512_cmp_ps_mask(x, _mm512_set1_ps(kExpMinF), _CMP_GE_OQ);
  const __mmask16 all = 0xFFFF;
  x = _mm512_mask_max_ps(x, all, x, _mm512_set1_ps(kExpMinF));
  const __m512 magic = _mm512_set1_ps(kRoundMagicF);
  const __m512 t = _mm512_fmadd_ps(x, _mm512_set1_ps(kLog2eF), magic);
  const __m512 n = _mm512_sub_ps(t, magic);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2HiF), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2LoF), r);
  __m512 p = _mm512_set1_ps(kCF[0]);
  for (int k = 1; k < 8; ++k) p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(kCF[k]));
  __m512i bits = _mm512_add_epi32(_mm512_castps_si512(t), _mm512_set1_epi32(127));
  bits = _mm512_mask_slli_epi32(bits, all, bits, 23);
  return _mm512_maskz_mul_ps(ok, p, _mm512_castsi512_ps(bits));
}

BUDGETSVM_TARGET("avx512f")
inline void rbf_from_dots_f(const float* acc, const float* znorm, float xnorm, float gamma, Index B, float* out) {
  const __m512 xn = _mm512_set1_ps(xnorm), ng = _mm512_set1_ps(-gamma), mtwo = _mm512_set1_ps(-2.0f);
  const __m512 zero = _mm512_setzero_ps();
  Index j = 0;
  for (; j + 16 <= B; j += 16) {
    __m512 d = _mm512_fmadd_ps(mtwo, _mm512_loadu_ps(acc + j), _mm512_add_ps(xn, _mm512_loadu_ps(znorm + j)));
    d = _mm512_mask_max_ps(d, static_cast<__mmask16>(0xFFFF), d, zero);
    _mm512_storeu_ps(out + j, exp_neg_f(_mm512_mul_ps(ng, d)));
  }
  scalar::rbf_from_dots_f(acc + j, znorm + j, xnorm, gamma, B - j, out + j);
}

BUDGETSVM_TARGET("avx512f")
inline float rbf_dot_f(const float* acc, const float* znorm, float xnorm, float gamma, Index B, const float* coef) {
  // Masked tail: lanes past B read 0 (a distance of xnorm, a finite exp)
  // and carry a coefficient of 0.
  const __m512 xn = _mm512_set1_ps(xnorm), ng = _mm512_set1_ps(-gamma), mtwo = _mm512_set1_ps(-2.0f);
  const __m512 zero = _mm512_setzero_ps();
  __m512 sum = zero;
  for (Index j = 0; j < B; j += 16) {
    const __mmask16 m = static_cast<__mmask16>(B - j >= 16 ? 0xFFFFu : (1u << (B - j)) - 1u);
    __m512 d = _mm512_fmadd_ps(mtwo, _mm512_maskz_loadu_ps(m, acc + j), _mm512_add_ps(xn, _mm512_maskz_loadu_ps(m, znorm + j)));
    d = _mm512_mask_max_ps(d, static_cast<__mmask16>(0xFFFF), d, zero);
    sum = _mm512_fmadd_ps(exp_neg_f(_mm512_mul_ps(ng, d)), _mm512_maskz_loadu_ps(m, coef + j), sum);
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
  void (*rbf_from_dots)(const float* acc, const float* znorm, float xnorm, float gamma, Index B, float* out);
  float (*rbf_dot)(const float* acc, const float* znorm, float xnorm, float gamma, Index B, const float* coef);
};

/// The single-precision kernels of a given level (which must not exceed
/// detect_level(); SSE2 uses the scalar ones).
inline FloatKernels float_kernels_for(Level level) {
#if defined(BUDGETSVM_SIMD_X86)
  switch (level) {
    case Level::avx512: return {&avx512::dense_dots_f, &avx512::rbf_from_dots_f, &avx512::rbf_dot_f};
    case Level::avx2: return {&avx2::dense_dots_f, &avx2::rbf_from_dots_f, &avx2::rbf_dot_f};
    default: break;
  }
#else
  (void)level;
#endif
  return {&scalar::dense_dots_f, &scalar::rbf_from_dots_f, &scalar::rbf_dot_f};
}

inline const FloatKernels& active_float_kernels() {
  static const FloatKernels k = float_kernels_for(active_level());
  return k;
}

}  // namespace budgetsvm::simd
