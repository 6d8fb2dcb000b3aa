// The cost pass of the merge partner search (budget/maintenance.hpp), at
// each instruction set of simd.hpp.
//
// When the budget is exceeded, the support vector a of least |beta_a| is
// merged with the same-sign partner j that degrades the model least:
//
//   cost_j = s^2 WD(m, kappa_j),   s = beta_a + beta_j,   m = beta_a / s,
//
// with WD read from the lookup table (budget/merge.hpp): bilinear
// interpolation in nodes over u(m) = 1 - sqrt(1 - 2 m) in [0, 1] (m folded
// to <= 1/2, WD being symmetric) times kappa in [0, 1].
//
//   least_merge_cost: over the candidates j = idx[k], k < q, the first k of
//                     least cost_j, and that cost
//
// On noisy data at a million rows every partner is far (kappa near 0), the
// table's pruning bound leaves all of the ~B/2 candidates, and their costs
// were half of the step: one division, one square root and four scattered
// table reads each. AVX2 and AVX-512 evaluate 4 / 8 candidates at once
// (gathers for the coefficients, kernel values and table nodes) and keep a
// per-lane minimum. The SSE2 level uses the scalar loop (no gathers).
//
// The scalar loop and the table's own interpolation (LookupTable) share one
// function, detail::bilinear, so they agree to the bit. The vector levels
// may differ from it in the last bits where the compiler fuses a multiply
// and an add; the partner search's pruning bound carries a relative margin
// of 1e-9 for that.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "../core/simd.hpp"

namespace budgetsvm::simd {

/// A view of a WD table: (half + 1) x (grid + 1) nodes, row-major, row i at
/// u = i / half, column c at kappa = c / grid.
struct WdGrid {
  const float* wd;
  int grid;
  int half;
};

namespace detail {

/// Bilinear interpolation of a node table at (m, kappa), m clamped to
/// [0, 1/2] and kappa to [0, 1] (no folding: the caller folds m).
template <class T>
inline double bilinear(const T* table, int grid, int half, double m, double kappa) {
  m = std::clamp(m, 0.0, 0.5);
  kappa = std::clamp(kappa, 0.0, 1.0);
  const double u = (1.0 - std::sqrt(std::max(0.0, 1.0 - 2.0 * m))) * half, v = kappa * grid;
  const int i = std::min(static_cast<int>(u), half - 1);
  const int j = std::min(static_cast<int>(v), grid - 1);
  const double fu = u - i, fv = v - j;
  const std::size_t cols = static_cast<std::size_t>(grid) + 1;
  const T* r0 = table + static_cast<std::size_t>(i) * cols + static_cast<std::size_t>(j);
  const T* r1 = r0 + cols;
  const double a = r0[0], b = r0[1], c = r1[0], d = r1[1];
  return (1.0 - fu) * ((1.0 - fv) * a + fv * b) + fu * ((1.0 - fv) * c + fv * d);
}

/// The interpolated WD at m, folded to m <= 1/2.
inline double wd_at(const WdGrid& t, double m, double kappa) {
  return bilinear(t.wd, t.grid, t.half, m > 0.5 ? 1.0 - m : m, kappa);
}

/// The first k of least cost[k] given per-lane minima (cost, k), lanes of
/// equal cost resolved to the smaller k.
inline Index first_least(const double* cost, const double* k, int lanes, double* best_cost) {
  double best = std::numeric_limits<double>::infinity(), best_k = -1.0;
  for (int l = 0; l < lanes; ++l) {
    if (k[l] >= 0.0 && (cost[l] < best || (cost[l] == best && k[l] < best_k))) best = cost[l], best_k = k[l];
  }
  *best_cost = best;
  return static_cast<Index>(best_k);
}

}  // namespace detail

namespace scalar {
inline Index least_merge_cost(const double* w, double wa, const double* kappa, const Index* idx, Index q,
                              const WdGrid& t, double* cost) {
  Index best = -1;
  double best_cost = std::numeric_limits<double>::infinity();
  for (Index k = 0; k < q; ++k) {
    const Index j = idx[k];
    const double s = wa + w[j];
    const double c = s * s * detail::wd_at(t, wa / s, kappa[j]);
    if (c < best_cost) best_cost = c, best = k;
  }
  *cost = best_cost;
  return best;
}
}  // namespace scalar

#if defined(BUDGETSVM_SIMD_X86)

namespace avx2 {
BUDGETSVM_TARGET("avx2,fma")
inline Index least_merge_cost(const double* w, double wa, const double* kappa, const Index* idx, Index q,
                              const WdGrid& t, double* cost) {
  static_assert(sizeof(Index) == 8, "the gathers take 64-bit indices");
  const __m256d va = _mm256_set1_pd(wa), zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0),
                half = _mm256_set1_pd(0.5), two = _mm256_set1_pd(2.0);
  const __m256d hf = _mm256_set1_pd(t.half), gf = _mm256_set1_pd(t.grid);
  const __m128i hmax = _mm_set1_epi32(t.half - 1), gmax = _mm_set1_epi32(t.grid - 1),
                cols = _mm_set1_epi32(t.grid + 1);
  __m256d best = _mm256_set1_pd(std::numeric_limits<double>::infinity()), best_k = _mm256_set1_pd(-1.0);
  const __m256d iota = _mm256_setr_pd(0.0, 1.0, 2.0, 3.0);
  for (Index k = 0; k < q; k += 4) {
    const Index left = q - k;
    const __m256i lane_i = _mm256_setr_epi64x(0, 1, 2, 3);
    const __m256i live = _mm256_cmpgt_epi64(_mm256_set1_epi64x(left), lane_i);
    const __m256d live_d = _mm256_castsi256_pd(live);
    const __m256i j = _mm256_maskload_epi64(reinterpret_cast<const long long*>(idx + k), live);
    // dead lanes read nothing and take s = 2 wa, kappa = 0: a valid node
    const __m256d wj = _mm256_mask_i64gather_pd(va, w, j, live_d, 8);
    __m256d kj = _mm256_mask_i64gather_pd(zero, kappa, j, live_d, 8);
    const __m256d s = _mm256_add_pd(va, wj);
    __m256d m = _mm256_div_pd(va, s);
    m = _mm256_blendv_pd(m, _mm256_sub_pd(one, m), _mm256_cmp_pd(m, half, _CMP_GT_OQ));
    m = _mm256_min_pd(_mm256_max_pd(m, zero), half);  // max(NaN, 0) = 0
    kj = _mm256_min_pd(_mm256_max_pd(kj, zero), one);
    const __m256d r = _mm256_max_pd(_mm256_sub_pd(one, _mm256_mul_pd(two, m)), zero);
    const __m256d u = _mm256_mul_pd(_mm256_sub_pd(one, _mm256_sqrt_pd(r)), hf);
    const __m256d v = _mm256_mul_pd(kj, gf);
    const __m128i i = _mm_min_epi32(_mm256_cvttpd_epi32(u), hmax);
    const __m128i c = _mm_min_epi32(_mm256_cvttpd_epi32(v), gmax);
    const __m256d fu = _mm256_sub_pd(u, _mm256_cvtepi32_pd(i));
    const __m256d fv = _mm256_sub_pd(v, _mm256_cvtepi32_pd(c));
    const __m128i off = _mm_add_epi32(_mm_mullo_epi32(i, cols), c);
    // nodes (c, c + 1) of a row are adjacent: one 64-bit gather reads both
    const auto* base = reinterpret_cast<const long long*>(t.wd);
    const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const __m256i row0 = _mm256_permutevar8x32_epi32(_mm256_i32gather_epi64(base, off, 4), even);
    const __m256i row1 = _mm256_permutevar8x32_epi32(_mm256_i32gather_epi64(base, _mm_add_epi32(off, cols), 4), even);
    const __m256d a = _mm256_cvtps_pd(_mm_castsi128_ps(_mm256_castsi256_si128(row0)));
    const __m256d b = _mm256_cvtps_pd(_mm_castsi128_ps(_mm256_extracti128_si256(row0, 1)));
    const __m256d cc = _mm256_cvtps_pd(_mm_castsi128_ps(_mm256_castsi256_si128(row1)));
    const __m256d d = _mm256_cvtps_pd(_mm_castsi128_ps(_mm256_extracti128_si256(row1, 1)));
    const __m256d gv = _mm256_sub_pd(one, fv), gu = _mm256_sub_pd(one, fu);
    const __m256d top = _mm256_add_pd(_mm256_mul_pd(gv, a), _mm256_mul_pd(fv, b));
    const __m256d bot = _mm256_add_pd(_mm256_mul_pd(gv, cc), _mm256_mul_pd(fv, d));
    const __m256d wd = _mm256_add_pd(_mm256_mul_pd(gu, top), _mm256_mul_pd(fu, bot));
    const __m256d value = _mm256_mul_pd(_mm256_mul_pd(s, s), wd);
    const __m256d better = _mm256_and_pd(_mm256_cmp_pd(value, best, _CMP_LT_OQ), live_d);
    best = _mm256_blendv_pd(best, value, better);
    best_k = _mm256_blendv_pd(best_k, _mm256_add_pd(_mm256_set1_pd(static_cast<double>(k)), iota), better);
  }
  double cost_l[4], k_l[4];
  _mm256_storeu_pd(cost_l, best);
  _mm256_storeu_pd(k_l, best_k);
  return detail::first_least(cost_l, k_l, 4, cost);
}
}  // namespace avx2

namespace avx512 {
BUDGETSVM_TARGET("avx512f")
inline Index least_merge_cost(const double* w, double wa, const double* kappa, const Index* idx, Index q,
                              const WdGrid& t, double* cost) {
  static_assert(sizeof(Index) == 8, "the gathers take 64-bit indices");
  const __m512d va = _mm512_set1_pd(wa), zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1.0),
                half = _mm512_set1_pd(0.5), two = _mm512_set1_pd(2.0);
  const __m512d hf = _mm512_set1_pd(t.half), gf = _mm512_set1_pd(t.grid);
  const __m256i hmax = _mm256_set1_epi32(t.half - 1), gmax = _mm256_set1_epi32(t.grid - 1),
                cols = _mm256_set1_epi32(t.grid + 1);
  __m512d best = _mm512_set1_pd(std::numeric_limits<double>::infinity()), best_k = _mm512_set1_pd(-1.0);
  const __m512d iota = _mm512_setr_pd(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
  for (Index k = 0; k < q; k += 8) {
    const __mmask8 live = static_cast<__mmask8>(q - k >= 8 ? 0xFFu : (1u << (q - k)) - 1u);
    const __m512i j = _mm512_maskz_loadu_epi64(live, idx + k);
    // dead lanes read nothing and take s = 2 wa, kappa = 0: a valid node
    const __m512d wj = _mm512_mask_i64gather_pd(va, live, j, w, 8);
    __m512d kj = _mm512_mask_i64gather_pd(zero, live, j, kappa, 8);
    const __m512d s = _mm512_add_pd(va, wj);
    __m512d m = _mm512_div_pd(va, s);
    m = _mm512_mask_sub_pd(m, _mm512_cmp_pd_mask(m, half, _CMP_GT_OQ), one, m);
    m = _mm512_mask_min_pd(zero, 0xFF, _mm512_mask_max_pd(zero, 0xFF, m, zero), half);  // max(NaN, 0) = 0
    kj = _mm512_mask_min_pd(zero, 0xFF, _mm512_mask_max_pd(zero, 0xFF, kj, zero), one);
    const __m512d r = _mm512_mask_max_pd(zero, 0xFF, _mm512_sub_pd(one, _mm512_mul_pd(two, m)), zero);
    const __m512d u = _mm512_mul_pd(_mm512_sub_pd(one, _mm512_mask_sqrt_pd(zero, 0xFF, r)), hf);
    const __m512d v = _mm512_mul_pd(kj, gf);
    const __m256i i = _mm256_min_epi32(_mm512_maskz_cvttpd_epi32(0xFF, u), hmax);
    const __m256i c = _mm256_min_epi32(_mm512_maskz_cvttpd_epi32(0xFF, v), gmax);
    const __m512d fu = _mm512_sub_pd(u, _mm512_maskz_cvtepi32_pd(0xFF, i));
    const __m512d fv = _mm512_sub_pd(v, _mm512_maskz_cvtepi32_pd(0xFF, c));
    const __m256i off = _mm256_add_epi32(_mm256_mullo_epi32(i, cols), c);
    // nodes (c, c + 1) of a row are adjacent: one 64-bit gather reads both
    const __m512i row0 = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), 0xFF, off, t.wd, 4);
    const __m512i row1 = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), 0xFF, _mm256_add_epi32(off, cols), t.wd, 4);
    const __m512d a = _mm512_maskz_cvtps_pd(0xFF, _mm256_castsi256_ps(_mm512_maskz_cvtepi64_epi32(0xFF, row0)));
    const __m512d b = _mm512_maskz_cvtps_pd(0xFF, _mm256_castsi256_ps(_mm512_maskz_cvtepi64_epi32(0xFF, _mm512_maskz_srli_epi64(0xFF, row0, 32))));
    const __m512d cc = _mm512_maskz_cvtps_pd(0xFF, _mm256_castsi256_ps(_mm512_maskz_cvtepi64_epi32(0xFF, row1)));
    const __m512d d = _mm512_maskz_cvtps_pd(0xFF, _mm256_castsi256_ps(_mm512_maskz_cvtepi64_epi32(0xFF, _mm512_maskz_srli_epi64(0xFF, row1, 32))));
    const __m512d gv = _mm512_sub_pd(one, fv), gu = _mm512_sub_pd(one, fu);
    const __m512d top = _mm512_add_pd(_mm512_mul_pd(gv, a), _mm512_mul_pd(fv, b));
    const __m512d bot = _mm512_add_pd(_mm512_mul_pd(gv, cc), _mm512_mul_pd(fv, d));
    const __m512d wd = _mm512_add_pd(_mm512_mul_pd(gu, top), _mm512_mul_pd(fu, bot));
    const __m512d value = _mm512_mul_pd(_mm512_mul_pd(s, s), wd);
    const __mmask8 better = _mm512_mask_cmp_pd_mask(live, value, best, _CMP_LT_OQ);
    best = _mm512_mask_mov_pd(best, better, value);
    best_k = _mm512_mask_mov_pd(best_k, better, _mm512_add_pd(_mm512_set1_pd(static_cast<double>(k)), iota));
  }
  double cost_l[8], k_l[8];
  _mm512_storeu_pd(cost_l, best);
  _mm512_storeu_pd(k_l, best_k);
  return detail::first_least(cost_l, k_l, 8, cost);
}
}  // namespace avx512

#endif  // BUDGETSVM_SIMD_X86

using LeastMergeCost = Index (*)(const double* w, double wa, const double* kappa, const Index* idx, Index q,
                                 const WdGrid& t, double* cost);

/// The cost pass for an instruction set (SSE2: the scalar loop).
inline LeastMergeCost least_merge_cost_for(Level level) {
#if defined(BUDGETSVM_SIMD_X86)
  if (level == Level::avx512) return &avx512::least_merge_cost;
  if (level == Level::avx2) return &avx2::least_merge_cost;
#endif
  (void)level;
  return &scalar::least_merge_cost;
}

}  // namespace budgetsvm::simd
