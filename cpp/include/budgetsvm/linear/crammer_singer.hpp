// Crammer and Singer's multi-class linear SVM (LIBLINEAR's solver 4;
// scikit-learn's LinearSVC(multi_class="crammer_singer")): one joint
// problem over K weight vectors,
//
//   min_w 1/2 sum_m ||w_m||^2 + sum_i C_i max_m (e_i^m + <w_m - w_{y_i}, x~_i>),
//   e_i^m = 0 if m = y_i else 1,
//
// solved in the dual by the sequential dual method (Keerthi, Sundararajan,
// Chang, Hsieh and Lin 2008): for one sample i at a time, the K variables
// alpha_i^m (sum_m alpha_i^m = 0, alpha_i^m <= C_i [m = y_i]) are set to the
// exact minimiser of their sub-problem
//   min 1/2 A_i ||alpha_i||^2 + B^T alpha_i,  A_i = ||x~_i||^2,
//   B_m = G_m - A_i alpha_i^m,  G_m = <w_m, x~_i> + e_i^m,
// found by sorting (their section 3), w_m = sum_i alpha_i^m x~_i. Variables
// that sit at their bound with a gradient below the smallest one that can
// move are shrunk, per sample, and samples with fewer than two free
// variables leave the sweep; the run stops when the largest
// max_m G_m - min_{movable} G_m of a sweep over everything is below tol
// (LIBLINEAR's rule, with its shrinking tolerance max(10 tol, 1) halved on
// each restart).
//
// Where we differ from LIBLINEAR: the bias is x~'s constant feature s as in
// our other linear solvers (regularised, as LIBLINEAR's -B); samples with
// C_i = 0 are left out; the dual objective is reported.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "../core/control.hpp"
#include "../core/random.hpp"
#include "dual_cd.hpp"

namespace budgetsvm::linear {

namespace detail {

/// The sub-problem of one sample over its `active` first variables (in
/// the order of B); yi: the place of the true class among them (>= active
/// when shrunk away). Writes the minimiser to alpha_new.
inline void crammer_singer_subproblem(double A, Index yi, double C_yi, Index active, const std::vector<double>& B,
                                      std::vector<double>& D, std::vector<double>& alpha_new) {
  D.assign(B.begin(), B.begin() + active);
  if (yi < active) D[static_cast<std::size_t>(yi)] += A * C_yi;
  std::sort(D.begin(), D.end(), std::greater<double>());
  double beta = D[0] - A * C_yi;
  Index r = 1;
  for (; r < active && beta < static_cast<double>(r) * D[static_cast<std::size_t>(r)]; ++r) beta += D[static_cast<std::size_t>(r)];
  beta /= static_cast<double>(r);
  for (Index m = 0; m < active; ++m) {
    const double v = (beta - B[static_cast<std::size_t>(m)]) / A;
    alpha_new[static_cast<std::size_t>(m)] = m == yi ? std::min(C_yi, v) : std::min(0.0, v);
  }
}

/// Shrinks one sample's variables (a: its alpha by class, places: the
/// classes in place order, first `act` active; yi: the true class's place):
/// a variable at its bound with a gradient below min_G cannot move; it is
/// swapped behind the active ones.
inline void crammer_singer_shrink(const double* a, Index* places, std::vector<double>& G, Index& act, Index& yi,
                                  double C_i, double min_G) {
  const auto shrinkable = [&](Index m) {
    const double bound = m == yi ? C_i : 0.0;
    return a[places[m]] == bound && G[static_cast<std::size_t>(m)] < min_G;
  };
  for (Index m = 0; m < act; ++m) {
    if (!shrinkable(m)) continue;
    --act;
    while (act > m) {
      if (!shrinkable(act)) {
        std::swap(places[m], places[act]);
        std::swap(G[static_cast<std::size_t>(m)], G[static_cast<std::size_t>(act)]);
        if (yi == act) yi = m; else if (yi == m) yi = act;
        break;
      }
      --act;
    }
  }
}

}  // namespace detail

/// K >= 2 classes, labels[i] in [0, K), per-sample C_i >= 0. Returns one
/// Result per class: w (d + 1 entries, the last the bias weight), alpha
/// (alpha_i^m of every sample), the run's stats (the same in each).
template <class View>
std::vector<Result> solve_crammer_singer(const View& X, const std::vector<int>& labels, int K,
                                         const std::vector<double>& C, const Options& options, RunControl& control) {
  options.validate();
  const Index n = X.rows(), d = X.cols(), dw = d + 1;
  const double s = options.bias_scale;
  const auto Km = static_cast<std::size_t>(K);
  std::vector<double> W(static_cast<std::size_t>(dw) * Km, 0.0), alpha(static_cast<std::size_t>(n) * Km, 0.0);
  std::vector<double> QD(static_cast<std::size_t>(n));
  std::vector<Index> index, active_k(static_cast<std::size_t>(n), K), y_place(static_cast<std::size_t>(n));
  std::vector<Index> alpha_index(static_cast<std::size_t>(n) * Km);
  for (Index i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    require(labels[u] >= 0 && labels[u] < K, "label index out of range");
    require(std::isfinite(C[u]) && C[u] >= 0, "per-sample C must be finite and >= 0");
    for (int m = 0; m < K; ++m) alpha_index[u * Km + static_cast<std::size_t>(m)] = m;
    y_place[u] = labels[u];
    QD[u] = X.squared_norm(i) + s * s;
    if (C[u] > 0) index.push_back(i);
  }
  std::vector<double> G(Km), B(Km), D, alpha_new(Km);
  // G_m += <w_{alpha_index[m]}, x~_i> over the first `active` places.
  const auto add_scores = [&](Index i, const Index* places, Index active) {
    X.for_each(i, [&](Index j, double v) {
      const double* wj = &W[static_cast<std::size_t>(j) * Km];
      for (Index m = 0; m < active; ++m) G[static_cast<std::size_t>(m)] += wj[places[m]] * v;
    });
    const double* wb = &W[static_cast<std::size_t>(d) * Km];
    for (Index m = 0; m < active; ++m) G[static_cast<std::size_t>(m)] += wb[places[m]] * s;
  };
  Index active_size = static_cast<Index>(index.size());
  double eps_shrink = std::max(10.0 * options.tol, 1.0);
  bool start_from_all = true;
  Random rng(options.seed);
  Stats stats;
  for (;;) {
    double stopping = -std::numeric_limits<double>::infinity();
    for (Index k = 0; k + 1 < active_size; ++k)
      std::swap(index[static_cast<std::size_t>(k)],
                index[static_cast<std::size_t>(k + static_cast<Index>(rng.below(static_cast<std::uint64_t>(active_size - k))))]);
    for (Index k = 0; k < active_size; ++k) {
      control.poll();
      ++stats.steps;
      const Index i = index[static_cast<std::size_t>(k)];
      const auto u = static_cast<std::size_t>(i);
      const double A = QD[u];
      if (!(A > 0.0)) continue;  // an all-zero row (no bias): nothing to move
      double* a = &alpha[u * Km];
      Index* places = &alpha_index[u * Km];
      Index& act = active_k[u];
      Index& yi = y_place[u];
      for (Index m = 0; m < act; ++m) G[static_cast<std::size_t>(m)] = 1.0;
      if (yi < act) G[static_cast<std::size_t>(yi)] = 0.0;
      add_scores(i, places, act);
      double min_G = std::numeric_limits<double>::infinity(), max_G = -min_G;
      for (Index m = 0; m < act; ++m) {
        if (a[places[m]] < 0.0) min_G = std::min(min_G, G[static_cast<std::size_t>(m)]);
        max_G = std::max(max_G, G[static_cast<std::size_t>(m)]);
      }
      if (yi < act && a[places[yi]] < C[u]) min_G = std::min(min_G, G[static_cast<std::size_t>(yi)]);
      detail::crammer_singer_shrink(a, places, G, act, yi, C[u], min_G);
      if (act <= 1) {
        std::swap(index[static_cast<std::size_t>(k)], index[static_cast<std::size_t>(--active_size)]);
        --k;
        continue;
      }
      if (max_G - min_G <= 1e-12) continue;
      stopping = std::max(stopping, max_G - min_G);
      for (Index m = 0; m < act; ++m) B[static_cast<std::size_t>(m)] = G[static_cast<std::size_t>(m)] - A * a[places[m]];
      detail::crammer_singer_subproblem(A, yi, C[u], act, B, D, alpha_new);
      // w_m += (change of alpha_i^m) x~_i for the variables that moved.
      for (Index m = 0; m < act; ++m) {
        const double delta = alpha_new[static_cast<std::size_t>(m)] - a[places[m]];
        a[places[m]] = alpha_new[static_cast<std::size_t>(m)];
        if (std::fabs(delta) < 1e-12) continue;
        const auto col = static_cast<std::size_t>(places[m]);
        X.for_each(i, [&](Index j, double v) { W[static_cast<std::size_t>(j) * Km + col] += delta * v; });
        W[static_cast<std::size_t>(d) * Km + col] += delta * s;
      }
    }
    ++stats.sweeps;
    stats.kkt_violation = std::max(0.0, stopping);
    if (stopping < eps_shrink) {
      if (stopping < options.tol && start_from_all) break;
      active_size = static_cast<Index>(index.size());  // everything back, a tighter shrinking tolerance
      std::fill(active_k.begin(), active_k.end(), K);
      eps_shrink = std::max(eps_shrink / 2.0, options.tol);
      start_from_all = true;
    } else {
      start_from_all = false;
    }
    if (options.max_iter > 0 && stats.sweeps >= options.max_iter) {
      stats.status = Status::max_iter_reached;
      break;
    }
  }
  // Dual objective (maximisation form): -1/2 sum_m ||w_m||^2 - sum_i sum_{m != y_i} alpha_i^m.
  double ww = 0.0, linear_part = 0.0;
  for (double v : W) ww += v * v;
  for (Index i = 0; i < n; ++i)
    for (int m = 0; m < K; ++m)
      if (m != labels[static_cast<std::size_t>(i)]) linear_part += alpha[static_cast<std::size_t>(i) * Km + static_cast<std::size_t>(m)];
  stats.dual_objective = -0.5 * ww - linear_part;
  std::vector<Result> results(Km);
  for (std::size_t m = 0; m < Km; ++m) {
    results[m].w.resize(static_cast<std::size_t>(dw));
    for (Index j = 0; j < dw; ++j) results[m].w[static_cast<std::size_t>(j)] = W[static_cast<std::size_t>(j) * Km + m];
    results[m].alpha.resize(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) results[m].alpha[static_cast<std::size_t>(i)] = alpha[static_cast<std::size_t>(i) * Km + m];
    results[m].stats = stats;
  }
  return results;
}

}  // namespace budgetsvm::linear
