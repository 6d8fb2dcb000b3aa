// ALFPGM with pWSS working sets for the exact kernel SVM dual
// (dual_state.hpp); Aregbesola and Griva (2022), "A Fast Algorithm for
// Training Large Scale Support Vector Machines": Algorithm 1 (decomposition),
// Algorithm 2 (augmented Lagrangian - fast projected gradient) for the
// sub-problems, the pWSS selection of section 3. docs/exact.md states the
// algorithm, our departures and the measurements behind them.
//
// Each decomposition round:
//   1. pWSS (wss.hpp) picks up to p pairs B among the active, non-excluded
//      positions: the i columns in one block, then the j columns in another;
//   2. the sub-problem on B, warm-started at a_B: by SMO steps on the dense
//      Q_BB (subproblem_smo.hpp, our default) or by the paper's augmented
//      Lagrangian with FPGM (alfpgm_subproblem.hpp, subproblem="fpgm");
//   3. G += Q_:B delta from the kernel cache (G_bar where a bound changed),
//      the next round's candidates scanned range by range in the same pass
//      (wss.hpp, NextScan);
//   4. MinMaxLimiter: a position leaves selection after max_alpha_opt uses,
//      or after min_alpha_opt uses while at a bound and moving less than
//      delta_alpha.
// The run ends as LIBSVM's: excluded and then shrunk positions are
// re-admitted before stopping, so the gap over all n is below tol.
//
// Our departures: SMO steps solve the sub-problem by default (step 2);
// LIBSVM's shrinking runs alongside the limiter; the sub-problem tolerance
// follows the outer gap; a round that does not decrease the objective
// falls back to the SMO step on its first pair;
// identical copies of a point in B have their alpha gathered on as few
// copies as the bounds allow (merge_duplicates); default p = 32; after
// three rounds in a row whose sub-problem did not reach its tolerance, SMO
// finishes the run from the current point (ill-conditioned working sets).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "alfpgm_subproblem.hpp"
#include "dual_state.hpp"
#include "params.hpp"
#include "smo.hpp"
#include "subproblem_smo.hpp"
#include "wss.hpp"

namespace budgetsvm::exact {

struct AlfpgmReport : SolveReport {
  std::int64_t inner_iterations = 0;
  std::int64_t smo_fallbacks = 0;
  std::int64_t readmissions = 0;
  bool smo_handoff = false;  // the sub-problems stopped converging: SMO finished the run
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

namespace detail {

/// The sub-problem of one working set B, gathered from the state: Q_BB
/// (from the float kernel columns, symmetrised), a_B, G_B, y_B, the bounds
/// and chi = G_B - Q_BB a_B.
struct WorkingProblem {
  MatrixXd Q;
  VectorXd a_old, G, y, u, chi;
  std::vector<Index> places;

  void gather(const DualState& s, const std::vector<Index>& B, const std::vector<const float*>& cols) {
    const Index m = static_cast<Index>(B.size());
    Q.resize(m, m);
    a_old.resize(m);
    G.resize(m);
    y.resize(m);
    u.resize(m);
    for (Index r = 0; r < m; ++r) {
      const Index t = B[static_cast<std::size_t>(r)];
      a_old[r] = s.alpha(t);
      G[r] = s.G(t);
      y[r] = s.y(t);
      u[r] = s.upper(t);
    }
    places.resize(static_cast<std::size_t>(m));
    for (Index r = 0; r < m; ++r) places[static_cast<std::size_t>(r)] = s.where(B[static_cast<std::size_t>(r)]);
    for (Index c = 0; c < m; ++c) {
      const float* col = cols[static_cast<std::size_t>(c)];
      for (Index r = 0; r < m; ++r)
        Q(r, c) = y[r] * y[c] * static_cast<double>(col[places[static_cast<std::size_t>(r)]]);
    }
    Q = 0.5 * (Q + Q.transpose()).eval();  // float columns: symmetrise
    chi = G - Q * a_old;
  }
};

/// MinMaxLimiter (section 3.2): working-set uses per position; a position
/// leaves selection after max_alpha_opt uses, or after min_alpha_opt uses
/// while at a bound and moving less than delta_alpha.
class MinMaxLimiter {
 public:
  explicit MinMaxLimiter(Index n) : uses_(static_cast<std::size_t>(n), 0), excluded_(static_cast<std::size_t>(n), 0) {}
  bool excluded(Index t) const { return excluded_[static_cast<std::size_t>(t)] != 0; }
  bool any() const { return n_excluded_ > 0; }
  void readmit() {
    std::fill(excluded_.begin(), excluded_.end(), 0);
    std::fill(uses_.begin(), uses_.end(), 0);
    n_excluded_ = 0;
  }
  const char* excluded_data() const { return excluded_.data(); }
  /// Counts a use of t, whose alpha is about to become `value` (moved by `moved`).
  void record(const DualState& s, Index t, double value, double moved, const AlfpgmSettings& cfg) {
    const std::size_t ut = static_cast<std::size_t>(t);
    const int k = ++uses_[ut];
    const bool at_bound = value <= 0.0 || value >= s.upper(t);  // DualState's at_lower / at_upper
    const bool still = moved < cfg.delta_alpha;
    if (!excluded_[ut] && (k >= cfg.max_alpha_opt || (k >= cfg.min_alpha_opt && at_bound && still))) {
      excluded_[ut] = 1;
      ++n_excluded_;
    }
  }

 private:
  std::vector<int> uses_;
  std::vector<char> excluded_;
  Index n_excluded_ = 0;
};

}  // namespace detail

constexpr int kFailedRoundsBeforeSmo = 3;

inline AlfpgmReport solve_alfpgm(DualState& s, double tol, std::int64_t max_iter, bool shrinking,
                                 const AlfpgmSettings& cfg, RunControl& control) {
  AlfpgmReport report;
  const Index n = s.n();
  const std::int64_t bound = iteration_bound(max_iter, n);
  const int pairs = std::max(1, cfg.pairs);
  const std::int64_t shrink_every =
      std::max<std::int64_t>(1, std::min<std::int64_t>(n, 1000) / pairs);
  std::int64_t counter = shrink_every + 1;
  detail::MinMaxLimiter limiter(n);
  std::vector<char> used(static_cast<std::size_t>(n), 0);
  std::vector<Index> candidates;
  std::vector<const float*> cols;
  PairsScratch scratch;  // select_pairs' work space, kept between rounds
  const auto fetch = [&](const std::vector<Index>& list, std::vector<const float*>& out) {
    s.fetch_active(list, out);
  };
  SubproblemSettings sub;
  sub.mu = cfg.mu;
  detail::WorkingProblem P;
  VectorXd a;
  std::vector<double> values;

  int failed_rounds = 0;
  while (report.iterations < bound && failed_rounds < kFailedRoundsBeforeSmo) {
    control.poll();
    if (--counter == 0) {
      counter = shrink_every;
      if (shrinking) {
        s.shrink(tol, control);
        scratch.scanned = false;  // the active set changed since the scan
      }
    }
    candidates.clear();  // select_pairs reads them only when they were not scanned yet
    if (!scratch.scanned)
      for (Index t : s.active())
        if (!limiter.excluded(t)) candidates.push_back(t);
    WorkingSet ws = select_pairs(s, candidates, pairs, cfg.min_alpha_check, tol, used, fetch, scratch);
    if (ws.empty() && limiter.any()) {
      // Re-admit the excluded positions and check the active set again.
      limiter.readmit();
      ++report.readmissions;
      ws = select_pairs(s, s.active(), pairs, cfg.min_alpha_check, tol, used, fetch, scratch);
    }
    if (ws.empty()) {
      if (!s.shrunk()) {
        report.converged = true;
        break;
      }
      // Restore the shrunk positions and check again over all n.
      s.unshrink(control);
      ws = select_pairs(s, s.active(), pairs, cfg.min_alpha_check, tol, used, fetch, scratch);
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
    P.gather(s, B, cols);
    a = P.a_old;
    sub.eps = std::max(0.5 * tol, 1e-3 * ws.violation.gap());
    const SubproblemReport sr = cfg.subproblem == Subproblem::smo
                                    ? solve_subproblem_smo(P.Q, P.chi, P.y, P.u, a, sub.eps)
                                    : solve_subproblem(P.Q, P.chi, P.y, P.u, P.y.dot(P.a_old), a, sub);
    report.inner_iterations += sr.inner_iterations;
    // A sub-problem that spends its whole inner budget without reaching its
    // tolerance is too ill-conditioned for the projected gradient (kernel
    // values spanning many orders of magnitude); after a few such rounds
    // the analytic pair steps of SMO finish the run.
    failed_rounds = sr.final_violation >= sub.eps ? failed_rounds + 1 : 0;
    merge_duplicates(P.Q, P.y, P.u, a);
    const VectorXd delta = a - P.a_old;
    const double decrease = delta.dot(P.G) + 0.5 * delta.dot(P.Q * delta);
    values.assign(a.data(), a.data() + m);
    if (!(decrease < 0.0)) {
      // No progress: take the analytic step on the first pair instead.
      ++report.smo_fallbacks;
      values.assign(P.a_old.data(), P.a_old.data() + m);
      const Index i = ws.first[0], j = ws.second[0];
      const Index jj = static_cast<Index>(ws.first.size());  // position of j in B
      const PairStep step = pair_step(s, i, j, cols[0], cols[static_cast<std::size_t>(jj)]);
      values[0] = step.alpha_i;
      values[static_cast<std::size_t>(jj)] = step.alpha_j;
    }
    for (Index r = 0; r < m; ++r) {
      const double value = values[static_cast<std::size_t>(r)];
      limiter.record(s, B[static_cast<std::size_t>(r)], value, std::fabs(value - P.a_old[r]), cfg);
    }
    // The move scans the next round's candidates as it updates G (NextScan).
    NextScan next(s, scratch.scan, static_cast<std::size_t>(pairs), limiter.excluded_data());
    s.move(B, values, cols, cfg.scan_in_move ? &next : nullptr);  // cols are invalid from here on
    if (cfg.scan_in_move) {
      next.join();
      scratch.scanned = true;
    }
  }
  s.unshrink(control);
  if (failed_rounds >= kFailedRoundsBeforeSmo && report.iterations < bound) {
    report.smo_handoff = true;
    const SolveReport rest = solve_smo(s, tol, bound - report.iterations, shrinking, control);
    report.iterations += rest.iterations;
    report.converged = rest.converged;
  }
  return report;
}

}  // namespace budgetsvm::exact
