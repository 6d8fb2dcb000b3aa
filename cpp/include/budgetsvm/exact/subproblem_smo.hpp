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
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (std::int64_t step = 0;; ++step) {
    // i: the largest q_t = -y_t G_t over I_up.
    Index i = -1;
    double q_max = -inf;
    for (Index t = 0; t < m; ++t) {
      const bool up = y[t] > 0 ? a[t] < u[t] : a[t] > 0.0;
      const double q = -y[t] * G[t];
      if (up && q > q_max) {
        q_max = q;
        i = t;
      }
    }
    // j: the largest gain b^2 / a over I_low with b = q_i - q_t > 0.
    Index j = -1;
    double q_min = inf, best = -inf;
    if (i >= 0) {
      const double* Qi = Q.data() + i * m;  // row i (Q is symmetric; rows and columns agree)
      for (Index t = 0; t < m; ++t) {
        const bool low = y[t] > 0 ? a[t] > 0.0 : a[t] < u[t];
        if (!low) continue;
        const double q = -y[t] * G[t];
        q_min = std::min(q_min, q);
        const double b = q_max - q;
        if (!(b > 0.0)) continue;
        const double gain = b * b / pair_curvature(Q(i, i), Q(t, t), y[i] * y[t] * Qi[t]);
        if (gain > best) {
          best = gain;
          j = t;
        }
      }
    }
    report.final_violation = i >= 0 && std::isfinite(q_min) ? q_max - q_min : 0.0;
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
    const double* Qi = Q.data() + i * m;
    const double* Qj = Q.data() + j * m;
    for (Index t = 0; t < m; ++t) G[t] += Qi[t] * di + Qj[t] * dj;
  }
  return report;
}

}  // namespace budgetsvm::exact
