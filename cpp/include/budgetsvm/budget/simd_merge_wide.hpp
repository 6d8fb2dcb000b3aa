// The AVX2 and AVX-512 cost pass of simd_merge.hpp written once over the
// vector-width traits V (core/simd_width.hpp): lanes candidates per pass,
// the last pass masked at both; the gathers, the 32-bit node arithmetic
// and the reading of the node pairs are traits functions. Each instruction
// set keeps the operations, and their order lane by lane, of its
// written-out version.
//
// A body included once per instruction set by simd_merge.hpp (through
// core/simd_each_width.hpp): no include guard.
#include <limits>

#include "../core/simd.hpp"
#include "../core/simd_width.hpp"
#include "simd_baseline.hpp"

namespace budgetsvm::simd::BUDGETSVM_WIDE {

using V = width::BUDGETSVM_WIDE::Double;

BUDGETSVM_WIDE_TARGET
inline Index least_merge_cost(const double* w, double wa, const double* kappa, const Index* idx, Index q,
                              const WdGrid& t, double* cost) {
  const V::reg va = V::set1(wa), zero = V::zero(), one = V::set1(1.0), half = V::set1(0.5), two = V::set1(2.0);
  const V::reg hf = V::set1(t.half), gf = V::set1(t.grid);
  const V::int32 hmax = V::set1_int(t.half - 1), gmax = V::set1_int(t.grid - 1), cols = V::set1_int(t.grid + 1);
  V::reg best = V::set1(std::numeric_limits<double>::infinity()), best_k = V::set1(-1.0);
  const V::reg iota = V::iota();
  for (Index k = 0; k < q; k += V::lanes) {
    const V::tail live = V::first(q - k);
    const V::index64 j = V::load_index(idx + k, live);
    // dead lanes read nothing and take s = 2 wa, kappa = 0: a valid node
    const V::reg wj = V::gather(w, j, live, va);
    V::reg kj = V::gather(kappa, j, live, zero);
    const V::reg s = V::add(va, wj);
    V::reg m = V::div(va, s);
    m = V::select(V::gt(m, half), V::sub(one, m), m);
    m = V::min(V::max(m, zero), half);  // max(NaN, 0) = 0
    kj = V::min(V::max(kj, zero), one);
    const V::reg r = V::max(V::sub(one, V::mul(two, m)), zero);
    const V::reg u = V::mul(V::sub(one, V::sqrt(r)), hf);
    const V::reg v = V::mul(kj, gf);
    const V::int32 i = V::min_int(V::truncate(u), hmax);
    const V::int32 c = V::min_int(V::truncate(v), gmax);
    const V::reg fu = V::sub(u, V::to_double(i));
    const V::reg fv = V::sub(v, V::to_double(c));
    const V::int32 off = V::add_int(V::mul_int(i, cols), c);
    // nodes (c, c + 1) of a row are adjacent: one 64-bit gather reads both
    V::reg a, b, cc, d;
    V::float_pairs(t.wd, off, &a, &b);
    V::float_pairs(t.wd, V::add_int(off, cols), &cc, &d);
    const V::reg gv = V::sub(one, fv), gu = V::sub(one, fu);
    const V::reg top = V::add(V::mul(gv, a), V::mul(fv, b));
    const V::reg bot = V::add(V::mul(gv, cc), V::mul(fv, d));
    const V::reg wd = V::add(V::mul(gu, top), V::mul(fu, bot));
    const V::reg value = V::mul(V::mul(s, s), wd);
    const V::mask better = V::both(V::lt(value, best), V::mask_of(live));
    best = V::select(better, value, best);
    best_k = V::select(better, V::add(V::set1(static_cast<double>(k)), iota), best_k);
  }
  double cost_l[V::lanes], k_l[V::lanes];
  V::store(cost_l, best);
  V::store(k_l, best_k);
  return detail::first_least(cost_l, k_l, V::lanes, cost);
}

}  // namespace budgetsvm::simd::BUDGETSVM_WIDE
