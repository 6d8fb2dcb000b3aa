// SMO for the exact kernel SVM dual (dual_state.hpp): our LIBSVM-equivalent
// reference path.
//
// Follows Fan, Chen and Lin (2005) as LIBSVM 3.x implements it: one pair per
// iteration chosen by second-order working set selection (wss.hpp), the
// analytic two-variable step along d = y_i e_i - y_j e_j clipped to the box,
// LIBSVM's shrinking every min(n, 1000) iterations with one un-shrink when
// the gap first falls below 10 tol, and a final re-check over all n before
// declaring convergence. The iteration bound (max_iter, or
// max(10^7, 100 n) when unlimited) ends the run with status max_iter.
//
// Where we differ from LIBSVM: kernel columns come from our LRU cache
// (kernel_cache.hpp) and are stored as k rather than Q; the step is written
// as a clipped 1-D Newton step along d (the same point as LIBSVM's cases).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dual_state.hpp"
#include "wss.hpp"

namespace budgetsvm::exact {

/// The two-variable step: minimises the dual along d = y_i e_i - y_j e_j,
/// a_i += y_i t, a_j -= y_j t, t >= 0, within the box. Returns the new
/// (a_i, a_j). K_ij is k(x_i, x_j).
struct PairStep {
  double alpha_i, alpha_j;
};

inline PairStep two_variable_step(double yi, double yj, double alpha_i, double alpha_j, double Ci,
                                  double Cj, double Gi, double Gj, double Kii, double Kjj,
                                  double Kij) {
  const double b = -yi * Gi + yj * Gj;  // -(directional derivative) along d
  const double a = pair_curvature(Kii, Kjj, Kij);  // d^T Q d
  // Largest feasible t for each variable.
  const double room_i = yi > 0 ? Ci - alpha_i : alpha_i;
  const double room_j = yj > 0 ? alpha_j : Cj - alpha_j;
  const double t_newton = b / a;
  PairStep s{alpha_i, alpha_j};
  if (t_newton <= 0.0) return s;
  if (t_newton >= room_i && room_i <= room_j) {
    // i reaches its bound first (exactly)
    s.alpha_i = yi > 0 ? Ci : 0.0;
    s.alpha_j = alpha_j - yj * room_i;
    if (room_i == room_j) s.alpha_j = yj > 0 ? 0.0 : Cj;
  } else if (t_newton >= room_j) {
    s.alpha_j = yj > 0 ? 0.0 : Cj;
    s.alpha_i = alpha_i + yi * room_j;
  } else {
    s.alpha_i = alpha_i + yi * t_newton;
    s.alpha_j = alpha_j - yj * t_newton;
  }
  s.alpha_i = std::clamp(s.alpha_i, 0.0, Ci);
  s.alpha_j = std::clamp(s.alpha_j, 0.0, Cj);
  return s;
}

struct SolveReport {
  std::int64_t iterations = 0;
  bool converged = false;
};

inline std::int64_t iteration_bound(std::int64_t max_iter, Index n) {
  if (max_iter >= 0) return max_iter;
  return std::max<std::int64_t>(10000000, 100 * static_cast<std::int64_t>(n));
}

/// Runs SMO from the state's current point.
inline SolveReport solve_smo(DualState& s, double tol, std::int64_t max_iter, bool shrinking,
                             RunControl& control) {
  SolveReport report;
  const std::int64_t bound = iteration_bound(max_iter, s.n());
  const std::int64_t shrink_every = std::min<std::int64_t>(s.n(), 1000);
  std::int64_t counter = shrink_every + 1;
  std::vector<Index> pair(2);
  std::vector<const float*> cols;
  std::vector<Index> one(1);
  std::vector<double> values(2);
  const auto fetch_one = [&](Index i) {
    one[0] = i;
    s.fetch_active(one, cols);
    return cols[0];
  };
  while (report.iterations < bound) {
    control.poll();
    if (--counter == 0) {
      counter = shrink_every;
      if (shrinking) s.shrink(tol, control);
    }
    PairChoice choice = second_order_pair(s, s.active(), tol, fetch_one);
    if (choice.i < 0) {
      if (!s.shrunk()) {
        report.converged = true;
        break;
      }
      s.unshrink(control);
      choice = second_order_pair(s, s.active(), tol, fetch_one);
      if (choice.i < 0) {
        report.converged = true;
        break;
      }
      counter = 1;
    }
    ++report.iterations;
    const Index i = choice.i, j = choice.j;
    pair[0] = i;
    pair[1] = j;
    s.fetch_active(pair, cols);
    const PairStep step = two_variable_step(s.y(i), s.y(j), s.alpha(i), s.alpha(j), s.upper(i),
                                            s.upper(j), s.G(i), s.G(j), s.diag(i), s.diag(j),
                                            static_cast<double>(cols[0][s.where(j)]));
    values[0] = step.alpha_i;
    values[1] = step.alpha_j;
    s.move(pair, values, cols);
  }
  s.unshrink(control);
  return report;
}

}  // namespace budgetsvm::exact
