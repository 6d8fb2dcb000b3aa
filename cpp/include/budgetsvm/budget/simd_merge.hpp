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

#include "../core/simd.hpp"
#include "simd_baseline.hpp"
#define BUDGETSVM_WIDE_BODY "../budget/simd_merge_wide.hpp"
#include "../core/simd_each_width.hpp"

namespace budgetsvm::simd {

using LeastMergeCost = Index (*)(const double* w, double wa, const double* kappa, const Index* idx, Index q,
                                 const WdGrid& t, double* cost);

/// The cost pass for an instruction set (SSE2: the scalar loop).
inline LeastMergeCost least_merge_cost_for(Level level) {
  return BUDGETSVM_SIMD_WIDE_OR(level, least_merge_cost, &scalar::least_merge_cost);
}

}  // namespace budgetsvm::simd
