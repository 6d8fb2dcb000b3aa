// The AVX2 and AVX-512 kernels of simd_exact.hpp written once over the
// vector-width traits V (core/simd_width.hpp): the candidates past the last
// full register in one masked register where V::masked_tail (AVX-512),
// else in the scalar loops (AVX2); each instruction set keeps the
// operations, and their order lane by lane, of its written-out version.
//
// A body included once per instruction set by simd_exact.hpp (through
// core/simd_each_width.hpp): no include guard.
#include <cstddef>
#include <utility>

#include "../core/simd.hpp"
#include "../core/simd_width.hpp"
#include "simd_baseline.hpp"

namespace budgetsvm::simd::BUDGETSVM_WIDE {

using V = width::BUDGETSVM_WIDE::Double;

BUDGETSVM_WIDE_TARGET
inline void add_scaled_columns(const float* const* cols, const double* coef, std::size_t m, Index offset, Index len,
                               double* sum) {
  constexpr Index W = V::lanes;
  const Index full = len - len % W;
  // sum[k..k+W) += (a0 c0 + a1 c1) + (a2 c2 + a3 c3) over the lanes of the
  // optional tail (the others neither read nor written)
  auto four = [&](const float* const* c, const V::reg* a, Index k, auto... tail) BUDGETSVM_WIDE_TARGET {
    const V::reg p = V::add(V::mul(a[0], V::load_floats(c[0] + k, tail...)), V::mul(a[1], V::load_floats(c[1] + k, tail...)));
    const V::reg q = V::add(V::mul(a[2], V::load_floats(c[2] + k, tail...)), V::mul(a[3], V::load_floats(c[3] + k, tail...)));
    V::store(sum + k, V::add(V::load(sum + k, tail...), V::add(p, q)), tail...);
  };
  auto one = [&](const float* c, V::reg a, Index k, auto... tail) BUDGETSVM_WIDE_TARGET {
    V::store(sum + k, V::add(V::load(sum + k, tail...), V::mul(a, V::load_floats(c + k, tail...))), tail...);
  };
  std::size_t c = 0;
  for (; c + 4 <= m; c += 4) {
    const float* col[4] = {cols[c] + offset, cols[c + 1] + offset, cols[c + 2] + offset, cols[c + 3] + offset};
    const double a0 = coef[c], a1 = coef[c + 1], a2 = coef[c + 2], a3 = coef[c + 3];
    const V::reg a[4] = {V::set1(a0), V::set1(a1), V::set1(a2), V::set1(a3)};
    for (Index k = 0; k < full; k += W) four(col, a, k);
    if constexpr (V::masked_tail) {
      if (full < len) four(col, a, full, V::first(len - full));
    } else {
      for (Index k = full; k < len; ++k)
        sum[k] += (a0 * static_cast<double>(col[0][k]) + a1 * static_cast<double>(col[1][k])) +
                  (a2 * static_cast<double>(col[2][k]) + a3 * static_cast<double>(col[3][k]));
    }
  }
  for (; c < m; ++c) {
    const float* col = cols[c] + offset;
    const double a = coef[c];
    const V::reg v = V::set1(a);
    for (Index k = 0; k < full; k += W) one(col, v, k);
    if constexpr (V::masked_tail) {
      if (full < len) one(col, v, full, V::first(len - full));
    } else {
      for (Index k = full; k < len; ++k) sum[k] += a * static_cast<double>(col[k]);
    }
  }
}

BUDGETSVM_WIDE_TARGET
inline void rbf_column_to_float(const double* dots, double shift, const double* znorm, double xnorm, double gamma,
                                Index n, float* out) {
  constexpr Index W = V::lanes;
  const V::reg xn = V::set1(xnorm), ng = V::set1(-gamma), sh = V::set1(shift);
  const V::reg mtwo = V::set1(-2.0), zero = V::zero();
  auto argument = [&](Index j) BUDGETSVM_WIDE_TARGET {
    const V::reg a = V::sub(V::load(dots + j), sh);
    const V::reg d = V::fmadd(mtwo, a, V::add(xn, V::load(znorm + j)));
    return V::mul(ng, V::max(d, zero));
  };
  Index j = 0;
  for (; j + 4 * W <= n; j += 4 * W) {  // four registers' exps interleaved (simd.hpp)
    V::reg v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = argument(j + W * i);
    exp_neg_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) V::store_float(out + j + W * i, v[i]);
  }
  for (; j + W <= n; j += W) V::store_float(out + j, exp_neg(argument(j)));
  scalar::rbf_column_to_float(dots + j, shift, znorm + j, xnorm, gamma, n - j, out + j);
}

/// The gains of low candidates r..r+lanes (partner_gain's operations in its
/// order; 0 where b <= min_b, and outside the optional tail).
template <class... Tail>
BUDGETSVM_WIDE_TARGET inline V::reg partner_gains(const double* q, const double* diag, const float* Ki,
                                                  const Index* place, Index r, double qi, double Kii, double min_b,
                                                  double tau, Tail... live) {
  const V::reg zero = V::zero();
  const V::reg kit = V::gather_floats(Ki, place + r, live...);
  const V::reg b = V::sub(V::set1(qi), V::load(q + r, live...));
  V::reg a = V::sub(V::add(V::set1(Kii), V::load(diag + r, live...)), V::mul(V::set1(2.0), kit));
  a = V::select(V::gt(a, zero), a, V::set1(tau));
  V::mask pays = V::gt(b, V::set1(min_b));
  if constexpr (sizeof...(Tail) == 1) pays = V::both(pays, V::mask_of(live...));
  return V::keep(pays, V::div(V::mul(b, b), a));
}

BUDGETSVM_WIDE_TARGET
inline Index best_partner(const double* q, const double* diag, const float* Ki, const Index* place, Index n, double qi,
                          double Kii, double min_b, double tau) {
  constexpr Index W = V::lanes;
  const V::reg iota = V::iota();
  V::reg best = V::zero(), best_r = V::set1(-1.0);
  auto offer = [&](Index r, auto... live) BUDGETSVM_WIDE_TARGET {
    const V::reg gain = partner_gains(q, diag, Ki, place, r, qi, Kii, min_b, tau, live...);
    const V::mask better = V::gt(gain, best);
    best = V::select(better, gain, best);
    best_r = V::select(better, V::add(V::set1(static_cast<double>(r)), iota), best_r);
  };
  Index r = 0;
  for (; r + W <= n; r += W) offer(r);
  double g[W + 1], k[W + 1];
  if constexpr (V::masked_tail) {
    if (r < n) offer(r, V::first(n - r));
    V::store(g, best);
    V::store(k, best_r);
    return detail::first_largest(g, k, W, n);
  } else {
    V::store(g, best);
    V::store(k, best_r);
    // the last few candidates as the scalar loop, as one more lane
    const Index tail = scalar::best_partner(q + r, diag + r, Ki, place + r, n - r, qi, Kii, min_b, tau);
    g[W] = 0.0;
    k[W] = -1.0;
    if (tail < n - r) {
      const Index t = r + tail;
      g[W] = scalar::partner_gain(qi, Kii, q[t], diag[t], static_cast<double>(Ki[place[t]]), min_b, tau);
      k[W] = static_cast<double>(t);
    }
    return detail::first_largest(g, k, W + 1, n);
  }
}

BUDGETSVM_WIDE_TARGET
inline std::pair<Index, Index> best_two_partners(const double* q, const double* diag, const float* Ki,
                                                 const Index* place, Index n, double qi, double Kii, double min_b,
                                                 double tau) {
  constexpr Index W = V::lanes;
  const V::reg iota = V::iota();
  V::reg g1 = V::zero(), r1 = V::set1(-1.0), g2 = g1, r2 = r1;
  auto offer = [&](Index r, auto... live) BUDGETSVM_WIDE_TARGET {
    const V::reg gain = partner_gains(q, diag, Ki, place, r, qi, Kii, min_b, tau, live...);
    const V::reg idx = V::add(V::set1(static_cast<double>(r)), iota);
    const V::mask first = V::gt(gain, g1);
    const V::mask second = V::gt(gain, g2);  // where not first: the new second
    g2 = V::select(first, g1, V::select(second, gain, g2));
    r2 = V::select(first, r1, V::select(second, idx, r2));
    g1 = V::select(first, gain, g1);
    r1 = V::select(first, idx, r1);
  };
  Index r = 0;
  for (; r + W <= n; r += W) offer(r);
  double g[2 * W + 2], k[2 * W + 2];
  int entries = 2 * W;
  if constexpr (V::masked_tail) {
    if (r < n) offer(r, V::first(n - r));
  }
  V::store(g, g1);
  V::store(k, r1);
  V::store(g + W, g2);
  V::store(k + W, r2);
  if constexpr (!V::masked_tail) {
    // the last few candidates as the scalar loop, as two more entries
    const auto [t1, t2] = scalar::best_two_partners(q + r, diag + r, Ki, place + r, n - r, qi, Kii, min_b, tau);
    for (const Index t : {t1, t2}) {
      if (t >= n - r) continue;
      g[entries] =
          scalar::partner_gain(qi, Kii, q[r + t], diag[r + t], static_cast<double>(Ki[place[r + t]]), min_b, tau);
      k[entries++] = static_cast<double>(r + t);
    }
  }
  return detail::first_two_largest(g, k, entries, n);
}

}  // namespace budgetsvm::simd::BUDGETSVM_WIDE
