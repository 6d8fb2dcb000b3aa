// The AVX2 and AVX-512 kernels of simd_float.hpp written once over the
// vector-width traits F (simd_width.hpp): F::lanes floats per register, the
// last elements in masked registers where F::masked_tail (AVX-512), else in
// scalar code (AVX2); each instruction set keeps the operations, and their
// order lane by lane, of its written-out version.
//
// A body included once per instruction set by simd_float.hpp (through
// simd_each_width.hpp): no include guard.
#include "simd.hpp"  // its bodies: dots_tile (simd_wide.hpp)
#include "simd_baseline.hpp"
#include "simd_width.hpp"

namespace budgetsvm::simd::BUDGETSVM_WIDE {

using F = width::BUDGETSVM_WIDE::Float;

/// u[i] <- 2^u[i] for N registers of u <= 0 (0 below kExp2MinF; see the top
/// of simd_float.hpp), their polynomials interleaved (simd.hpp, "exp").
template <int N>
BUDGETSVM_WIDE_TARGET inline void exp2_nonpositive_f_n(F::reg* u) {
  using namespace detail;
  const F::reg lo = F::set1(kExp2MinF);
  F::mask ok[N];
  F::reg n[N], r[N], p[N];
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) {
    ok[i] = F::at_least(u[i], lo);
    const F::reg ui = F::max(u[i], lo);
    n[i] = F::round(ui);
    r[i] = F::sub(ui, n[i]);
    p[i] = F::set1(kExp2F[0]);
  }
  BUDGETSVM_UNROLL for (int k = 1; k < 7; ++k) {
    const F::reg c = F::set1(kExp2F[k]);
    BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) p[i] = F::fmadd(p[i], r[i], c);
  }
  BUDGETSVM_UNROLL for (int i = 0; i < N; ++i) u[i] = F::scale_where(ok[i], p[i], n[i]);
}

BUDGETSVM_WIDE_TARGET inline F::reg exp2_nonpositive_f(F::reg u) {
  exp2_nonpositive_f_n<1>(&u);
  return u;
}

/// u = min(0, acc[j] + zpart[j] + xpart) for the lanes at acc, zpart (those
/// of the optional tail only; the others read 0: u = xpart, finite).
template <class... Tail>
BUDGETSVM_WIDE_TARGET inline F::reg pow2_argument_f(const float* acc, const float* zpart, F::reg xpart, Tail... m) {
  const F::reg u = F::add(F::add(F::load(acc, m...), F::load(zpart, m...)), xpart);
  return F::min(u, F::zero());
}

BUDGETSVM_WIDE_TARGET
inline void rbf_from_parts_f(const float* acc, const float* zpart, float xpart, Index B, float* out) {
  constexpr Index W = F::lanes;
  const F::reg xp = F::set1(xpart);
  Index j = 0;
  for (; j + 4 * W <= B; j += 4 * W) {  // four registers' exps interleaved
    F::reg v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = pow2_argument_f(acc + j + W * i, zpart + j + W * i, xp);
    exp2_nonpositive_f_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) F::store(out + j + W * i, v[i]);
  }
  for (; j + W <= B; j += W) F::store(out + j, exp2_nonpositive_f(pow2_argument_f(acc + j, zpart + j, xp)));
  scalar::rbf_from_parts_f(acc + j, zpart + j, xpart, B - j, out + j);
}

BUDGETSVM_WIDE_TARGET
inline float rbf_dot_parts_f(const float* acc, const float* zpart, float xpart, Index B, const float* coef) {
  constexpr Index W = F::lanes;
  const F::reg xp = F::set1(xpart);
  F::reg sum = F::zero();
  Index j = 0;
  for (; j + 4 * W <= B; j += 4 * W) {  // four registers' exps interleaved, summed in order
    F::reg v[4];
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) v[i] = pow2_argument_f(acc + j + W * i, zpart + j + W * i, xp);
    exp2_nonpositive_f_n<4>(v);
    BUDGETSVM_UNROLL for (int i = 0; i < 4; ++i) sum = F::fmadd(v[i], F::load(coef + j + W * i), sum);
  }
  if constexpr (F::masked_tail) {  // lanes past B carry a coefficient of 0
    for (; j < B; j += W) {
      const F::tail m = F::first(B - j);
      sum = F::fmadd(exp2_nonpositive_f(pow2_argument_f(acc + j, zpart + j, xp, m)), F::load(coef + j, m), sum);
    }
    return F::sum(sum);
  } else {
    for (; j + W <= B; j += W)
      sum = F::fmadd(exp2_nonpositive_f(pow2_argument_f(acc + j, zpart + j, xp)), F::load(coef + j), sum);
    return F::sum(sum) + scalar::rbf_dot_parts_f(acc + j, zpart + j, xpart, B - j, coef + j);
  }
}

BUDGETSVM_WIDE_TARGET
inline void dense_dots_f(const float* const* x, Index rows, Index d, const float* Zt, Index ld, Index B, float* G,
                         Index ldg) {
  // Tiles of 4 rows x 2 registers of columns (8 accumulators; dots_tile,
  // simd_wide.hpp); the columns
  // past the last full tile in one masked tile (AVX-512) or in scalar code
  // (AVX2), the rows past the last group of four in scalar code.
  constexpr Index W = F::lanes;
  const Index full = B - B % (2 * W);
  Index r = 0;
  for (; r + 4 <= rows; r += 4) {
    for (Index j = 0; j < full; j += 2 * W) dots_tile<F, 2, false>(x + r, d, Zt, ld, j, G + r * ldg, ldg);
    if (full < B) {
      if constexpr (F::masked_tail) {
        const F::tail m[2] = {F::first(B - full), F::first(B - full - W)};
        dots_tile<F, 2, true>(x + r, d, Zt, ld, full, G + r * ldg, ldg, m);
      } else {
        scalar::dense_dots_f(x + r, 4, d, Zt + full, ld, B - full, G + r * ldg + full, ldg);
      }
    }
  }
  scalar::dense_dots_f(x + r, rows - r, d, Zt, ld, B, G + r * ldg, ldg);
}

}  // namespace budgetsvm::simd::BUDGETSVM_WIDE
