// The general dual of LIBSVM's family, solved by our exact solvers
// (docs/exact.md, "The general dual"):
//
//   min_a  1/2 a^T Q a + p^T a   s.t.  0 <= a_t <= C_t  and
//   one constraint  y^T a = Delta  (solve_dual, nu = false: epsilon-SVR, one-class), or
//   two             sum_{y_t = +1} a_t = Delta_+,  sum_{y_t = -1} a_t = Delta_-
//                   (nu = true: nu-SVC, nu-SVR)
//
// Delta, Delta_+ and Delta_- are those of the feasible start a0 the caller
// gives; the pair steps keep them. The caller (the Python estimators, and
// ExactWorkspace::solve for the pairs of a one-vs-one nu-SVC) builds each
// formulation's y, C_t, p and a0.
//
// With two constraints a pair must take both of its variables from one
// label (a step along y_i e_i - y_j e_j with y_i != y_j would move both
// sums). select_nu_pair is the second-order rule of Fan, Chen and Lin
// restricted that way, as LIBSVM's Solver_NU: per label the i of largest q
// over I_up, then j of that label over I_low with the largest b^2 / a
// (SMO's vectorised search, over that label's entries); the better of the
// two labels' pairs is taken; optimal when neither label
// holds a pair violating by tol. It shrinks as SMO does, each label against
// its own violation (DualState::shrink, per_label); it polls the
// RunControl every iteration and stops at the same iteration bound as SMO.
//
// The bias of the nu path (nu_offsets): per label, r_+ and r_- are the
// mean of G over that label's free variables (or the middle of the
// interval the bound ones leave); rho = (r_+ - r_-) / 2 and r = (r_+ + r_-) / 2
// (LIBSVM's calculate_rho of Solver_NU). The one-constraint path's rho is
// DualState::rho.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "dual_state.hpp"
#include "fit.hpp"
#include "simd_exact.hpp"
#include "smo.hpp"
#include "wss.hpp"

namespace budgetsvm::exact {

/// One problem of the general form (header comment), one value per position.
struct DualProblem {
  std::vector<double> y, upper, p, alpha0;  // alpha0 empty: start at 0
  bool nu = false;                          // two equality constraints, one per label
};

struct DualResult : ExactResult {
  double rho = 0.0;  // the decision function is sum_t y_t a_t k(x_t, x) - rho
  double r = 0.0;    // nu path: (r_+ + r_-) / 2 (nu-SVC divides by it; nu-SVR's epsilon is -r)
};

/// Per label the largest q over I_up and its position, and the smallest q over I_low.
struct LabelViolation {
  Index i = -1;
  Violation v;
};

/// What select_nu_pair's j searches read, per label in position order (kept
/// by the caller between iterations: no allocation): q_t for members of
/// that label's I_low, +inf elsewhere; k(x_t, x_t); the place where(t).
struct NuScratch {
  std::vector<double> q[2], diag;
  std::vector<Index> place;
};

/// The nu path's pair (i = j = -1: optimal at tol). One pass over the
/// positions finds each label's i and lays out the j searches' arrays; each
/// label's j is then the vectorised second-order search (simd_exact.hpp,
/// the one SMO uses) over that label's I_low.
template <class FetchPair>
PairChoice select_nu_pair(const DualState& s, double tol, FetchPair&& fetch_pair, NuScratch& scratch) {
  static const simd::BestPartner best_partner = simd::best_partner_for(simd::active_level());
  constexpr double inf = std::numeric_limits<double>::infinity();
  const DualState::Arrays v = s.arrays();
  const std::vector<Index>& active = s.active();  // the candidates (all positions unless shrunk)
  const Index n = static_cast<Index>(active.size());
  const std::size_t un = static_cast<std::size_t>(n);
  for (auto& q : scratch.q) q.resize(un);
  scratch.diag.resize(un);
  scratch.place.resize(un);
  LabelViolation lab[2];  // [0]: y = +1, [1]: y = -1
  for (Index k = 0; k < n; ++k) {
    const Index t = active[static_cast<std::size_t>(k)];
    const double y = v.y[t], a = v.alpha[t], C = v.upper[t];
    const double q = -y * v.G[t];
    const int l = y > 0 ? 0 : 1;
    LabelViolation& L = lab[l];
    if (in_up_set(y, a, C) && q > L.v.up_max) {
      L.v.up_max = q;
      L.i = t;
    }
    const double low_q = in_low_set(y, a, C) ? q : inf;
    L.v.low_min = std::min(L.v.low_min, low_q);
    scratch.q[l][static_cast<std::size_t>(k)] = low_q;
    scratch.q[1 - l][static_cast<std::size_t>(k)] = inf;
    scratch.diag[static_cast<std::size_t>(k)] = v.diag[t];
    scratch.place[static_cast<std::size_t>(k)] = v.where[t];
  }
  PairChoice choice;
  const double gap = std::max(lab[0].v.gap(), lab[1].v.gap());
  choice.violation.up_max = gap;  // the larger label's gap, as up_max - 0
  choice.violation.low_min = 0.0;
  if (!(gap >= tol)) return choice;
  // Both labels' i columns in one fetch (both valid together).
  const float* cols[2] = {nullptr, nullptr};
  fetch_pair(lab[0].i, lab[1].i, cols);
  double best = -1.0;
  for (int l = 0; l < 2; ++l) {
    const Index i = lab[l].i;
    if (i < 0) continue;
    const double qi = lab[l].v.up_max, Kii = v.diag[i];
    const double* q = scratch.q[l].data();
    Index r = best_partner(q, scratch.diag.data(), cols[l], scratch.place.data(), n, qi, Kii, 0.0, kTau);
    double gain = 0.0;
    if (r < n) {
      gain = pair_gain(qi, Kii, q[r], scratch.diag[static_cast<std::size_t>(r)],
                       static_cast<double>(cols[l][scratch.place[static_cast<std::size_t>(r)]]), 0.0);
    } else {
      // No gain above 0 (b^2 underflows for b below 1e-154): the first t with b > 0.
      for (r = 0; r < n && !(qi - q[r] > 0.0); ++r) {
      }
      if (r == n) continue;
    }
    if (gain > best) {
      best = gain;
      choice.i = i;
      choice.j = active[static_cast<std::size_t>(r)];
    }
  }
  return choice;
}

/// SMO on the nu path from the state's current point; shrinking per label
/// (DualState::shrink), as LIBSVM's Solver_NU.
inline SolveReport solve_smo_nu(DualState& s, double tol, std::int64_t max_iter, bool shrinking,
                                RunControl& control) {
  SolveReport report;
  const std::int64_t bound = iteration_bound(max_iter, s.n());
  const std::int64_t shrink_every = std::min<std::int64_t>(s.n(), 1000);
  std::int64_t counter = shrink_every + 1;
  std::vector<Index> pair(2), two;
  std::vector<const float*> cols;
  std::vector<double> values(2);
  NuScratch scratch;
  const auto fetch_pair = [&](Index ip, Index in, const float** out) {
    two.clear();
    if (ip >= 0) two.push_back(ip);
    if (in >= 0) two.push_back(in);
    s.fetch_active(two, cols);
    std::size_t k = 0;
    if (ip >= 0) out[0] = cols[k++];
    if (in >= 0) out[1] = cols[k];
  };
  while (report.iterations < bound) {
    control.poll();
    if (--counter == 0) {
      counter = shrink_every;
      if (shrinking) s.shrink(tol, control, true);
    }
    PairChoice choice = select_nu_pair(s, tol, fetch_pair, scratch);
    if (choice.i < 0) {
      if (!s.shrunk()) {
        report.converged = true;
        break;
      }
      s.unshrink(control);
      choice = select_nu_pair(s, tol, fetch_pair, scratch);
      if (choice.i < 0) {
        report.converged = true;
        break;
      }
      counter = 1;
    }
    ++report.iterations;
    pair[0] = choice.i;
    pair[1] = choice.j;
    s.fetch_active(pair, cols);
    const PairStep step = pair_step(s, choice.i, choice.j, cols[0], cols[1]);
    values[0] = step.alpha_i;
    values[1] = step.alpha_j;
    s.move(pair, values, cols);
  }
  s.unshrink(control);
  return report;
}

/// The nu path's (rho, r) (header comment); all positions active.
inline std::pair<double, double> nu_offsets(const DualState& s) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  double ub[2] = {inf, inf}, lb[2] = {-inf, -inf}, sum[2] = {0.0, 0.0};
  Index free[2] = {0, 0};
  for (Index t = 0; t < s.n(); ++t) {
    const int l = s.y(t) > 0 ? 0 : 1;
    const double g = s.G(t);
    if (s.at_upper(t))
      lb[l] = std::max(lb[l], g);
    else if (s.at_lower(t))
      ub[l] = std::min(ub[l], g);
    else {
      sum[l] += g;
      ++free[l];
    }
  }
  double r[2];
  for (int l = 0; l < 2; ++l) {
    if (free[l] > 0)
      r[l] = sum[l] / static_cast<double>(free[l]);
    else if (std::isinf(ub[l]) || std::isinf(lb[l]))  // a label with no variable on one side
      r[l] = std::isinf(ub[l]) ? (std::isinf(lb[l]) ? 0.0 : lb[l]) : ub[l];
    else
      r[l] = 0.5 * (ub[l] + lb[l]);
  }
  return {0.5 * (r[0] - r[1]), 0.5 * (r[0] + r[1])};
}

/// The largest violation of the nu path's optimality (the larger label's gap).
inline double nu_violation(const DualState& s) {
  Violation v[2];
  for (Index t = 0; t < s.n(); ++t) {
    Violation& L = v[s.y(t) > 0 ? 0 : 1];
    const double q = s.q(t);
    if (s.in_up(t)) L.up_max = std::max(L.up_max, q);
    if (s.in_low(t)) L.low_min = std::min(L.low_min, q);
  }
  return std::max({0.0, v[0].gap(), v[1].gap()});
}

/// Solves `problem` on the state (reset to it here) and fills the report,
/// rho and r; alpha stays in the state. The nu path runs SMO; the
/// one-constraint path runs the solver settings.solver resolves to (ALFPGM
/// polishes a converged solution, as for C-SVC).
inline void run_dual(DualState& state, const DualProblem& problem, const ExactSettings& settings, bool sparse_rows,
                     RunControl& control, DualResult& result, std::chrono::steady_clock::time_point start) {
  state.reset_problem(problem.y, problem.upper, problem.p, problem.alpha0, control);
  if (problem.nu) {
    result.solver = ExactSolver::smo;
    const SolveReport r = solve_smo_nu(state, settings.tol, settings.max_iter, settings.shrinking, control);
    result.iterations = r.iterations;
    result.converged = r.converged;
    result.max_violation = nu_violation(state);
    const auto [rho, rr] = nu_offsets(state);
    result.rho = rho;
    result.r = rr;
    result.intercept = -rho;
    result.objective = state.objective();
    result.cache = state.cache().stats();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return;
  }
  SmoBuffers smo;
  const ExactSolver solver = resolve_solver(settings.solver, state.n(), sparse_rows);
  detail::run_solver(solver, state, settings, control, smo, result, start);
  result.rho = -result.intercept;
}

/// The general problem on the source's positions (its rows as set: a row
/// may stand at two positions, as epsilon-SVR's two copies).
inline DualResult solve_dual(const KernelColumnSource& source, const DualProblem& problem, ExactSettings settings,
                             RunControl& control) {
  const auto start = std::chrono::steady_clock::now();
  settings.sample_weight.clear();  // the bounds come with the problem
  settings.validate();
  require(source.size() > 0, "the problem has no positions");
  if (problem.nu) settings.solver = ExactSolver::smo;
  const ExactSolver solver = resolve_solver(settings.solver, source.size(), source.sparse_rows());
  KernelCache cache(source, settings.cache_mb * 1024.0 * 1024.0, detail::cache_columns(solver, settings));
  DualState state(cache, problem.y, 1.0, 1.0, settings.n_jobs);
  DualResult result;
  run_dual(state, problem, settings, source.sparse_rows(), control, result, start);
  result.alpha = state.alpha();
  return result;
}

/// nu-SVC's problem on two classes (labels y, one bound C_t per position):
/// p = 0 and a start that puts nu / 2 of the total bound on each class,
/// filled in position order up to each bound (LIBSVM's solve_nu_svc, with
/// the bounds in place of 1). Throws when nu asks more of a class than
/// its bounds allow ("specified nu is infeasible").
inline DualProblem nu_svc_problem(const std::vector<double>& y, const std::vector<double>& upper, double nu) {
  require(nu > 0.0 && nu <= 1.0, "nu must be in (0, 1]");
  DualProblem problem;
  problem.y = y;
  problem.upper = upper;
  problem.p.assign(y.size(), 0.0);
  problem.nu = true;
  double total_pos = 0.0, total_neg = 0.0;
  for (std::size_t t = 0; t < y.size(); ++t) (y[t] > 0 ? total_pos : total_neg) += upper[t];
  const double half = 0.5 * nu * (total_pos + total_neg);
  require(half <= std::min(total_pos, total_neg), "specified nu is infeasible");
  double left[2] = {half, half};
  problem.alpha0.assign(y.size(), 0.0);
  for (std::size_t t = 0; t < y.size(); ++t) {
    double& l = left[y[t] > 0 ? 0 : 1];
    problem.alpha0[t] = std::max(0.0, std::min(upper[t], l));
    l -= problem.alpha0[t];
  }
  return problem;
}

/// nu-SVC's solution scaled as LIBSVM scales it: alpha / r, rho / r, the
/// objective / r^2 (the decision function of a C-SVC with C = 1 / r).
inline void scale_nu_svc(DualResult& result) {
  require(result.r > 0.0, "nu-SVC ended with r <= 0: no margin (specified nu is infeasible)");
  for (double& a : result.alpha) a /= result.r;
  result.rho /= result.r;
  result.intercept = -result.rho;
  result.objective /= result.r * result.r;
}

}  // namespace budgetsvm::exact
