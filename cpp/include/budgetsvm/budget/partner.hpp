// The merge partner search of lookup-wd merging (maintenance.hpp) in one
// vectorised pass over the budget.
//
// The problem: for the support vector a to merge away (binary model, stored
// coefficients w) and every candidate j,
//   cost_j = (w_a + w_j)^2 WD~(w_a / (w_a + w_j), kappa_aj),
// WD~ the lookup table's bilinear interpolation (merge.hpp), +inf for j = a
// and for candidates whose coefficient does not have a's sign. One merge
// ranks all B candidates; costed one at a time, each pays a division, a
// square root, four table reads at random places and a hard-to-predict
// branch on the sign.
//
// The algorithm: AVX2 and AVX-512 cost 4 or 8 candidates at once, with the
// table's nodes gathered (lanes of the other sign are costed at a harmless
// stand-in and then set to +inf). They repeat the scalar arithmetic
// operation by operation, without fused multiply-adds (which would round
// differently), so on a default build every level gives the scalar costs
// bit for bit, and hence the same partner. Below AVX2 (no gathers) the
// costs come from LookupTable::wd one at a time.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "../core/simd.hpp"
#include "merge.hpp"

#if defined(BUDGETSVM_SIMD_X86) && defined(__GNUC__) && !defined(__clang__)
// GCC would fuse a multiply and an add where the target has FMA; Clang does
// not fuse across intrinsics.
#define BUDGETSVM_NO_FMA_CONTRACTION __attribute__((optimize("fp-contract=off")))
#else
#define BUDGETSVM_NO_FMA_CONTRACTION
#endif

namespace budgetsvm::merge::partner {

/// cost_j of one candidate, the scalar reference (the ranking of
/// maintenance.hpp's exhaustive loop).
inline double wd_cost(const LookupTable& table, double wa, double wj, double kappa) {
  if (!(wj * wa > 0.0)) return std::numeric_limits<double>::infinity();
  const double s = wa + wj;
  return s * s * table.wd(wa / s, std::clamp(kappa, 0.0, 1.0));
}

namespace scalar {
inline void wd_costs(const LookupTable& table, double wa, const double* w, const double* kappa, Index from,
                     Index n, double* cost) {
  for (Index j = from; j < n; ++j) cost[j] = wd_cost(table, wa, w[j], kappa[j]);
}
}  // namespace scalar

#if defined(BUDGETSVM_SIMD_X86)
namespace avx2 {

/// std::clamp(v, lo, hi) lane by lane: v < lo ? lo : (hi < v ? hi : v).
BUDGETSVM_TARGET("avx2") inline __m256d clamp(__m256d v, __m256d lo, __m256d hi) {
  v = _mm256_blendv_pd(v, hi, _mm256_cmp_pd(hi, v, _CMP_LT_OQ));
  return _mm256_blendv_pd(v, lo, _mm256_cmp_pd(v, lo, _CMP_LT_OQ));
}

BUDGETSVM_TARGET("avx2") BUDGETSVM_NO_FMA_CONTRACTION
inline Index wd_costs(const LookupTable& table, double wa, const double* w, const double* kappa, Index n,
                      double* cost) {
  const int half = table.grid() / 2, grid = table.grid(), cols = grid + 1;
  const float* nodes = table.wd_nodes();
  const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0), two = _mm256_set1_pd(2.0);
  const __m256d mid = _mm256_set1_pd(0.5), va = _mm256_set1_pd(wa), inf = _mm256_set1_pd(std::numeric_limits<double>::infinity());
  const __m256d halfd = _mm256_set1_pd(half), gridd = _mm256_set1_pd(grid);
  const __m128i imax = _mm_set1_epi32(half - 1), jmax = _mm_set1_epi32(grid - 1), izero = _mm_setzero_si128();
  const __m128i vcols = _mm_set1_epi32(cols);
  Index j = 0;
  for (; j + 4 <= n; j += 4) {
    const __m256d wj = _mm256_loadu_pd(w + j);
    const __m256d same = _mm256_cmp_pd(_mm256_mul_pd(wj, va), zero, _CMP_GT_OQ);
    const __m256d s = _mm256_blendv_pd(one, _mm256_add_pd(va, wj), same);
    __m256d m = _mm256_div_pd(va, s);
    m = _mm256_blendv_pd(m, _mm256_sub_pd(one, m), _mm256_cmp_pd(m, mid, _CMP_GT_OQ));
    m = clamp(m, zero, mid);
    const __m256d k = clamp(_mm256_loadu_pd(kappa + j), zero, one);
    const __m256d r = _mm256_max_pd(_mm256_sub_pd(one, _mm256_mul_pd(two, m)), zero);
    const __m256d u = _mm256_mul_pd(_mm256_sub_pd(one, _mm256_sqrt_pd(r)), halfd);
    const __m256d v = _mm256_mul_pd(k, gridd);
    const __m128i i = _mm_max_epi32(_mm_min_epi32(_mm256_cvttpd_epi32(u), imax), izero);
    const __m128i c = _mm_max_epi32(_mm_min_epi32(_mm256_cvttpd_epi32(v), jmax), izero);
    const __m256d fu = _mm256_sub_pd(u, _mm256_cvtepi32_pd(i)), fv = _mm256_sub_pd(v, _mm256_cvtepi32_pd(c));
    const __m128i at = _mm_add_epi32(_mm_mullo_epi32(i, vcols), c);
    const __m256d n00 = _mm256_cvtps_pd(_mm_i32gather_ps(nodes, at, 4));
    const __m256d n01 = _mm256_cvtps_pd(_mm_i32gather_ps(nodes + 1, at, 4));
    const __m256d n10 = _mm256_cvtps_pd(_mm_i32gather_ps(nodes + cols, at, 4));
    const __m256d n11 = _mm256_cvtps_pd(_mm_i32gather_ps(nodes + cols + 1, at, 4));
    const __m256d gv = _mm256_sub_pd(one, fv);
    const __m256d r0 = _mm256_add_pd(_mm256_mul_pd(gv, n00), _mm256_mul_pd(fv, n01));
    const __m256d r1 = _mm256_add_pd(_mm256_mul_pd(gv, n10), _mm256_mul_pd(fv, n11));
    const __m256d wd = _mm256_add_pd(_mm256_mul_pd(_mm256_sub_pd(one, fu), r0), _mm256_mul_pd(fu, r1));
    _mm256_storeu_pd(cost + j, _mm256_blendv_pd(inf, _mm256_mul_pd(_mm256_mul_pd(s, s), wd), same));
  }
  return j;
}

}  // namespace avx2

namespace avx512 {

BUDGETSVM_TARGET("avx512f") inline __m512d clamp(__m512d v, __m512d lo, __m512d hi) {
  v = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(hi, v, _CMP_LT_OQ), v, hi);
  return _mm512_mask_blend_pd(_mm512_cmp_pd_mask(v, lo, _CMP_LT_OQ), v, lo);
}

BUDGETSVM_TARGET("avx512f") BUDGETSVM_NO_FMA_CONTRACTION
inline Index wd_costs(const LookupTable& table, double wa, const double* w, const double* kappa, Index n,
                      double* cost) {
  const int half = table.grid() / 2, grid = table.grid(), cols = grid + 1;
  const float* nodes = table.wd_nodes();
  const __m512d zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1.0), two = _mm512_set1_pd(2.0);
  const __m512d mid = _mm512_set1_pd(0.5), va = _mm512_set1_pd(wa), inf = _mm512_set1_pd(std::numeric_limits<double>::infinity());
  const __m512d halfd = _mm512_set1_pd(half), gridd = _mm512_set1_pd(grid);
  const __m256i imax = _mm256_set1_epi32(half - 1), jmax = _mm256_set1_epi32(grid - 1);
  const __m256i izero = _mm256_setzero_si256(), vcols = _mm256_set1_epi32(cols);
  const __mmask8 all = 0xFF;  // maskz forms: GCC 12 warns on the unmasked ones' undefined source
  Index j = 0;
  for (; j + 8 <= n; j += 8) {
    const __m512d wj = _mm512_loadu_pd(w + j);
    const __mmask8 same = _mm512_cmp_pd_mask(_mm512_mul_pd(wj, va), zero, _CMP_GT_OQ);
    const __m512d s = _mm512_mask_blend_pd(same, one, _mm512_add_pd(va, wj));
    __m512d m = _mm512_div_pd(va, s);
    m = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(m, mid, _CMP_GT_OQ), m, _mm512_sub_pd(one, m));
    m = clamp(m, zero, mid);
    const __m512d k = clamp(_mm512_loadu_pd(kappa + j), zero, one);
    const __m512d r = _mm512_maskz_max_pd(all, _mm512_sub_pd(one, _mm512_mul_pd(two, m)), zero);
    const __m512d u = _mm512_mul_pd(_mm512_sub_pd(one, _mm512_maskz_sqrt_pd(all, r)), halfd);
    const __m512d v = _mm512_mul_pd(k, gridd);
    const __m256i i = _mm256_max_epi32(_mm256_min_epi32(_mm512_maskz_cvttpd_epi32(all, u), imax), izero);
    const __m256i c = _mm256_max_epi32(_mm256_min_epi32(_mm512_maskz_cvttpd_epi32(all, v), jmax), izero);
    const __m512d fu = _mm512_sub_pd(u, _mm512_maskz_cvtepi32_pd(all, i)), fv = _mm512_sub_pd(v, _mm512_maskz_cvtepi32_pd(all, c));
    const __m256i at = _mm256_add_epi32(_mm256_mullo_epi32(i, vcols), c);
    const __m512d n00 = _mm512_maskz_cvtps_pd(all, _mm256_i32gather_ps(nodes, at, 4));
    const __m512d n01 = _mm512_maskz_cvtps_pd(all, _mm256_i32gather_ps(nodes + 1, at, 4));
    const __m512d n10 = _mm512_maskz_cvtps_pd(all, _mm256_i32gather_ps(nodes + cols, at, 4));
    const __m512d n11 = _mm512_maskz_cvtps_pd(all, _mm256_i32gather_ps(nodes + cols + 1, at, 4));
    const __m512d gv = _mm512_sub_pd(one, fv);
    const __m512d r0 = _mm512_add_pd(_mm512_mul_pd(gv, n00), _mm512_mul_pd(fv, n01));
    const __m512d r1 = _mm512_add_pd(_mm512_mul_pd(gv, n10), _mm512_mul_pd(fv, n11));
    const __m512d wd = _mm512_add_pd(_mm512_mul_pd(_mm512_sub_pd(one, fu), r0), _mm512_mul_pd(fu, r1));
    _mm512_storeu_pd(cost + j, _mm512_mask_blend_pd(same, inf, _mm512_mul_pd(_mm512_mul_pd(s, s), wd)));
  }
  return j;
}

}  // namespace avx512
#endif

/// cost[j] for j < n (see the top of this file), cost[a] = +inf; `level`
/// picks the code (at most the CPU's, simd.hpp).
inline void wd_costs(simd::Level level, const LookupTable& table, Index a, const double* w, const double* kappa,
                     Index n, double* cost) {
  const double wa = w[a];
#if defined(BUDGETSVM_SIMD_X86)
  // The vector code leaves the last n % 4 or n % 8 candidates to the scalar
  // code, here, outside the target functions: inlined into them, the scalar
  // arithmetic could be fused into multiply-adds.
  Index done = 0;
  if (level == simd::Level::avx512)
    done = avx512::wd_costs(table, wa, w, kappa, n, cost);
  else if (level == simd::Level::avx2)
    done = avx2::wd_costs(table, wa, w, kappa, n, cost);
  scalar::wd_costs(table, wa, w, kappa, done, n, cost);
#else
  (void)level;
  scalar::wd_costs(table, wa, w, kappa, 0, n, cost);
#endif
  cost[a] = std::numeric_limits<double>::infinity();
}

/// The first index of the smallest cost below +inf, or -1.
inline Index first_smallest(const double* cost, Index n) {
  Index best = -1;
  double best_cost = std::numeric_limits<double>::infinity();
  for (Index j = 0; j < n; ++j)
    if (cost[j] < best_cost) best_cost = cost[j], best = j;
  return best;
}

}  // namespace budgetsvm::merge::partner
