// The AVX2 and AVX-512 kernels of simd_subproblem.hpp written once over the
// vector-width traits V (core/simd_width.hpp). Each instruction set keeps
// the values of its written-out version lane by lane (no fused
// multiply-add; see simd_subproblem.hpp); lane indices are doubles at both.
//
// A body included once per instruction set by simd_subproblem.hpp (through
// core/simd_each_width.hpp): no include guard.
#include <algorithm>
#include <limits>

#include "../core/simd.hpp"
#include "../core/simd_width.hpp"
#include "simd_baseline.hpp"

namespace budgetsvm::simd::BUDGETSVM_WIDE {

using V = width::BUDGETSVM_WIDE::Double;

// The first index of the largest value over the lanes (each lane: its best
// value and the index, as a double, where it first occurred; -1: none).
BUDGETSVM_WIDE_TARGET
inline void smo_first_of_largest(V::reg value, V::reg index, double& best, Index& at) {
  double v[V::lanes], k[V::lanes];
  V::store(v, value);
  V::store(k, index);
  for (int l = 0; l < V::lanes; ++l) {
    if (k[l] < 0.0) continue;
    const Index r = static_cast<Index>(k[l]);
    if (v[l] > best || (v[l] == best && (at < 0 || r < at))) {
      best = v[l];
      at = r;
    }
  }
}

// Lanes t..t+lanes of an array, 0 past m.
BUDGETSVM_WIDE_TARGET
inline V::reg smo_lanes(const double* x, Index t, Index m) {
  return m - t >= V::lanes ? V::load(x + t) : V::load(x + t, V::first(m - t));
}

// Lanes t..t+lanes of a step: their index, y, q = -y G and the masks of the
// lanes in I_up and in I_low (lanes past m are in neither).
struct SmoLanes {
  V::reg at, y, q;
  V::mask up, low;
};

BUDGETSVM_WIDE_TARGET
inline SmoLanes smo_load(const double* y, const double* a, const double* u, const double* G, Index t, Index m) {
  const V::reg zero = V::zero();
  SmoLanes l;
  l.at = V::add(V::set1(static_cast<double>(t)), V::iota());
  const V::mask live = V::lt(l.at, V::set1(static_cast<double>(m)));
  l.y = smo_lanes(y, t, m);
  const V::reg av = smo_lanes(a, t, m);
  const V::mask pos = V::gt(l.y, zero);
  const V::mask above_0 = V::gt(av, zero);
  const V::mask below_u = V::lt(av, smo_lanes(u, t, m));
  l.up = V::both(live, V::select_mask(pos, below_u, above_0));
  l.low = V::both(live, V::select_mask(pos, above_0, below_u));
  l.q = V::mul(V::sub(zero, l.y), smo_lanes(G, t, m));
  return l;
}

BUDGETSVM_WIDE_TARGET
inline SmoPair smo_pair(const double* y, const double* a, const double* u, const double* G, const double* Q,
                        const double* diag, Index m, double tau) {
  const V::reg zero = V::zero(), ninf = V::set1(-std::numeric_limits<double>::infinity());
  const V::reg none = V::set1(-1.0);
  SmoPair p;
  // i: per lane the first largest q over I_up.
  V::reg best_q = ninf, best_i = none;
  for (Index t = 0; t < m; t += V::lanes) {
    const SmoLanes l = smo_load(y, a, u, G, t, m);
    const V::mask better = V::both(l.up, V::gt(l.q, best_q));
    best_q = V::select(better, l.q, best_q);
    best_i = V::select(better, l.at, best_i);
  }
  smo_first_of_largest(best_q, best_i, p.q_max, p.i);
  if (p.i < 0) return p;
  // j: per lane the first largest gain over I_low with b > 0; q_min over I_low.
  const double* Qi = Q + p.i * m;
  const V::reg qmax = V::set1(p.q_max), yi = V::set1(y[p.i]), Qii = V::set1(diag[p.i]);
  const V::reg two = V::set1(2.0), vtau = V::set1(tau);
  V::reg qmin = V::set1(std::numeric_limits<double>::infinity()), best_g = ninf, best_j = none;
  for (Index t = 0; t < m; t += V::lanes) {
    const SmoLanes l = smo_load(y, a, u, G, t, m);
    qmin = V::select(l.low, V::min(qmin, l.q), qmin);
    const V::reg b = V::sub(qmax, l.q);
    const V::mask pays = V::both(l.low, V::gt(b, zero));
    const V::reg kit = V::mul(V::mul(yi, l.y), smo_lanes(Qi, t, m));
    V::reg c = V::sub(V::add(Qii, smo_lanes(diag, t, m)), V::mul(two, kit));
    c = V::select(V::gt(c, zero), c, vtau);
    const V::reg gain = V::div(V::mul(b, b), c);
    const V::mask better = V::both(pays, V::gt(gain, best_g));
    best_g = V::select(better, gain, best_g);
    best_j = V::select(better, l.at, best_j);
  }
  double best = -std::numeric_limits<double>::infinity();
  smo_first_of_largest(best_g, best_j, best, p.j);
  double lanes[V::lanes];
  V::store(lanes, qmin);
  for (const double q : lanes) p.q_min = std::min(p.q_min, q);
  return p;
}

BUDGETSVM_WIDE_TARGET
inline void smo_update(double* G, const double* Qi, const double* Qj, double di, double dj, Index m) {
  const V::reg vi = V::set1(di), vj = V::set1(dj);
  auto step = [&](Index t, auto... live) BUDGETSVM_WIDE_TARGET {
    const V::reg sum = V::add(V::mul(V::load(Qi + t, live...), vi), V::mul(V::load(Qj + t, live...), vj));
    V::store(G + t, V::add(V::load(G + t, live...), sum), live...);
  };
  Index t = 0;
  for (; t + V::lanes <= m; t += V::lanes) step(t);
  if constexpr (V::masked_tail) {
    if (t < m) step(t, V::first(m - t));
  } else {
    scalar::smo_update(G + t, Qi + t, Qj + t, di, dj, m - t);
  }
}

}  // namespace budgetsvm::simd::BUDGETSVM_WIDE
