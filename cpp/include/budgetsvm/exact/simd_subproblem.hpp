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
#include "simd_baseline.hpp"
#define BUDGETSVM_WIDE_BODY "../exact/simd_subproblem_wide.hpp"
#include "../core/simd_each_width.hpp"

namespace budgetsvm::simd {

using SmoPairKernel = SmoPair (*)(const double* y, const double* a, const double* u, const double* G,
                                  const double* Q, const double* diag, Index m, double tau);
using SmoUpdateKernel = void (*)(double* G, const double* Qi, const double* Qj, double di, double dj, Index m);

/// The sub-problem's pair selection for an instruction set (below AVX2: the
/// scalar loop).
inline SmoPairKernel smo_pair_for(Level level) {
  return BUDGETSVM_SIMD_WIDE_OR(level, smo_pair, &scalar::smo_pair);
}

/// The sub-problem's gradient update for an instruction set (below AVX2:
/// the scalar loop, which the compiler vectorises for the baseline).
inline SmoUpdateKernel smo_update_for(Level level) {
  return BUDGETSVM_SIMD_WIDE_OR(level, smo_update, &scalar::smo_update);
}

}  // namespace budgetsvm::simd
