// ALFPGM with pWSS working sets for the exact kernel SVM dual
// (dual_state.hpp); Aregbesola and Griva (2022), "A Fast Algorithm for
// Training Large Scale Support Vector Machines", Algorithm 1 (decomposition)
// with Algorithm 2 (augmented Lagrangian - fast projected gradient) for the
// sub-problems and the pWSS selection of section 3.
//
// Each decomposition round:
//   1. pWSS (wss.hpp) picks up to p pairs B among the active, non-excluded
//      positions; i columns in one block, then the j columns in one block;
//   2. the sub-problem min 1/2 a_B^T Q_BB a_B + chi^T a_B, y_B^T a_B = y_B^T a_B^old,
//      0 <= a_B <= C_B with chi = G_B - Q_BB a_B^old is solved by
//      alfpgm_subproblem.hpp, warm-started at a_B^old;
//   3. G is updated with the columns of B (G += Q_:B delta), G_bar where
//      upper-bound status changed;
//   4. MinMaxLimiter (section 3.2): position t counts its working-set uses;
//      it is excluded from selection once uses >= max_alpha_opt, or once
//      uses >= min_alpha_opt while it sits at a bound and moved by less
//      than delta_alpha in the last round.
// Stopping: when the candidates hold no pair violating by tol, excluded
// positions are re-admitted (their gradient is current: exclusion only
// hides them from selection); when the active set then holds no violating
// pair either, shrunk ones are restored (gradient rebuilt); the run ends
// only when the gap over all n is below tol, so the optimum is the true one
// (SPEC.md).
//
// Where we differ from the paper (besides SPEC.md's corrections in
// alfpgm_subproblem.hpp): LIBSVM's shrinking runs alongside MinMaxLimiter
// (it narrows selection and gradient updates to the active set, and
// kernel columns are fetched for the active prefix only, so that many more
// of them fit in the cache: kernel_cache.hpp; G_bar extends the columns of
// variables whose upper-bound status changed); the
// sub-problem tolerance follows the outer gap (max(tol / 2, gap / 1000);
// solving sub-problems accurately saved kernel columns in our measurements); a
// round whose sub-problem solution does not decrease the dual objective
// falls back to the analytic SMO step on the first (most violating) pair, so
// every round makes progress; identical copies of a point in B (same label,
// equal columns) get their alpha merged onto as few copies as the bounds
// allow after each sub-problem (merge_duplicates: an exact step that keeps
// the objective and every gradient; FPGM alone spreads alpha over all
// copies and left up to 30% more SVs than LIBSVM on phishing and w8a).
// Measured and dropped (a9a, p = 64): preferring pairs whose columns are
// cached (fewer columns, but 1.5-4x the FPGM iterations); requiring later
// pairs to violate by a fraction of the first pair's violation; updating
// Q x in FPGM from the moved entries only (about 93% of B moves); starting
// each sub-problem's multiplier from the previous one's (cod-rna: still
// 8-11 multiplier updates a sub-problem; most FPGM iterations go into the
// first one, from the warm start to the inner tolerance).
// Default p = 32, not the paper's 50-100: with vectorised kernel columns the
// rounds are cheap, and a working set of 64 variables keeps Q_BB (32 KB) in
// L1 for the FPGM products; p = 64 computed 1.3x the kernel columns of
// p = 32 on a9a and took 1.5x the time (bench/results/exact_0538.md).
// The paper's delta_alpha / minAlphaOpt rules are stated loosely; the
// reading above is ours.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "alfpgm_subproblem.hpp"
#include "dual_state.hpp"
#include "smo.hpp"
#include "wss.hpp"

namespace budgetsvm::exact {

struct AlfpgmSettings {
  int pairs = 32;  // the paper: 50-100; see the header and bench/results/exact_0538.md
  double delta_alpha = 1e-6;
  int min_alpha_opt = 5;
  int max_alpha_opt = 20;
  Index min_alpha_check = 0;  // 0: search all I_low candidates for j
  double mu = 0.1;
};

struct AlfpgmReport : SolveReport {
  std::int64_t inner_iterations = 0;
  std::int64_t smo_fallbacks = 0;
  std::int64_t readmissions = 0;
};

/// Identical points in one working set (same label, Q_rr + Q_ss - 2 Q_rs = 0
/// in the cache's precision): the sub-problem cannot tell them apart, so
/// FPGM moves them alike and spreads alpha over all copies, where SMO
/// (LIBSVM) leaves one copy nonzero. Moving alpha from one copy to the other
/// keeps y^T a and Q a (their columns are equal), hence the objective and
/// every gradient: all alpha of a group goes to its first copies, each up
/// to its bound, so that the solution has as few support vectors as
/// LIBSVM's. Returns by how much the number of nonzero entries fell.
inline Index merge_duplicates(const MatrixXd& Q, const VectorXd& y, const VectorXd& u, VectorXd& a) {
  const Index m = a.size();
  const auto nonzero = [&] { return static_cast<Index>((a.array() > 0.0).count()); };
  const Index before = nonzero();
  for (Index r = 0; r < m; ++r) {
    for (Index s = r + 1; s < m && a[r] < u[r]; ++s) {
      if (a[s] <= 0.0 || y[s] != y[r]) continue;
      const double scale = std::fabs(Q(r, r)) + std::fabs(Q(s, s));
      if (std::fabs(Q(r, r) + Q(s, s) - 2.0 * Q(r, s)) > 1e-12 * scale) continue;
      const double total = a[r] + a[s];
      a[r] = std::min(u[r], total);
      a[s] = std::max(0.0, total - a[r]);
    }
  }
  return before - nonzero();
}

inline AlfpgmReport solve_alfpgm(DualState& s, double tol, std::int64_t max_iter, bool shrinking,
                                 const AlfpgmSettings& cfg, RunControl& control) {
  AlfpgmReport report;
  const Index n = s.n();
  const std::int64_t bound = iteration_bound(max_iter, n);
  const int pairs = std::max(1, cfg.pairs);
  const std::int64_t shrink_every =
      std::max<std::int64_t>(1, std::min<std::int64_t>(n, 1000) / pairs);
  std::int64_t counter = shrink_every + 1;
  std::vector<int> uses(static_cast<std::size_t>(n), 0);
  std::vector<char> excluded(static_cast<std::size_t>(n), 0), used(static_cast<std::size_t>(n), 0);
  Index n_excluded = 0;
  std::vector<Index> candidates, places;
  std::vector<const float*> cols;
  const auto fetch = [&](const std::vector<Index>& list, std::vector<const float*>& out) {
    s.fetch_active(list, out);
  };
  SubproblemSettings sub;
  sub.mu = cfg.mu;
  MatrixXd Q;
  VectorXd a, chi, yB, uB, a_old, GB;
  std::vector<double> values;

  while (report.iterations < bound) {
    control.poll();
    if (--counter == 0) {
      counter = shrink_every;
      if (shrinking) s.shrink(tol, control);
    }
    candidates.clear();
    for (Index t : s.active())
      if (!excluded[static_cast<std::size_t>(t)]) candidates.push_back(t);
    WorkingSet ws = select_pairs(s, candidates, pairs, cfg.min_alpha_check, tol, used, fetch);
    if (ws.empty() && n_excluded > 0) {
      // Re-admit the excluded positions and check the active set again.
      std::fill(excluded.begin(), excluded.end(), 0);
      std::fill(uses.begin(), uses.end(), 0);
      n_excluded = 0;
      ++report.readmissions;
      ws = select_pairs(s, s.active(), pairs, cfg.min_alpha_check, tol, used, fetch);
    }
    if (ws.empty()) {
      if (!s.shrunk()) {
        report.converged = true;
        break;
      }
      // Restore the shrunk positions and check again over all n.
      s.unshrink(control);
      ws = select_pairs(s, s.active(), pairs, cfg.min_alpha_check, tol, used, fetch);
      if (ws.empty()) {
        report.converged = true;
        break;
      }
      counter = 1;
    }
    ++report.iterations;
    const std::vector<Index> B = ws.indices();
    const Index m = static_cast<Index>(B.size());
    s.fetch_active(B, cols);
    Q.resize(m, m);
    a_old.resize(m);
    GB.resize(m);
    yB.resize(m);
    uB.resize(m);
    for (Index r = 0; r < m; ++r) {
      const Index t = B[static_cast<std::size_t>(r)];
      a_old[r] = s.alpha(t);
      GB[r] = s.G(t);
      yB[r] = s.y(t);
      uB[r] = s.upper(t);
    }
    places.resize(static_cast<std::size_t>(m));
    for (Index r = 0; r < m; ++r) places[static_cast<std::size_t>(r)] = s.where(B[static_cast<std::size_t>(r)]);
    for (Index c = 0; c < m; ++c) {
      const float* col = cols[static_cast<std::size_t>(c)];
      for (Index r = 0; r < m; ++r)
        Q(r, c) = yB[r] * yB[c] * static_cast<double>(col[places[static_cast<std::size_t>(r)]]);
    }
    Q = 0.5 * (Q + Q.transpose()).eval();  // float columns: symmetrise
    chi = GB - Q * a_old;
    a = a_old;
    sub.eps = std::max(0.5 * tol, 1e-3 * ws.violation.gap());
    const SubproblemReport sr = solve_subproblem(Q, chi, yB, uB, yB.dot(a_old), a, sub);
    report.inner_iterations += sr.inner_iterations;
    merge_duplicates(Q, yB, uB, a);
    const VectorXd delta = a - a_old;
    const double decrease = delta.dot(GB) + 0.5 * delta.dot(Q * delta);
    values.assign(a.data(), a.data() + m);
    if (!(decrease < 0.0)) {
      // No progress: take the analytic step on the first pair instead.
      ++report.smo_fallbacks;
      values.assign(a_old.data(), a_old.data() + m);
      const Index i = ws.first[0], j = ws.second[0];
      const Index jj = static_cast<Index>(ws.first.size());  // position of j in B
      const PairStep step = two_variable_step(s.y(i), s.y(j), s.alpha(i), s.alpha(j), s.upper(i),
                                              s.upper(j), s.G(i), s.G(j), s.diag(i), s.diag(j),
                                              static_cast<double>(cols[0][s.where(j)]));
      values[0] = step.alpha_i;
      values[static_cast<std::size_t>(jj)] = step.alpha_j;
    }
    s.move(B, values, cols);  // cols are invalid from here on
    for (Index r = 0; r < m; ++r) {
      const Index t = B[static_cast<std::size_t>(r)];
      const std::size_t ut = static_cast<std::size_t>(t);
      const int k = ++uses[ut];
      const bool at_bound = s.at_lower(t) || s.at_upper(t);
      const bool still = std::fabs(values[static_cast<std::size_t>(r)] - a_old[r]) < cfg.delta_alpha;
      if (!excluded[ut] && (k >= cfg.max_alpha_opt || (k >= cfg.min_alpha_opt && at_bound && still))) {
        excluded[ut] = 1;
        ++n_excluded;
      }
    }
  }
  s.unshrink(control);
  return report;
}

}  // namespace budgetsvm::exact
