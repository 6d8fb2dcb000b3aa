// ALFPGM's sub-problem solved by SMO on the working set:
//
//   min_a  1/2 a^T Q a + chi^T a
//   s.t.   y^T a = c,  0 <= a <= u                       (a, y, u in R^m)
//
// Q = Q_BB is a dense m x m matrix (m = 2 p, 64 by default), already
// gathered; the start a = a_B is feasible. Each step picks the maximal
// violating pair by second-order selection (Fan, Chen and Lin 2005, as the
// full problem's SMO: smo.hpp, wss.hpp), moves it by the same analytic
// two-variable step and updates the m gradients with two rows of Q: O(m)
// per step, against one O(m^2) product per FPGM iteration of the augmented
// Lagrangian (alfpgm_subproblem.hpp), which needs hundreds to thousands of
// them per sub-problem. It stops when the pair's gap
// max_{I_up} -y_t G_t - min_{I_low} -y_t G_t is below eps, or after
// max(10^4, 20 m^2) steps (reported as not converged: the round counts as
// failed, as an FPGM run that spends its budget).
//
// This is our departure from the paper, which solves the sub-problem by the
// augmented Lagrangian and FPGM (kept: subproblem="fpgm"); the working sets,
// the outer loop and the stopping rule of the full problem are unchanged.
// docs/exact.md gives the reasons and the measurements.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "alfpgm_subproblem.hpp"
#include "dual_state.hpp"
#include "simd_subproblem.hpp"
#include "smo.hpp"

namespace budgetsvm::exact {

/// Solves the sub-problem from the feasible start a by SMO steps; a is
/// overwritten. `inner_iterations` counts the steps, `final_violation` is
/// the last gap.
inline SubproblemReport solve_subproblem_smo(const MatrixXd& Q, const VectorXd& chi, const VectorXd& y,
                                             const VectorXd& u, VectorXd& a, double eps) {
  SubproblemReport report;
  report.outer_iterations = 1;
  const Index m = a.size();
  if (m < 2) return report;
  VectorXd G = chi;
  G.noalias() += Q * a;
  // The report counts steps in an int: the bound stays below its range
  // whatever `pairs` a caller sets.
  const std::int64_t max_steps = std::min<std::int64_t>(
      std::max<std::int64_t>(10000, 20 * static_cast<std::int64_t>(m) * m), std::numeric_limits<int>::max());
  // The selection and the gradient update run in the kernels of the
  // active instruction set (simd_subproblem.hpp: the same bits at
  // every level).
  static const simd::SmoPairKernel smo_pair = simd::smo_pair_for(simd::active_level());
  static const simd::SmoUpdateKernel smo_update = simd::smo_update_for(simd::active_level());
  const VectorXd diag = Q.diagonal();
  for (std::int64_t step = 0;; ++step) {
    // i: the largest q_t = -y_t G_t over I_up; j: the largest gain b^2 / c
    // over I_low with b = q_i - q_t > 0.
    const simd::SmoPair pair = smo_pair(y.data(), a.data(), u.data(), G.data(), Q.data(), diag.data(), m, kTau);
    const Index i = pair.i, j = pair.j;
    report.final_violation = i >= 0 && std::isfinite(pair.q_min) ? pair.q_max - pair.q_min : 0.0;
    if (j < 0 || report.final_violation < eps) break;
    if (step >= max_steps) break;
    ++report.inner_iterations;
    const double Kij = y[i] * y[j] * Q(i, j);
    const double raw = Q(i, i) + Q(j, j) - 2.0 * Kij;
    const PairStep s = two_variable_step(y[i], y[j], a[i], a[j], u[i], u[j], G[i], G[j], Q(i, i), Q(j, j), Kij, raw);
    const double di = s.alpha_i - a[i], dj = s.alpha_j - a[j];
    if (di == 0.0 && dj == 0.0) break;  // no representable move: the gap is rounding
    a[i] = s.alpha_i;
    a[j] = s.alpha_j;
    smo_update(G.data(), Q.data() + i * m, Q.data() + j * m, di, dj, m);
  }
  return report;
}

}  // namespace budgetsvm::exact
