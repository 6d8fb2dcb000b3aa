// Inner loops of the SMO steps that solve ALFPGM's working-set sub-problem
// (exact/subproblem_smo.hpp), at each instruction set of simd.hpp. The
// sub-problem has m = 2p variables (64 by default) and a dense m x m Q;
// each step reads every variable twice, so the loops are short and run
// hundreds of times per sub-problem, on the calling thread while the others
// wait (docs/exact.md gives the measurements):
//
//   smo_pair:   i = the first t of largest q_t = -y_t G_t over I_up
//               (y_t > 0 ? a_t < u_t : a_t > 0); then, over I_low
//               (y_t > 0 ? a_t > 0 : a_t < u_t), q_min = min q_t and j =
//               the first t of largest gain b^2 / c with b = q_i - q_t > 0,
//               c = (Q_ii + Q_tt) - 2 y_i y_t Q_it (tau where <= 0);
//   smo_update: G_t += Q_it d_i + Q_jt d_j.
//
// Same bits at every level: the lanes compute each value with the scalar
// loop's operations in its order (no fused multiply-add; the labels y_t are
// exactly +1 or -1, so the lanes' 0 - y_t is the scalar -y_t), keep the first
// of equal values per lane, and the lanes' winners are compared by value,
// then index; a sub-problem's steps, hence the fit, do not depend on the
// instruction set.
#pragma once

#include <algorithm>
#include <limits>

#include "../core/simd.hpp"

namespace budgetsvm::simd {

/// A step's pair: i and j (-1: none), q_i and q_min over I_low (+inf: empty).
struct SmoPair {
  Index i = -1, j = -1;
  double q_max = -std::numeric_limits<double>::infinity();
  double q_min = std::numeric_limits<double>::infinity();
};

namespace scalar {

inline SmoPair smo_pair(const double* y, const double* a, const double* u, const double* G, const double* Q,
                        const double* diag, Index m, double tau) {
  SmoPair p;
  for (Index t = 0; t < m; ++t) {
    const bool up = y[t] > 0 ? a[t] < u[t] : a[t] > 0.0;
    const double q = -y[t] * G[t];
    if (up && q > p.q_max) {
      p.q_max = q;
      p.i = t;
    }
  }
  if (p.i < 0) return p;
  const double* Qi = Q + p.i * m;  // column i = row i (Q is symmetric)
  const double yi = y[p.i], Qii = diag[p.i];
  double best = -std::numeric_limits<double>::infinity();
  for (Index t = 0; t < m; ++t) {
    const bool low = y[t] > 0 ? a[t] > 0.0 : a[t] < u[t];
    if (!low) continue;
    const double q = -y[t] * G[t];
    p.q_min = std::min(p.q_min, q);
    const double b = p.q_max - q;
    if (!(b > 0.0)) continue;
    const double c = (Qii + diag[t]) - 2.0 * (yi * y[t] * Qi[t]);
    const double gain = b * b / (c > 0.0 ? c : tau);
    if (gain > best) {
      best = gain;
      p.j = t;
    }
  }
  return p;
}

inline void smo_update(double* G, const double* Qi, const double* Qj, double di, double dj, Index m) {
  for (Index t = 0; t < m; ++t) G[t] += Qi[t] * di + Qj[t] * dj;
}

}  // namespace scalar

#if defined(BUDGETSVM_SIMD_X86)
namespace avx2 {

// The first index of the largest value over 4 lanes (each lane: its best
// value and the index, as a double, where it first occurred; -1: none).
BUDGETSVM_TARGET("avx2")
inline void smo_first_of_largest(__m256d value, __m256d index, double& best, Index& at) {
  double v[4], k[4];
  _mm256_storeu_pd(v, value);
  _mm256_storeu_pd(k, index);
  for (int l = 0; l < 4; ++l) {
    if (k[l] < 0.0) continue;
    const Index r = static_cast<Index>(k[l]);
    if (v[l] > best || (v[l] == best && (at < 0 || r < at))) {
      best = v[l];
      at = r;
    }
  }
}

// Lanes t..t+3 of an array, 0 past m.
BUDGETSVM_TARGET("avx2")
inline __m256d smo_lanes(const double* x, Index t, Index m) {
  if (m - t >= 4) return _mm256_loadu_pd(x + t);
  double tail[4] = {0.0, 0.0, 0.0, 0.0};
  for (Index k = t; k < m; ++k) tail[k - t] = x[k];
  return _mm256_loadu_pd(tail);
}

// Lanes t..t+3 of a step: their index, y, q = -y G and membership of I_up
// and I_low (all bits set where a member; lanes past m are in neither).
struct SmoLanes {
  __m256d at, y, q, up, low;
};

BUDGETSVM_TARGET("avx2")
inline SmoLanes smo_load(const double* y, const double* a, const double* u, const double* G, Index t, Index m) {
  const __m256d zero = _mm256_setzero_pd();
  SmoLanes l;
  l.at = _mm256_add_pd(_mm256_set1_pd(static_cast<double>(t)), _mm256_setr_pd(0.0, 1.0, 2.0, 3.0));
  const __m256d live = _mm256_cmp_pd(l.at, _mm256_set1_pd(static_cast<double>(m)), _CMP_LT_OQ);
  l.y = smo_lanes(y, t, m);
  const __m256d av = smo_lanes(a, t, m);
  const __m256d pos = _mm256_cmp_pd(l.y, zero, _CMP_GT_OQ);
  const __m256d above_0 = _mm256_cmp_pd(av, zero, _CMP_GT_OQ);
  const __m256d below_u = _mm256_cmp_pd(av, smo_lanes(u, t, m), _CMP_LT_OQ);
  l.up = _mm256_and_pd(live, _mm256_blendv_pd(above_0, below_u, pos));
  l.low = _mm256_and_pd(live, _mm256_blendv_pd(below_u, above_0, pos));
  l.q = _mm256_mul_pd(_mm256_sub_pd(zero, l.y), smo_lanes(G, t, m));
  return l;
}

BUDGETSVM_TARGET("avx2")
inline SmoPair smo_pair(const double* y, const double* a, const double* u, const double* G, const double* Q,
                        const double* diag, Index m, double tau) {
  const __m256d zero = _mm256_setzero_pd(), ninf = _mm256_set1_pd(-std::numeric_limits<double>::infinity());
  const __m256d none = _mm256_set1_pd(-1.0);
  SmoPair p;
  __m256d best_q = ninf, best_i = none;
  for (Index t = 0; t < m; t += 4) {
    const SmoLanes l = smo_load(y, a, u, G, t, m);
    const __m256d better = _mm256_and_pd(l.up, _mm256_cmp_pd(l.q, best_q, _CMP_GT_OQ));
    best_q = _mm256_blendv_pd(best_q, l.q, better);
    best_i = _mm256_blendv_pd(best_i, l.at, better);
  }
  smo_first_of_largest(best_q, best_i, p.q_max, p.i);
  if (p.i < 0) return p;
  const double* Qi = Q + p.i * m;
  const __m256d qmax = _mm256_set1_pd(p.q_max), yi = _mm256_set1_pd(y[p.i]), Qii = _mm256_set1_pd(diag[p.i]);
  const __m256d two = _mm256_set1_pd(2.0), vtau = _mm256_set1_pd(tau);
  __m256d qmin = _mm256_set1_pd(std::numeric_limits<double>::infinity()), best_g = ninf, best_j = none;
  for (Index t = 0; t < m; t += 4) {
    const SmoLanes l = smo_load(y, a, u, G, t, m);
    qmin = _mm256_blendv_pd(qmin, _mm256_min_pd(qmin, l.q), l.low);
    const __m256d b = _mm256_sub_pd(qmax, l.q);
    const __m256d pays = _mm256_and_pd(l.low, _mm256_cmp_pd(b, zero, _CMP_GT_OQ));
    const __m256d kit = _mm256_mul_pd(_mm256_mul_pd(yi, l.y), smo_lanes(Qi, t, m));
    __m256d c = _mm256_sub_pd(_mm256_add_pd(Qii, smo_lanes(diag, t, m)), _mm256_mul_pd(two, kit));
    c = _mm256_blendv_pd(vtau, c, _mm256_cmp_pd(c, zero, _CMP_GT_OQ));
    const __m256d gain = _mm256_div_pd(_mm256_mul_pd(b, b), c);
    const __m256d better = _mm256_and_pd(pays, _mm256_cmp_pd(gain, best_g, _CMP_GT_OQ));
    best_g = _mm256_blendv_pd(best_g, gain, better);
    best_j = _mm256_blendv_pd(best_j, l.at, better);
  }
  double best = -std::numeric_limits<double>::infinity();
  smo_first_of_largest(best_g, best_j, best, p.j);
  double lanes[4];
  _mm256_storeu_pd(lanes, qmin);
  for (const double q : lanes) p.q_min = std::min(p.q_min, q);
  return p;
}

BUDGETSVM_TARGET("avx2")
inline void smo_update(double* G, const double* Qi, const double* Qj, double di, double dj, Index m) {
  const __m256d vi = _mm256_set1_pd(di), vj = _mm256_set1_pd(dj);
  Index t = 0;
  for (; t + 4 <= m; t += 4) {
    const __m256d sum = _mm256_add_pd(_mm256_mul_pd(_mm256_loadu_pd(Qi + t), vi), _mm256_mul_pd(_mm256_loadu_pd(Qj + t), vj));
    _mm256_storeu_pd(G + t, _mm256_add_pd(_mm256_loadu_pd(G + t), sum));
  }
  scalar::smo_update(G + t, Qi + t, Qj + t, di, dj, m - t);
}

}  // namespace avx2

namespace avx512 {

// The first index of the largest value over 8 lanes (each lane: its best
// value and the index where it first occurred; -1: none).
BUDGETSVM_TARGET("avx512f")
inline void smo_first_of_largest(__m512d value, __m512i index, double& best, Index& at) {
  alignas(64) double v[8];
  alignas(64) long long k[8];
  _mm512_store_pd(v, value);
  _mm512_store_si512(reinterpret_cast<__m512i*>(k), index);
  for (int l = 0; l < 8; ++l) {
    if (k[l] < 0) continue;
    if (v[l] > best || (v[l] == best && (at < 0 || k[l] < at))) {
      best = v[l];
      at = static_cast<Index>(k[l]);
    }
  }
}

// Lanes t..t+7 of a step: their index, y, q = -y G, and the masks of the
// lanes in I_up and in I_low (lanes past m are in neither).
struct SmoLanes {
  __m512i at;
  __m512d y, q;
  __mmask8 live, up, low;
};

BUDGETSVM_TARGET("avx512f")
inline SmoLanes smo_load(const double* y, const double* a, const double* u, const double* G, Index t, Index m) {
  const __m512d zero = _mm512_setzero_pd();
  SmoLanes l;
  l.at = _mm512_add_epi64(_mm512_set1_epi64(t), _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7));
  l.live = static_cast<__mmask8>(m - t >= 8 ? 0xFF : (1u << (m - t)) - 1u);
  l.y = _mm512_maskz_loadu_pd(l.live, y + t);
  const __m512d av = _mm512_maskz_loadu_pd(l.live, a + t);
  const __mmask8 pos = _mm512_cmp_pd_mask(l.y, zero, _CMP_GT_OQ);
  const __mmask8 above_0 = _mm512_cmp_pd_mask(av, zero, _CMP_GT_OQ);
  const __mmask8 below_u = _mm512_cmp_pd_mask(av, _mm512_maskz_loadu_pd(l.live, u + t), _CMP_LT_OQ);
  l.up = static_cast<__mmask8>(l.live & ((pos & below_u) | (~pos & above_0)));
  l.low = static_cast<__mmask8>(l.live & ((pos & above_0) | (~pos & below_u)));
  l.q = _mm512_mul_pd(_mm512_sub_pd(zero, l.y), _mm512_maskz_loadu_pd(l.live, G + t));
  return l;
}

BUDGETSVM_TARGET("avx512f")
inline SmoPair smo_pair(const double* y, const double* a, const double* u, const double* G, const double* Q,
                        const double* diag, Index m, double tau) {
  static_assert(sizeof(Index) == sizeof(long long), "lane indices are 64-bit");
  const __m512d zero = _mm512_setzero_pd(), ninf = _mm512_set1_pd(-std::numeric_limits<double>::infinity());
  const __m512i none = _mm512_set1_epi64(-1);
  SmoPair p;
  // i: per lane the first largest q over I_up.
  __m512d best_q = ninf;
  __m512i best_i = none;
  for (Index t = 0; t < m; t += 8) {
    const SmoLanes l = smo_load(y, a, u, G, t, m);
    const __mmask8 better = _mm512_mask_cmp_pd_mask(l.up, l.q, best_q, _CMP_GT_OQ);
    best_q = _mm512_mask_mov_pd(best_q, better, l.q);
    best_i = _mm512_mask_mov_epi64(best_i, better, l.at);
  }
  smo_first_of_largest(best_q, best_i, p.q_max, p.i);
  if (p.i < 0) return p;
  // j: per lane the first largest gain over I_low with b > 0; q_min over I_low.
  const double* Qi = Q + p.i * m;
  const __m512d qmax = _mm512_set1_pd(p.q_max), yi = _mm512_set1_pd(y[p.i]), Qii = _mm512_set1_pd(diag[p.i]);
  const __m512d two = _mm512_set1_pd(2.0), vtau = _mm512_set1_pd(tau);
  __m512d qmin = _mm512_set1_pd(std::numeric_limits<double>::infinity());
  __m512d best_g = ninf;
  __m512i best_j = none;
  for (Index t = 0; t < m; t += 8) {
    const SmoLanes l = smo_load(y, a, u, G, t, m);
    qmin = _mm512_mask_min_pd(qmin, l.low, qmin, l.q);
    const __m512d b = _mm512_sub_pd(qmax, l.q);
    const __mmask8 pays = _mm512_mask_cmp_pd_mask(l.low, b, zero, _CMP_GT_OQ);
    const __m512d kit = _mm512_mul_pd(_mm512_mul_pd(yi, l.y), _mm512_maskz_loadu_pd(l.live, Qi + t));
    __m512d c = _mm512_sub_pd(_mm512_add_pd(Qii, _mm512_maskz_loadu_pd(l.live, diag + t)), _mm512_mul_pd(two, kit));
    c = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(c, zero, _CMP_GT_OQ), vtau, c);
    const __m512d gain = _mm512_maskz_div_pd(pays, _mm512_mul_pd(b, b), c);
    const __mmask8 better = _mm512_mask_cmp_pd_mask(pays, gain, best_g, _CMP_GT_OQ);
    best_g = _mm512_mask_mov_pd(best_g, better, gain);
    best_j = _mm512_mask_mov_epi64(best_j, better, l.at);
  }
  double best = -std::numeric_limits<double>::infinity();
  smo_first_of_largest(best_g, best_j, best, p.j);
  alignas(64) double lanes[8];
  _mm512_store_pd(lanes, qmin);
  for (const double q : lanes) p.q_min = std::min(p.q_min, q);
  return p;
}

BUDGETSVM_TARGET("avx512f")
inline void smo_update(double* G, const double* Qi, const double* Qj, double di, double dj, Index m) {
  const __m512d vi = _mm512_set1_pd(di), vj = _mm512_set1_pd(dj);
  for (Index t = 0; t < m; t += 8) {
    const __mmask8 live = static_cast<__mmask8>(m - t >= 8 ? 0xFF : (1u << (m - t)) - 1u);
    const __m512d sum = _mm512_add_pd(_mm512_mul_pd(_mm512_maskz_loadu_pd(live, Qi + t), vi),
                                      _mm512_mul_pd(_mm512_maskz_loadu_pd(live, Qj + t), vj));
    _mm512_mask_storeu_pd(G + t, live, _mm512_add_pd(_mm512_maskz_loadu_pd(live, G + t), sum));
  }
}

}  // namespace avx512
#endif  // BUDGETSVM_SIMD_X86

using SmoPairKernel = SmoPair (*)(const double* y, const double* a, const double* u, const double* G,
                                  const double* Q, const double* diag, Index m, double tau);
using SmoUpdateKernel = void (*)(double* G, const double* Qi, const double* Qj, double di, double dj, Index m);

/// The sub-problem's pair selection for an instruction set (below AVX2: the
/// scalar loop).
inline SmoPairKernel smo_pair_for(Level level) {
#if defined(BUDGETSVM_SIMD_X86)
  if (level == Level::avx512) return &avx512::smo_pair;
  if (level == Level::avx2) return &avx2::smo_pair;
#endif
  (void)level;
  return &scalar::smo_pair;
}

/// The sub-problem's gradient update for an instruction set (below AVX2:
/// the scalar loop, which the compiler vectorises for the baseline).
inline SmoUpdateKernel smo_update_for(Level level) {
#if defined(BUDGETSVM_SIMD_X86)
  if (level == Level::avx512) return &avx512::smo_update;
  if (level == Level::avx2) return &avx2::smo_update;
#endif
  (void)level;
  return &scalar::smo_update;
}

}  // namespace budgetsvm::simd
