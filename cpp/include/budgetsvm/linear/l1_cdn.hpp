// L1-regularised linear SVM with the squared hinge loss (LIBLINEAR's
// solver 5; scikit-learn's LinearSVC(penalty="l1", dual=False)):
//
//   min_w  ||w||_1 + sum_i C_i max(0, 1 - y_i <w, x~_i>)^2
//
// x~_i = (x_i, s) with a bias (its weight is regularised too, as LIBLINEAR
// does by default). There is no useful dual, so the primal is solved by
// coordinate descent over the features, CDN (Yuan, Chang, Hsieh and Lin
// 2010, "A comparison of optimization methods and software for large-scale
// L1-regularized linear classification", section 4.1): for feature j, with
// b_i = 1 - y_i <w, x~_i> kept for every sample,
//   L'_j  = -2 sum_{b_i > 0} C_i y_i x_ij b_i,
//   L''_j =  2 sum_{b_i > 0} C_i x_ij^2            (generalised, >= 1e-12),
// the Newton direction of the piecewise quadratic model with |w_j + d|,
//   d = -(L'_j + 1) / L''_j  if L'_j + 1 <= L''_j w_j,
//       -(L'_j - 1) / L''_j  if L'_j - 1 >= L''_j w_j,   else -w_j,
// then backtracking d <- d / 2 until the decrease is at least
// sigma (|w_j + d| - |w_j| + L'_j d), sigma = 0.01, first tried against the
// cheap upper bound sum_i C_i x_ij^2 d^2 + L'_j d of the loss change. Zero
// weights whose subgradient interval holds 0 with margin Gmax_prev / n leave
// the active set (shrinking); the run stops when the sum of the
// minimum-norm subgradients falls below eps times its value in the first
// sweep, with eps = tol min(n_+, n_-) / n as LIBLINEAR sets it, confirmed
// over all features.
//
// Where we differ from LIBLINEAR: the column copy of X is built here (rows
// stay where the caller has them); b is recomputed from w when a line search
// runs out of halvings, as LIBLINEAR does, and also at the end so that the
// reported objective carries no drift. alpha_i = 2 C_i max(0, b_i) (the
// loss's derivative, the dual variable of the L2 problem) is reported for
// inspection only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "../core/control.hpp"
#include "../core/random.hpp"
#include "dual_cd.hpp"

namespace budgetsvm::linear {

namespace detail {

/// X~ by columns with y folded in: column j holds (i, y_i x~_ij); the bias
/// column (value s) is the last one when s > 0.
struct SignedColumns {
  std::vector<std::size_t> start;
  std::vector<Index> row;
  std::vector<double> value;
  Index count = 0;

  template <class View>
  SignedColumns(const View& X, const double* y, double s) {
    const Index n = X.rows(), d = X.cols();
    count = d + (s > 0.0 ? 1 : 0);
    start.assign(static_cast<std::size_t>(count) + 1, 0);
    for (Index i = 0; i < n; ++i)
      X.for_each(i, [&](Index j, double v) {
        if (v != 0.0) ++start[static_cast<std::size_t>(j) + 1];
      });
    if (s > 0.0) start[static_cast<std::size_t>(d) + 1] = static_cast<std::size_t>(n);
    for (std::size_t j = 0; j < static_cast<std::size_t>(count); ++j) start[j + 1] += start[j];
    row.resize(start.back());
    value.resize(start.back());
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    // Rows in order, so each column lists its rows ascending; repeated CSR
    // entries of a row stay separate (their sum is what counts everywhere).
    for (Index i = 0; i < n; ++i) {
      const double yi = y[static_cast<std::size_t>(i)];
      X.for_each(i, [&](Index j, double v) {
        if (v == 0.0) return;
        std::size_t& k = next[static_cast<std::size_t>(j)];
        row[k] = i;
        value[k++] = yi * v;
      });
      if (s > 0.0) {
        std::size_t& k = next[static_cast<std::size_t>(d)];
        row[k] = i;
        value[k++] = yi * s;
      }
    }
  }
};

/// L'_j (G_loss) and the generalised L''_j (H, floored at 1e-12) of the
/// loss at b over column entries [lo, hi).
inline void l1_derivatives(const SignedColumns& cols, const double* C, const std::vector<double>& b,
                           std::size_t lo, std::size_t hi, double& G_loss, double& H) {
  for (std::size_t k = lo; k < hi; ++k) {
    const double bi = b[static_cast<std::size_t>(cols.row[k])];
    if (bi > 0.0) {
      const double t = C[static_cast<std::size_t>(cols.row[k])] * cols.value[k];
      G_loss -= t * bi;
      H += t * cols.value[k];
    }
  }
  G_loss *= 2.0;
  H = std::max(2.0 * H, 1e-12);
}

/// Backtracking on the step d of weight wj (column entries [lo, hi)): b
/// follows w_j + d as d halves (d_old: what b holds); the cheap bound
/// xj_sq d^2 + L'_j d of the loss change is tried before the exact change.
/// Returns false when every halving failed (b then holds w_j + 2 d).
inline bool l1_line_search(const SignedColumns& cols, const double* C, std::vector<double>& b, std::size_t lo,
                           std::size_t hi, double xj_sq, double wj, double G_loss, double& d) {
  constexpr double sigma = 0.01;
  constexpr int max_line_search = 20;
  double delta = std::fabs(wj + d) - std::fabs(wj) + G_loss * d;
  double d_old = 0.0, loss_old = 0.0;
  for (int tries = 0; tries < max_line_search; ++tries) {
    const double d_diff = d_old - d;
    double cond = std::fabs(wj + d) - std::fabs(wj) - sigma * delta;
    if (xj_sq * d * d + G_loss * d + cond <= 0.0) {
      for (std::size_t k = lo; k < hi; ++k) b[static_cast<std::size_t>(cols.row[k])] += d_diff * cols.value[k];
      return true;
    }
    double loss_new = 0.0;
    for (std::size_t k = lo; k < hi; ++k) {
      const std::size_t i = static_cast<std::size_t>(cols.row[k]);
      if (tries == 0 && b[i] > 0.0) loss_old += C[i] * b[i] * b[i];
      b[i] += d_diff * cols.value[k];
      if (b[i] > 0.0) loss_new += C[i] * b[i] * b[i];
    }
    cond += loss_new - loss_old;
    if (cond <= 0.0) return true;
    d_old = d;
    d *= 0.5;
    delta *= 0.5;
  }
  return false;
}

}  // namespace detail

/// Solves the L1 problem for labels y (+-1) and per-sample C_i >= 0.
/// options: tol, max_iter (sweeps, 0 = unlimited), bias_scale, seed.
template <class View>
Result solve_l1_squared_hinge(const View& X, const double* y, const double* C, const Options& options,
                              RunControl& control) {
  options.validate();
  const Index n = X.rows();
  Index n_pos = 0;
  for (Index i = 0; i < n; ++i) {
    const double yi = y[static_cast<std::size_t>(i)];
    require(yi == 1.0 || yi == -1.0, "binary labels must be +1 or -1");
    require(std::isfinite(C[static_cast<std::size_t>(i)]) && C[static_cast<std::size_t>(i)] >= 0,
            "per-sample C must be finite and >= 0");
    n_pos += yi > 0 ? 1 : 0;
  }
  const detail::SignedColumns cols(X, y, options.bias_scale);
  const Index m = cols.count;
  const double eps = options.tol * static_cast<double>(std::min(n_pos, n - n_pos)) / static_cast<double>(std::max<Index>(n, 1));
  std::vector<double> w(static_cast<std::size_t>(m), 0.0), b(static_cast<std::size_t>(n), 1.0);
  std::vector<double> xj_sq(static_cast<std::size_t>(m), 0.0);
  for (Index j = 0; j < m; ++j)
    for (std::size_t k = cols.start[static_cast<std::size_t>(j)]; k < cols.start[static_cast<std::size_t>(j) + 1]; ++k)
      xj_sq[static_cast<std::size_t>(j)] += C[static_cast<std::size_t>(cols.row[k])] * cols.value[k] * cols.value[k];
  const auto recompute_b = [&] {
    std::fill(b.begin(), b.end(), 1.0);
    for (Index j = 0; j < m; ++j) {
      const double wj = w[static_cast<std::size_t>(j)];
      if (wj == 0.0) continue;
      for (std::size_t k = cols.start[static_cast<std::size_t>(j)]; k < cols.start[static_cast<std::size_t>(j) + 1]; ++k)
        b[static_cast<std::size_t>(cols.row[k])] -= wj * cols.value[k];
    }
  };

  std::vector<Index> active(static_cast<std::size_t>(m));
  for (Index j = 0; j < m; ++j) active[static_cast<std::size_t>(j)] = j;
  Index active_size = m;
  double gmax_old = std::numeric_limits<double>::infinity(), gnorm1_init = -1.0;
  Random rng(options.seed);
  Stats stats;
  for (;;) {
    double gmax_new = 0.0, gnorm1_new = 0.0;
    for (Index s = 0; s + 1 < active_size; ++s) {
      const Index r = s + static_cast<Index>(rng.below(static_cast<std::uint64_t>(active_size - s)));
      std::swap(active[static_cast<std::size_t>(s)], active[static_cast<std::size_t>(r)]);
    }
    for (Index s = 0; s < active_size; ++s) {
      control.poll();
      ++stats.steps;
      const Index j = active[static_cast<std::size_t>(s)];
      const std::size_t lo = cols.start[static_cast<std::size_t>(j)], hi = cols.start[static_cast<std::size_t>(j) + 1];
      double& wj = w[static_cast<std::size_t>(j)];
      double G_loss = 0.0, H = 0.0;
      detail::l1_derivatives(cols, C, b, lo, hi, G_loss, H);
      const double Gp = G_loss + 1.0, Gn = G_loss - 1.0;
      double violation = 0.0;
      if (wj == 0.0) {
        if (Gp < 0.0) {
          violation = -Gp;
        } else if (Gn > 0.0) {
          violation = Gn;
        } else if (Gp > gmax_old / static_cast<double>(n) && Gn < -gmax_old / static_cast<double>(n)) {
          std::swap(active[static_cast<std::size_t>(s)], active[static_cast<std::size_t>(--active_size)]);
          --s;
          continue;
        }
      } else {
        violation = wj > 0.0 ? std::fabs(Gp) : std::fabs(Gn);
      }
      gmax_new = std::max(gmax_new, violation);
      gnorm1_new += violation;
      double d = Gp < H * wj ? -Gp / H : Gn > H * wj ? -Gn / H : -wj;
      if (std::fabs(d) < 1.0e-12) continue;
      const bool found = detail::l1_line_search(cols, C, b, lo, hi, xj_sq[static_cast<std::size_t>(j)], wj, G_loss, d);
      wj += d;
      if (!found) recompute_b();  // b went through every halving: drop the drift
    }
    ++stats.sweeps;
    if (gnorm1_init < 0.0) gnorm1_init = gnorm1_new;
    stats.kkt_violation = gmax_new;
    if (gnorm1_new <= eps * gnorm1_init) {
      if (active_size == m) break;
      active_size = m;  // confirm over every feature
      gmax_old = std::numeric_limits<double>::infinity();
      if (options.max_iter > 0 && stats.sweeps >= options.max_iter) {
        stats.status = Status::max_iter_reached;
        break;
      }
      continue;
    }
    gmax_old = gmax_new;
    if (options.max_iter > 0 && stats.sweeps >= options.max_iter) {
      stats.status = Status::max_iter_reached;
      break;
    }
  }
  recompute_b();
  Result result;
  result.alpha.assign(static_cast<std::size_t>(n), 0.0);
  double objective = 0.0;
  for (Index i = 0; i < n; ++i) {
    const double bi = std::max(0.0, b[static_cast<std::size_t>(i)]);
    objective += C[static_cast<std::size_t>(i)] * bi * bi;
    result.alpha[static_cast<std::size_t>(i)] = 2.0 * C[static_cast<std::size_t>(i)] * bi;
  }
  for (double v : w) objective += std::fabs(v);
  stats.dual_objective = std::numeric_limits<double>::quiet_NaN();
  stats.primal_objective = objective;
  result.w.assign(static_cast<std::size_t>(X.cols()) + 1, 0.0);
  for (Index j = 0; j < m; ++j) result.w[static_cast<std::size_t>(j)] = w[static_cast<std::size_t>(j)];
  result.stats = stats;
  return result;
}

}  // namespace budgetsvm::linear
