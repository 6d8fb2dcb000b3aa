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
//
// Where the code is: the scalar and SSE2 kernels in simd_baseline.hpp; the
// AVX2 and AVX-512 ones written once over a vector-width type in
// simd_wide.hpp, compiled for each of the two (simd_width.hpp says how);
// below, written out per instruction set, dense_dots (AVX2's tile is faster
// written out) and the four whose AVX2 and AVX-512 forms differ in more
// than the width (movemask and blends against mask registers and a
// compressing store); then detection and dispatch.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "eigen.hpp"
#include "simd_baseline.hpp"
#include "simd_width.hpp"
#define BUDGETSVM_WIDE_BODY "simd_wide.hpp"
#include "simd_each_width.hpp"

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

#if defined(BUDGETSVM_SIMD_X86)
// ---- AVX2 + FMA: the kernels not in simd_wide.hpp ----------------------------
namespace avx2 {

// dense_dots, per instruction set: AVX2's 4 x 16 tile written out. The same
// loop through simd_wide.hpp's dots_tile (as AVX-512 and the float kernels
// use it) ran 6-9% slower at AVX2 with GCC 12 (the kernel timed alone,
// against this version): its 16 accumulators and the broadcast exceed
// AVX2's 16 registers, and the two spilled accumulators fell on a longer
// path. AVX-512 has 32 registers and no such loss.
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

// ---- AVX-512F: the kernels not in simd_wide.hpp ------------------------------
namespace avx512 {

// dense_dots: see AVX2's above.
BUDGETSVM_TARGET("avx512f")
inline void dense_dots(const double* const* x, Index rows, Index d, const double* Zt, Index ld, Index B, double* G,
                       Index ldg) {
  // Tiles of 4 rows x 32 columns (16 accumulators, dots_tile of
  // simd_wide.hpp); the columns past the last full tile in one masked tile.
  using V = width::avx512::Double;
  constexpr Index W = V::lanes;
  const Index full = B - B % (4 * W);
  Index r = 0;
  for (; r + 4 <= rows; r += 4) {
    const double* xr[4] = {x[r], x[r + 1], x[r + 2], x[r + 3]};
    for (Index j = 0; j < full; j += 4 * W) dots_tile<V, 4, false>(xr, d, Zt, ld, j, G + r * ldg, ldg);
    if (full < B) {
      const Index left = B - full;
      const V::tail m[4] = {V::first(left), V::first(left - W), V::first(left - 2 * W), V::first(left - 3 * W)};
      dots_tile<V, 4, true>(xr, d, Zt, ld, full, G + r * ldg, ldg, m);
    }
  }
  for (; r < rows; ++r) dots(Zt, ld, B, nullptr, x[r], d, G + r * ldg);
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

/// The AVX-512 or AVX2 version of a kernel (simd_wide.hpp and the other
/// bodies) for a level, else `baseline` (the scalar one, or nullptr):
/// inline Kernel kernel_for(Level level) {
///   return BUDGETSVM_SIMD_WIDE_OR(level, kernel, &scalar::kernel); }
#if defined(BUDGETSVM_SIMD_X86)
#define BUDGETSVM_SIMD_WIDE_OR(level, kernel, baseline) \
  ((level) == Level::avx512 ? &avx512::kernel : (level) == Level::avx2 ? &avx2::kernel : (baseline))
#else
#define BUDGETSVM_SIMD_WIDE_OR(level, kernel, baseline) ((void)(level), (baseline))
#endif

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
