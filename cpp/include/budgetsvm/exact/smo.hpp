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
// as a clipped 1-D Newton step along d (the same point as LIBSVM's cases),
// and a direction of zero curvature goes straight to the box bound instead
// of LIBSVM's tau-floored step (two_variable_step).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "dual_state.hpp"
#include "wss.hpp"

namespace budgetsvm::exact {

/// The two-variable step: minimises the dual along d = y_i e_i - y_j e_j,
/// a_i += y_i t, a_j -= y_j t, t >= 0, within the box. Returns the new
/// (a_i, a_j). K_ij is k(x_i, x_j).
///
/// Zero curvature: where d^T Q d <= 0 the dual is linear (or concave) along
/// d and decreases all the way to the first box bound, so the step goes
/// there exactly (LIBSVM instead divides by its floor tau, a step of
/// b / 1e-12 that crawls when the bound is far, e.g. coincident points with
/// a huge C). `cached` is the same curvature from the cache's float kernel
/// values, which are what the gradient update sees: when it is <= 0 the
/// gradient will not change along d whatever the double-precision value
/// says, so the step goes to the bound too; when only the double value is
/// <= 0, the cached one is the curvature.
struct PairStep {
  double alpha_i, alpha_j;
};

/// The curvature the step uses (0: linear along d, go to the bound).
inline double step_curvature(double raw, double cached) {
  if (!(cached > 0.0)) return 0.0;
  return raw > 0.0 ? raw : cached;
}

inline PairStep two_variable_step(double yi, double yj, double alpha_i, double alpha_j, double Ci,
                                  double Cj, double Gi, double Gj, double Kii, double Kjj,
                                  double Kij, double cached) {
  const double b = -yi * Gi + yj * Gj;  // -(directional derivative) along d
  const double a = step_curvature(Kii + Kjj - 2.0 * Kij, cached);  // d^T Q d
  // Largest feasible t for each variable.
  const double room_i = yi > 0 ? Ci - alpha_i : alpha_i;
  const double room_j = yj > 0 ? alpha_j : Cj - alpha_j;
  PairStep s{alpha_i, alpha_j};
  if (!(b > 0.0)) return s;
  const double t_newton = a > 0.0 ? b / a : std::numeric_limits<double>::infinity();
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

/// The step when the kernel values are exact (no float cache in between).
inline PairStep two_variable_step(double yi, double yj, double alpha_i, double alpha_j, double Ci,
                                  double Cj, double Gi, double Gj, double Kii, double Kjj,
                                  double Kij) {
  return two_variable_step(yi, yj, alpha_i, alpha_j, Ci, Cj, Gi, Gj, Kii, Kjj, Kij, Kii + Kjj - 2.0 * Kij);
}

/// The step of pair (i, j) of the state, from their columns (col_i, col_j
/// fetched for the active set).
inline PairStep pair_step(const DualState& s, Index i, Index j, const float* col_i, const float* col_j) {
  const double Kij = static_cast<double>(col_i[s.where(j)]);
  const double cached = static_cast<double>(col_i[s.where(i)]) + static_cast<double>(col_j[s.where(j)]) - 2.0 * Kij;
  return two_variable_step(s.y(i), s.y(j), s.alpha(i), s.alpha(j), s.upper(i), s.upper(j), s.G(i), s.G(j),
                           s.diag(i), s.diag(j), Kij, cached);
}

struct SolveReport {
  std::int64_t iterations = 0;
  bool converged = false;
};

inline std::int64_t iteration_bound(std::int64_t max_iter, Index n) {
  if (max_iter >= 0) return max_iter;
  return std::max<std::int64_t>(10000000, 100 * static_cast<std::int64_t>(n));
}

/// solve_smo's buffers, kept by a caller that solves problem after problem
/// (one-vs-one training): no allocation per problem.
struct SmoBuffers {
  std::vector<Index> pair = std::vector<Index>(2), one = std::vector<Index>(1);
  std::vector<const float*> cols;
  std::vector<double> values = std::vector<double>(2);
  PairScratch scratch;
};

/// Runs SMO from the state's current point.
inline SolveReport solve_smo(DualState& s, double tol, std::int64_t max_iter, bool shrinking,
                             RunControl& control, SmoBuffers& buffers) {
  SolveReport report;
  const std::int64_t bound = iteration_bound(max_iter, s.n());
  const std::int64_t shrink_every = std::min<std::int64_t>(s.n(), 1000);
  std::int64_t counter = shrink_every + 1;
  std::vector<Index>& pair = buffers.pair;
  std::vector<const float*>& cols = buffers.cols;
  std::vector<Index>& one = buffers.one;
  std::vector<double>& values = buffers.values;
  PairScratch& scratch = buffers.scratch;
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
    PairChoice choice = second_order_pair(s, s.active(), tol, fetch_one, scratch);
    if (choice.i < 0) {
      if (!s.shrunk()) {
        report.converged = true;
        break;
      }
      s.unshrink(control);
      choice = second_order_pair(s, s.active(), tol, fetch_one, scratch);
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
    const PairStep step = pair_step(s, i, j, cols[0], cols[1]);
    values[0] = step.alpha_i;
    values[1] = step.alpha_j;
    s.move(pair, values, cols);
  }
  s.unshrink(control);
  return report;
}

inline SolveReport solve_smo(DualState& s, double tol, std::int64_t max_iter, bool shrinking,
                             RunControl& control) {
  SmoBuffers buffers;
  return solve_smo(s, tol, max_iter, shrinking, control, buffers);
}

}  // namespace budgetsvm::exact
