// The scalar kernels of simd_exact.hpp and simd_subproblem.hpp (the
// levels below AVX2 use them; they also finish the last few elements of
// the AVX2 kernels) and what those kernels share: SmoPair, the gain
// formula, the merging of the lanes' winners.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <utility>

#include "../core/simd.hpp"

namespace budgetsvm::simd {

// ---- simd_exact.hpp --------------------------------------------------------

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

// ---- simd_subproblem.hpp ---------------------------------------------------

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

}  // namespace budgetsvm::simd
