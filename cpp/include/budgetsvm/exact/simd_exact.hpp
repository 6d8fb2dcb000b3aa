// Inner loops of the exact solvers (exact/), at each instruction set of
// simd.hpp:
//
//   add_scaled_columns:  sum[k] += sum_c coef[c] col_c[k], k < len, for m
//                        float kernel columns (given by pointers) and
//                        double coefficients: the gradient update after
//                        every move of the dual variables (dual_state.hpp)
//   rbf_column_to_float: out[j] = (float) exp(-gamma max(0, xnorm + znorm[j]
//                        - 2 (dots[j] - shift))): a block of dot products
//                        to cached kernel values in one pass, where the
//                        kernel sources made three (the centre's shift,
//                        rbf_from_dots, the conversion to float)
//   best_partner:        the first r < n of largest gain b_r^2 / a_r > 0,
//                        b_r = q_i - q[r] > min_b, a_r = K_ii + diag[r] -
//                        2 K_i[place[r]] (tau where <= 0): ALFPGM's j
//                        search for one i over its low candidates (wss.hpp),
//                        the column read through the places (a gather)
//   best_two_partners:   best_partner's r and the first of largest gain
//                        among the others (n when none): the j search of
//                        a pair whose predecessor's j is not known yet
//
// The baseline build converts, multiplies and divides one or two doubles per
// instruction in these loops; AVX2 and AVX-512 do 4 / 8.
//
// Same bits at every level: add_scaled_columns adds in one order, four
// columns per pass, sum[k] += (a0 c0[k] + a1 c1[k]) + (a2 c2[k] + a3 c3[k]),
// then the columns left over one by one; best_partner computes each gain
// with the operations of exact::pair_gain in its order; neither fuses a
// multiply and an add, so neither makes a fit depend on the instruction
// set. rbf_column_to_float gives, at each level, the bits of that level's
// rbf_from_dots (simd.hpp) on dots - shift, rounded to float: the columns
// do not change, only the passes over them (the kernel values themselves
// differ between levels in their last bits, as rbf_from_dots's do; SSE2
// and scalar code make the three passes; rbf_column_to_float_for returns
// no kernel there).
#pragma once

#include <cstddef>
#include <utility>

#include "../core/simd.hpp"

namespace budgetsvm::simd {

namespace scalar {
inline void add_scaled_columns(const float* const* cols, const double* coef, std::size_t m, Index offset,
                               Index len, double* sum) {
  std::size_t c = 0;
  for (; c + 4 <= m; c += 4) {
    const float *c0 = cols[c] + offset, *c1 = cols[c + 1] + offset, *c2 = cols[c + 2] + offset,
                *c3 = cols[c + 3] + offset;
    const double a0 = coef[c], a1 = coef[c + 1], a2 = coef[c + 2], a3 = coef[c + 3];
    for (Index k = 0; k < len; ++k)
      sum[k] += (a0 * static_cast<double>(c0[k]) + a1 * static_cast<double>(c1[k])) +
                (a2 * static_cast<double>(c2[k]) + a3 * static_cast<double>(c3[k]));
  }
  for (; c < m; ++c) {
    const float* col = cols[c] + offset;
    const double a = coef[c];
    for (Index k = 0; k < len; ++k) sum[k] += a * static_cast<double>(col[k]);
  }
}

/// The gain b^2 / a of pairing i (q_i, K_ii) with t (q_t, K_tt, K_it),
/// b = q_i - q_t, a = K_ii + K_tt - 2 K_it (tau where <= 0); 0 when
/// b <= min_b. The one scalar formula (exact::pair_gain is this one).
inline double partner_gain(double qi, double Kii, double qt, double Ktt, double Kit, double min_b, double tau) {
  const double b = qi - qt;
  const double a = (Kii + Ktt) - 2.0 * Kit;
  return b > min_b ? b * b / (a > 0.0 ? a : tau) : 0.0;
}

inline Index best_partner(const double* q, const double* diag, const float* Ki, const Index* place, Index n, double qi,
                          double Kii, double min_b, double tau) {
  double best = 0.0;
  Index found = n;
  for (Index r = 0; r < n; ++r) {
    const double gain = partner_gain(qi, Kii, q[r], diag[r], static_cast<double>(Ki[place[r]]), min_b, tau);
    if (gain > best) {
      best = gain;
      found = r;
    }
  }
  return found;
}

/// Keeps (gain, r) in a top-2 (best, second) under the order: larger gain
/// first, then smaller r; gains <= 0 never enter. r must exceed every r
/// offered to this pair before (each lane offers its candidates in order).
struct TopTwo {
  double g1 = 0.0, g2 = 0.0;
  Index r1 = -1, r2 = -1;
  void offer(double gain, Index r) {
    if (gain > g1) {
      g2 = g1, r2 = r1, g1 = gain, r1 = r;
    } else if (gain > g2) {
      g2 = gain, r2 = r;
    }
  }
};

inline std::pair<Index, Index> best_two_partners(const double* q, const double* diag, const float* Ki,
                                                 const Index* place, Index n, double qi, double Kii, double min_b,
                                                 double tau) {
  TopTwo top;
  for (Index r = 0; r < n; ++r)
    top.offer(partner_gain(qi, Kii, q[r], diag[r], static_cast<double>(Ki[place[r]]), min_b, tau), r);
  return {top.r1 < 0 ? n : top.r1, top.r2 < 0 ? n : top.r2};
}

/// rbf_column_to_float as the scalar level computes it (the SIMD levels'
/// last elements): rbf_from_dots on dots - shift, one element at a time.
inline void rbf_column_to_float(const double* dots, double shift, const double* znorm, double xnorm, double gamma,
                                Index n, float* out) {
  for (Index j = 0; j < n; ++j) {
    const double a = dots[j] - shift;
    double k = 0.0;
    rbf_from_dots(&a, znorm + j, xnorm, gamma, 1, &k);
    out[j] = static_cast<float>(k);
  }
}
}  // namespace scalar

namespace detail {
/// The first of the lanes' (best gain, index) pairs of largest gain above 0,
/// ties to the smaller index; n when no lane found a gain above 0.
inline Index first_largest(const double* gain, const double* index, int lanes, Index n) {
  double best = 0.0;
  Index found = n;
  for (int l = 0; l < lanes; ++l) {
    if (index[l] < 0.0) continue;
    const Index r = static_cast<Index>(index[l]);
    if (gain[l] > best || (gain[l] == best && found != n && r < found)) {
      best = gain[l];
      found = r;
    }
  }
  return found;
}

/// The first two of the lanes' top-2 entries (gain, index; index < 0: none)
/// under larger gain first, then smaller index; n where there are fewer.
inline std::pair<Index, Index> first_two_largest(const double* gain, const double* index, int entries, Index n) {
  Index r1 = n, r2 = n;
  double g1 = 0.0, g2 = 0.0;
  auto before = [&](double g, Index r, double gb, Index rb) { return rb == n || g > gb || (g == gb && r < rb); };
  for (int e = 0; e < entries; ++e) {
    if (index[e] < 0.0 || !(gain[e] > 0.0)) continue;
    const double g = gain[e];
    const Index r = static_cast<Index>(index[e]);
    if (before(g, r, g1, r1)) {
      g2 = g1, r2 = r1, g1 = g, r1 = r;
    } else if (before(g, r, g2, r2)) {
      g2 = g, r2 = r;
    }
  }
  return {r1, r2};
}
}  // namespace detail

#if defined(BUDGETSVM_SIMD_X86)

namespace avx2 {
BUDGETSVM_TARGET("avx2,fma")
inline void add_scaled_columns(const float* const* cols, const double* coef, std::size_t m, Index offset,
                               Index len, double* sum) {
  const Index full = len - len % 4;
  std::size_t c = 0;
  for (; c + 4 <= m; c += 4) {
    const float *c0 = cols[c] + offset, *c1 = cols[c + 1] + offset, *c2 = cols[c + 2] + offset,
                *c3 = cols[c + 3] + offset;
    const double a0 = coef[c], a1 = coef[c + 1], a2 = coef[c + 2], a3 = coef[c + 3];
    const __m256d v0 = _mm256_set1_pd(a0), v1 = _mm256_set1_pd(a1), v2 = _mm256_set1_pd(a2),
                  v3 = _mm256_set1_pd(a3);
    for (Index k = 0; k < full; k += 4) {
      const __m256d p = _mm256_add_pd(_mm256_mul_pd(v0, _mm256_cvtps_pd(_mm_loadu_ps(c0 + k))),
                                      _mm256_mul_pd(v1, _mm256_cvtps_pd(_mm_loadu_ps(c1 + k))));
      const __m256d q = _mm256_add_pd(_mm256_mul_pd(v2, _mm256_cvtps_pd(_mm_loadu_ps(c2 + k))),
                                      _mm256_mul_pd(v3, _mm256_cvtps_pd(_mm_loadu_ps(c3 + k))));
      _mm256_storeu_pd(sum + k, _mm256_add_pd(_mm256_loadu_pd(sum + k), _mm256_add_pd(p, q)));
    }
    for (Index k = full; k < len; ++k)
      sum[k] += (a0 * static_cast<double>(c0[k]) + a1 * static_cast<double>(c1[k])) +
                (a2 * static_cast<double>(c2[k]) + a3 * static_cast<double>(c3[k]));
  }
  for (; c < m; ++c) {
    const float* col = cols[c] + offset;
    const double a = coef[c];
    const __m256d v = _mm256_set1_pd(a);
    for (Index k = 0; k < full; k += 4)
      _mm256_storeu_pd(sum + k, _mm256_add_pd(_mm256_loadu_pd(sum + k),
                                              _mm256_mul_pd(v, _mm256_cvtps_pd(_mm_loadu_ps(col + k)))));
    for (Index k = full; k < len; ++k) sum[k] += a * static_cast<double>(col[k]);
  }
}

BUDGETSVM_TARGET("avx2,fma")
inline void rbf_column_to_float(const double* dots, double shift, const double* znorm, double xnorm, double gamma,
                                Index n, float* out) {
  const __m256d xn = _mm256_set1_pd(xnorm), ng = _mm256_set1_pd(-gamma), sh = _mm256_set1_pd(shift);
  const __m256d mtwo = _mm256_set1_pd(-2.0), zero = _mm256_setzero_pd();
  auto argument = [&](Index j) BUDGETSVM_TARGET("avx2,fma") {
    const __m256d a = _mm256_sub_pd(_mm256_loadu_pd(dots + j), sh);
    const __m256d d = _mm256_fmadd_pd(mtwo, a, _mm256_add_pd(xn, _mm256_loadu_pd(znorm + j)));
    return _mm256_mul_pd(ng, _mm256_max_pd(d, zero));
  };
  Index j = 0;
  for (; j + 16 <= n; j += 16) {  // four registers' exps interleaved (simd.hpp)
    __m256d v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = argument(j + 4 * i);
    exp_neg_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) _mm_storeu_ps(out + j + 4 * i, _mm256_cvtpd_ps(v[i]));
  }
  for (; j + 4 <= n; j += 4) _mm_storeu_ps(out + j, _mm256_cvtpd_ps(exp_neg(argument(j))));
  scalar::rbf_column_to_float(dots + j, shift, znorm + j, xnorm, gamma, n - j, out + j);
}

/// The gains of low candidates r..r+3 (partner_gain's operations in its
/// order; 0 where b <= min_b).
BUDGETSVM_TARGET("avx2,fma")
inline __m256d partner_gains(const double* q, const double* diag, const float* Ki, const Index* place, Index r,
                             double qi, double Kii, double min_b, double tau) {
  static_assert(sizeof(Index) == 8, "the gathers take 64-bit indices");
  const __m256d zero = _mm256_setzero_pd();
  const __m256i at = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(place + r));
  const __m256d kit = _mm256_cvtps_pd(_mm256_i64gather_ps(Ki, at, 4));
  const __m256d b = _mm256_sub_pd(_mm256_set1_pd(qi), _mm256_loadu_pd(q + r));
  __m256d a = _mm256_sub_pd(_mm256_add_pd(_mm256_set1_pd(Kii), _mm256_loadu_pd(diag + r)),
                            _mm256_mul_pd(_mm256_set1_pd(2.0), kit));
  a = _mm256_blendv_pd(_mm256_set1_pd(tau), a, _mm256_cmp_pd(a, zero, _CMP_GT_OQ));
  return _mm256_and_pd(_mm256_cmp_pd(b, _mm256_set1_pd(min_b), _CMP_GT_OQ), _mm256_div_pd(_mm256_mul_pd(b, b), a));
}

BUDGETSVM_TARGET("avx2,fma")
inline Index best_partner(const double* q, const double* diag, const float* Ki, const Index* place, Index n, double qi,
                          double Kii, double min_b, double tau) {
  const __m256d iota = _mm256_setr_pd(0.0, 1.0, 2.0, 3.0);
  __m256d best = _mm256_setzero_pd(), best_r = _mm256_set1_pd(-1.0);
  Index r = 0;
  for (; r + 4 <= n; r += 4) {
    const __m256d gain = partner_gains(q, diag, Ki, place, r, qi, Kii, min_b, tau);
    const __m256d better = _mm256_cmp_pd(gain, best, _CMP_GT_OQ);
    best = _mm256_blendv_pd(best, gain, better);
    best_r = _mm256_blendv_pd(best_r, _mm256_add_pd(_mm256_set1_pd(static_cast<double>(r)), iota), better);
  }
  double g[5], k[5];
  _mm256_storeu_pd(g, best);
  _mm256_storeu_pd(k, best_r);
  // the last few candidates as the scalar loop, as one more lane
  const Index tail = scalar::best_partner(q + r, diag + r, Ki, place + r, n - r, qi, Kii, min_b, tau);
  g[4] = 0.0;
  k[4] = -1.0;
  if (tail < n - r) {
    const Index t = r + tail;
    g[4] = scalar::partner_gain(qi, Kii, q[t], diag[t], static_cast<double>(Ki[place[t]]), min_b, tau);
    k[4] = static_cast<double>(t);
  }
  return detail::first_largest(g, k, 5, n);
}

BUDGETSVM_TARGET("avx2,fma")
inline std::pair<Index, Index> best_two_partners(const double* q, const double* diag, const float* Ki,
                                                 const Index* place, Index n, double qi, double Kii, double min_b,
                                                 double tau) {
  const __m256d iota = _mm256_setr_pd(0.0, 1.0, 2.0, 3.0);
  __m256d g1 = _mm256_setzero_pd(), r1 = _mm256_set1_pd(-1.0), g2 = g1, r2 = r1;
  Index r = 0;
  for (; r + 4 <= n; r += 4) {
    const __m256d gain = partner_gains(q, diag, Ki, place, r, qi, Kii, min_b, tau);
    const __m256d idx = _mm256_add_pd(_mm256_set1_pd(static_cast<double>(r)), iota);
    const __m256d first = _mm256_cmp_pd(gain, g1, _CMP_GT_OQ);
    const __m256d second = _mm256_cmp_pd(gain, g2, _CMP_GT_OQ);  // where not first: the new second
    g2 = _mm256_blendv_pd(_mm256_blendv_pd(g2, gain, second), g1, first);
    r2 = _mm256_blendv_pd(_mm256_blendv_pd(r2, idx, second), r1, first);
    g1 = _mm256_blendv_pd(g1, gain, first);
    r1 = _mm256_blendv_pd(r1, idx, first);
  }
  double g[10], k[10];
  _mm256_storeu_pd(g, g1);
  _mm256_storeu_pd(k, r1);
  _mm256_storeu_pd(g + 4, g2);
  _mm256_storeu_pd(k + 4, r2);
  // the last few candidates as the scalar loop, as two more entries
  const auto [t1, t2] = scalar::best_two_partners(q + r, diag + r, Ki, place + r, n - r, qi, Kii, min_b, tau);
  int entries = 8;
  for (const Index t : {t1, t2}) {
    if (t >= n - r) continue;
    g[entries] = scalar::partner_gain(qi, Kii, q[r + t], diag[r + t], static_cast<double>(Ki[place[r + t]]), min_b, tau);
    k[entries++] = static_cast<double>(r + t);
  }
  return detail::first_two_largest(g, k, entries, n);
}
}  // namespace avx2

namespace avx512 {
// Places k..k+count of a float column (count <= 8) as doubles; the lanes
// past count are not read and come out 0.
BUDGETSVM_TARGET("avx512f")
inline __m512d column_lanes(const float* col, Index k, int count) {
  if (count == 8) return _mm512_maskz_cvtps_pd(0xFF, _mm256_loadu_ps(col + k));
  const __m256i lanes = _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  return _mm512_maskz_cvtps_pd(0xFF, _mm256_maskload_ps(col + k, lanes));
}

BUDGETSVM_TARGET("avx512f")
inline void add_scaled_columns(const float* const* cols, const double* coef, std::size_t m, Index offset,
                               Index len, double* sum) {
  std::size_t c = 0;
  for (; c + 4 <= m; c += 4) {
    const float *c0 = cols[c] + offset, *c1 = cols[c + 1] + offset, *c2 = cols[c + 2] + offset,
                *c3 = cols[c + 3] + offset;
    const __m512d v0 = _mm512_set1_pd(coef[c]), v1 = _mm512_set1_pd(coef[c + 1]),
                  v2 = _mm512_set1_pd(coef[c + 2]), v3 = _mm512_set1_pd(coef[c + 3]);
    for (Index k = 0; k < len; k += 8) {
      const int count = len - k >= 8 ? 8 : static_cast<int>(len - k);
      const __mmask8 live = static_cast<__mmask8>((1u << count) - 1u);
      const __m512d p = _mm512_add_pd(_mm512_mul_pd(v0, column_lanes(c0, k, count)),
                                      _mm512_mul_pd(v1, column_lanes(c1, k, count)));
      const __m512d q = _mm512_add_pd(_mm512_mul_pd(v2, column_lanes(c2, k, count)),
                                      _mm512_mul_pd(v3, column_lanes(c3, k, count)));
      _mm512_mask_storeu_pd(sum + k, live, _mm512_add_pd(_mm512_maskz_loadu_pd(live, sum + k), _mm512_add_pd(p, q)));
    }
  }
  for (; c < m; ++c) {
    const float* col = cols[c] + offset;
    const __m512d v = _mm512_set1_pd(coef[c]);
    for (Index k = 0; k < len; k += 8) {
      const int count = len - k >= 8 ? 8 : static_cast<int>(len - k);
      const __mmask8 live = static_cast<__mmask8>((1u << count) - 1u);
      _mm512_mask_storeu_pd(sum + k, live,
                            _mm512_add_pd(_mm512_maskz_loadu_pd(live, sum + k), _mm512_mul_pd(v, column_lanes(col, k, count))));
    }
  }
}

BUDGETSVM_TARGET("avx512f")
inline void rbf_column_to_float(const double* dots, double shift, const double* znorm, double xnorm, double gamma,
                                Index n, float* out) {
  const __m512d xn = _mm512_set1_pd(xnorm), ng = _mm512_set1_pd(-gamma), sh = _mm512_set1_pd(shift);
  const __m512d mtwo = _mm512_set1_pd(-2.0), zero = _mm512_setzero_pd();
  auto argument = [&](Index j) BUDGETSVM_TARGET("avx512f") {
    const __m512d a = _mm512_sub_pd(_mm512_loadu_pd(dots + j), sh);
    const __m512d d = _mm512_fmadd_pd(mtwo, a, _mm512_add_pd(xn, _mm512_loadu_pd(znorm + j)));
    return _mm512_mul_pd(ng, _mm512_mask_max_pd(d, static_cast<__mmask8>(0xFF), d, zero));
  };
  // the masked conversion with an explicit source (GCC 12's warning)
  auto store = [&](Index j, __m512d v) BUDGETSVM_TARGET("avx512f") {
    _mm256_storeu_ps(out + j, _mm512_mask_cvtpd_ps(_mm256_setzero_ps(), static_cast<__mmask8>(0xFF), v));
  };
  Index j = 0;
  for (; j + 32 <= n; j += 32) {  // four registers' exps interleaved (simd.hpp)
    __m512d v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = argument(j + 8 * i);
    exp_neg_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) store(j + 8 * i, v[i]);
  }
  for (; j + 8 <= n; j += 8) store(j, exp_neg(argument(j)));
  scalar::rbf_column_to_float(dots + j, shift, znorm + j, xnorm, gamma, n - j, out + j);
}

/// The gains of the `live` low candidates among r..r+7 (partner_gain's
/// operations in its order; 0 where b <= min_b and in the other lanes).
BUDGETSVM_TARGET("avx512f")
inline __m512d partner_gains(const double* q, const double* diag, const float* Ki, const Index* place, Index r,
                             __mmask8 live, double qi, double Kii, double min_b, double tau) {
  static_assert(sizeof(Index) == 8, "the gathers take 64-bit indices");
  const __m512d zero = _mm512_setzero_pd();
  const __m512i at = _mm512_maskz_loadu_epi64(live, place + r);
  const __m512d kit = _mm512_maskz_cvtps_pd(0xFF, _mm512_mask_i64gather_ps(_mm256_setzero_ps(), live, at, Ki, 4));
  const __m512d b = _mm512_sub_pd(_mm512_set1_pd(qi), _mm512_maskz_loadu_pd(live, q + r));
  __m512d a = _mm512_sub_pd(_mm512_add_pd(_mm512_set1_pd(Kii), _mm512_maskz_loadu_pd(live, diag + r)),
                            _mm512_mul_pd(_mm512_set1_pd(2.0), kit));
  a = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(a, zero, _CMP_GT_OQ), _mm512_set1_pd(tau), a);
  const __mmask8 pays = _mm512_mask_cmp_pd_mask(live, b, _mm512_set1_pd(min_b), _CMP_GT_OQ);
  return _mm512_maskz_div_pd(pays, _mm512_mul_pd(b, b), a);
}

/// The lanes of candidates r..r+7 that exist (n - r of them, at most 8).
inline __mmask8 live_lanes(Index r, Index n) {
  const int count = n - r >= 8 ? 8 : static_cast<int>(n - r);
  return static_cast<__mmask8>((1u << count) - 1u);
}

BUDGETSVM_TARGET("avx512f")
inline Index best_partner(const double* q, const double* diag, const float* Ki, const Index* place, Index n, double qi,
                          double Kii, double min_b, double tau) {
  const __m512d iota = _mm512_setr_pd(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
  __m512d best = _mm512_setzero_pd(), best_r = _mm512_set1_pd(-1.0);
  for (Index r = 0; r < n; r += 8) {
    const __mmask8 live = live_lanes(r, n);
    const __m512d gain = partner_gains(q, diag, Ki, place, r, live, qi, Kii, min_b, tau);
    const __mmask8 better = _mm512_mask_cmp_pd_mask(live, gain, best, _CMP_GT_OQ);
    best = _mm512_mask_mov_pd(best, better, gain);
    best_r = _mm512_mask_mov_pd(best_r, better, _mm512_add_pd(_mm512_set1_pd(static_cast<double>(r)), iota));
  }
  double g[8], k[8];
  _mm512_storeu_pd(g, best);
  _mm512_storeu_pd(k, best_r);
  return detail::first_largest(g, k, 8, n);
}

BUDGETSVM_TARGET("avx512f")
inline std::pair<Index, Index> best_two_partners(const double* q, const double* diag, const float* Ki,
                                                 const Index* place, Index n, double qi, double Kii, double min_b,
                                                 double tau) {
  const __m512d iota = _mm512_setr_pd(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0);
  __m512d g1 = _mm512_setzero_pd(), r1 = _mm512_set1_pd(-1.0), g2 = g1, r2 = r1;
  for (Index r = 0; r < n; r += 8) {
    const __mmask8 live = live_lanes(r, n);
    const __m512d gain = partner_gains(q, diag, Ki, place, r, live, qi, Kii, min_b, tau);
    const __m512d idx = _mm512_add_pd(_mm512_set1_pd(static_cast<double>(r)), iota);
    const __mmask8 first = _mm512_mask_cmp_pd_mask(live, gain, g1, _CMP_GT_OQ);
    const __mmask8 second = _mm512_mask_cmp_pd_mask(static_cast<__mmask8>(live & ~first), gain, g2, _CMP_GT_OQ);
    g2 = _mm512_mask_mov_pd(_mm512_mask_mov_pd(g2, second, gain), first, g1);
    r2 = _mm512_mask_mov_pd(_mm512_mask_mov_pd(r2, second, idx), first, r1);
    g1 = _mm512_mask_mov_pd(g1, first, gain);
    r1 = _mm512_mask_mov_pd(r1, first, idx);
  }
  double g[16], k[16];
  _mm512_storeu_pd(g, g1);
  _mm512_storeu_pd(k, r1);
  _mm512_storeu_pd(g + 8, g2);
  _mm512_storeu_pd(k + 8, r2);
  return detail::first_two_largest(g, k, 16, n);
}
}  // namespace avx512

#endif  // BUDGETSVM_SIMD_X86

using AddScaledColumns = void (*)(const float* const* cols, const double* coef, std::size_t m, Index offset,
                                  Index len, double* sum);

/// The gradient update's kernel for an instruction set (SSE2: the scalar
/// loop, which the compiler vectorises for SSE2 itself).
inline AddScaledColumns add_scaled_columns_for(Level level) {
#if defined(BUDGETSVM_SIMD_X86)
  if (level == Level::avx512) return &avx512::add_scaled_columns;
  if (level == Level::avx2) return &avx2::add_scaled_columns;
#endif
  (void)level;
  return &scalar::add_scaled_columns;
}

using RbfColumnToFloat = void (*)(const double* dots, double shift, const double* znorm, double xnorm,
                                  double gamma, Index n, float* out);

/// The one-pass RBF column for an instruction set; nullptr below AVX2
/// (the caller makes the three passes).
inline RbfColumnToFloat rbf_column_to_float_for(Level level) {
#if defined(BUDGETSVM_SIMD_X86)
  if (level == Level::avx512) return &avx512::rbf_column_to_float;
  if (level == Level::avx2) return &avx2::rbf_column_to_float;
#endif
  (void)level;
  return nullptr;
}

using BestPartner = Index (*)(const double* q, const double* diag, const float* Ki, const Index* place, Index n,
                              double qi, double Kii, double min_b, double tau);

/// ALFPGM's j search for an instruction set (SSE2: the scalar loop).
inline BestPartner best_partner_for(Level level) {
#if defined(BUDGETSVM_SIMD_X86)
  if (level == Level::avx512) return &avx512::best_partner;
  if (level == Level::avx2) return &avx2::best_partner;
#endif
  (void)level;
  return &scalar::best_partner;
}

using BestTwoPartners = std::pair<Index, Index> (*)(const double* q, const double* diag, const float* Ki,
                                                    const Index* place, Index n, double qi, double Kii, double min_b,
                                                    double tau);

/// best_two_partners for an instruction set (SSE2: the scalar loop).
inline BestTwoPartners best_two_partners_for(Level level) {
#if defined(BUDGETSVM_SIMD_X86)
  if (level == Level::avx512) return &avx512::best_two_partners;
  if (level == Level::avx2) return &avx2::best_two_partners;
#endif
  (void)level;
  return &scalar::best_two_partners;
}

/// The gradient update's kernel of the active level.
inline AddScaledColumns active_add_scaled_columns() {
  static const AddScaledColumns f = add_scaled_columns_for(active_level());
  return f;
}

}  // namespace budgetsvm::simd
