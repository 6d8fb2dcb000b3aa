// The ALFPGM sub-problem (Aregbesola and Griva 2022, eq. (3)-(11); Bloom,
// Griva and Quijada 2016):
//
//   min_a  f(a) = 1/2 a^T Q a + chi^T a
//   s.t.   g(a) = y^T a - c = 0,  0 <= a <= u            (a, y, u in R^m)
//
// solved by the augmented Lagrangian L_mu = f - lambda g + mu/2 g^2
// (mu = 0.1): the inner box-constrained minimisation of L_mu by the fast
// projected gradient method (FISTA) with step 1/L, the multiplier update
// lambda <- lambda - mu g, until max(nu, |g|) < eps, nu the violation of the
// inner first-order conditions, eq. (11).
//
// Where we differ from the paper (docs/exact.md):
// - L = lambda_1(Q) + m mu (the norm of y y^T is m = |B|, not the problem
//   size). lambda_1 comes from power iteration, which approaches it from
//   below: we take 1.1 times the estimate (capped by the largest absolute
//   row sum, a true upper bound) and double L whenever a plain projected
//   step fails to decrease L_mu, so an estimate below lambda_1 cannot make
//   FPGM diverge.
// - FISTA restarts its momentum when L_mu increases (O'Donoghue and
//   Candes 2015); this keeps the method monotone on ill-conditioned Q_BB.
// - The result is finally projected exactly onto {box, y^T a = c} (a 1-D
//   search on the shift theta of clip(a + theta y)), so that the full
//   problem's equality constraint never drifts.
// - The warm start is the current a_B; lambda starts at the middle of the
//   sub-problem's violating interval.
// - The multiplier: the paper's lambda <- lambda - mu g converges linearly
//   with a rate near 1 for mu = 0.1 (hundreds of rounds on small
//   well-conditioned Q). g(x(lambda)) is monotone in lambda, so we take the
//   paper's step (doubled while g keeps its sign) until lambda is
//   bracketed, then regula falsi (Illinois) on g(lambda) = 0.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "../core/eigen.hpp"
#include "../core/simd.hpp"

namespace budgetsvm::exact {

struct SubproblemSettings {
  double mu = 0.1;
  double eps = 1e-3;           // on max(nu, |g|)
  int max_inner = 2000;        // FPGM iterations per multiplier update
  int max_outer = 200;         // multiplier updates
  int power_iterations = 20;
};

struct SubproblemReport {
  int inner_iterations = 0;
  int outer_iterations = 0;
  double lipschitz = 0.0;
  double final_violation = 0.0;  // max(nu, |g|) before the exact projection
};

/// Largest eigenvalue estimate of the symmetric PSD matrix Q, with a
/// safety margin and capped by the largest absolute row sum.
inline double lipschitz_bound(const MatrixXd& Q, int iterations) {
  const Index m = Q.rows();
  if (m == 0) return 0.0;
  const double row_sum_bound = Q.cwiseAbs().rowwise().sum().maxCoeff();
  VectorXd v = VectorXd::Ones(m) / std::sqrt(static_cast<double>(m));
  // A deterministic start with components of both signs avoids being
  // orthogonal to the leading eigenvector of y y^T-structured matrices.
  for (Index k = 0; k < m; ++k) v[k] *= 1.0 + 0.1 * static_cast<double>(k % 7);
  v.normalize();
  double estimate = 0.0;
  VectorXd w(m);
  for (int it = 0; it < iterations; ++it) {
    w.noalias() = Q * v;
    const double norm = w.norm();
    if (norm <= 0.0) break;
    estimate = v.dot(w);
    v = w / norm;
  }
  return std::min(row_sum_bound, std::max(1.1 * estimate, 1e-12));
}

/// Exact projection of a onto {0 <= a <= u, y^T a = c} along y (y_k = +-1):
/// a <- clip(a + theta y) with theta chosen so that y^T a = c.
inline void project_onto_feasible(VectorXd& a, const VectorXd& y, const VectorXd& u, double c) {
  const Index m = a.size();
  const auto value = [&](double theta) {
    double s = 0.0;
    for (Index k = 0; k < m; ++k) s += y[k] * std::clamp(a[k] + theta * y[k], 0.0, u[k]);
    return s;
  };
  // value(theta) is non-decreasing in theta; beyond +-span every variable
  // sits at a bound.
  const double span = 2.0 * (u.maxCoeff() + a.cwiseAbs().maxCoeff()) + 1.0;
  double lo = -span, hi = span;
  for (int it = 0; it < 200 && hi - lo > 0.0; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    if (value(mid) < c) lo = mid; else hi = mid;
  }
  const double theta = (std::fabs(value(lo) - c) <= std::fabs(value(hi) - c)) ? lo : hi;
  for (Index k = 0; k < m; ++k) a[k] = std::clamp(a[k] + theta * y[k], 0.0, u[k]);
  // Put the rounding residual on one free variable.
  double residual = c - y.dot(a);
  for (Index k = 0; k < m && residual != 0.0; ++k) {
    const double moved = a[k] + y[k] * residual;
    if (moved > 0.0 && moved < u[k]) {
      a[k] = moved;
      residual = 0.0;
    }
  }
}

/// Solves the sub-problem from the warm start a (feasible or not); a is
/// overwritten by a feasible point.
inline SubproblemReport solve_subproblem(const MatrixXd& Q, const VectorXd& chi, const VectorXd& y,
                                         const VectorXd& u, double c, VectorXd& a,
                                         const SubproblemSettings& settings) {
  SubproblemReport report;
  const Index m = a.size();
  // Q v, the cost of every FPGM iteration: vectorised (simd.hpp), Q row-major.
  const auto gemv = simd::active_kernels().gemv;
  const auto times_Q = [&](const VectorXd& v, VectorXd& out) {
    out.resize(m);
    gemv(Q.data(), m, m, m, v.data(), out.data());
  };
  const double mu = settings.mu;
  double L = lipschitz_bound(Q, settings.power_iterations) + static_cast<double>(m) * mu;
  // Multiplier start: the middle of the violating interval, in which the
  // KKT multiplier lies (lambda = y_k (Qa + chi)_k for free k).
  VectorXd grad_f(m);
  times_Q(a, grad_f);
  grad_f += chi;
  {
    double up_max = -INFINITY, low_min = INFINITY;
    for (Index k = 0; k < m; ++k) {
      const double qk = -y[k] * grad_f[k];
      const bool in_up = y[k] > 0 ? a[k] < u[k] : a[k] > 0.0;
      const bool in_low = y[k] > 0 ? a[k] > 0.0 : a[k] < u[k];
      if (in_up) up_max = std::max(up_max, qk);
      if (in_low) low_min = std::min(low_min, qk);
    }
    // For free k, (Qa + chi)_k = lambda y_k, i.e. q_k = -lambda.
    const double mid = (std::isfinite(up_max) && std::isfinite(low_min)) ? 0.5 * (up_max + low_min)
                       : std::isfinite(up_max)                            ? up_max
                                                                          : low_min;
    report.lipschitz = L;
    a = a.cwiseMax(0.0).cwiseMin(u);
    double lambda = std::isfinite(mid) ? -mid : 0.0;

    VectorXd x = a, Qx(m), z = x, Qz(m), x_new(m), Qx_new(m), grad(m);
    times_Q(x, Qx);
    Qz = Qx;
    const auto g_of = [&](const VectorXd& v) { return y.dot(v) - c; };
    const auto L_mu = [&](const VectorXd& v, const VectorXd& Qv) {
      const double g = g_of(v);
      return 0.5 * v.dot(Qv) + chi.dot(v) - lambda * g + 0.5 * mu * g * g;
    };
    const auto nu_of = [&](const VectorXd& v, const VectorXd& Qv) {
      const double g = g_of(v);
      double nu = 0.0;
      for (Index k = 0; k < m; ++k) {
        const double gk = Qv[k] + chi[k] + (mu * g - lambda) * y[k];
        double vk;
        if (v[k] <= 0.0) vk = std::max(0.0, -gk);
        else if (v[k] >= u[k]) vk = std::max(0.0, gk);
        else vk = std::fabs(gk);
        nu = std::max(nu, vk);
      }
      return nu;
    };
    double lo = -INFINITY, hi = INFINITY, g_lo = 0.0, g_hi = 0.0, step = 1.0;
    int last_side = 0;
    for (int outer = 0; outer < settings.max_outer; ++outer) {
      ++report.outer_iterations;
      double fx = L_mu(x, Qx);
      double t = 1.0;
      z = x;
      Qz = Qx;
      bool momentum = false;
      double nu = nu_of(x, Qx);
      for (int inner = 0; inner < settings.max_inner && nu >= settings.eps; ++inner) {
        ++report.inner_iterations;
        const double gz = g_of(z);
        grad = Qz + chi + (mu * gz - lambda) * y;
        x_new = (z - grad / L).cwiseMax(0.0).cwiseMin(u);
        times_Q(x_new, Qx_new);
        const double f_new = L_mu(x_new, Qx_new);
        if (f_new > fx + 1e-14 * (1.0 + std::fabs(fx))) {
          if (!momentum) {
            L *= 2.0;  // a plain step failed: L was below the true constant
            report.lipschitz = L;
          }
          z = x;
          Qz = Qx;
          t = 1.0;
          momentum = false;
          continue;
        }
        const double t_new = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
        const double beta = (t - 1.0) / t_new;
        z = x_new + beta * (x_new - x);
        Qz = Qx_new + beta * (Qx_new - Qx);
        momentum = beta > 0.0;
        x.swap(x_new);
        Qx.swap(Qx_new);
        fx = f_new;
        t = t_new;
        nu = nu_of(x, Qx);
      }
      const double g = g_of(x);
      report.final_violation = std::max(nu, std::fabs(g));
      if (report.final_violation < settings.eps) break;
      // g(x(lambda)) is non-decreasing in lambda (lambda -> min_x L_mu is
      // concave with derivative -g): bracket its root, then regula falsi.
      if (g < 0.0) {
        lo = lambda;
        g_lo = g;
      } else {
        hi = lambda;
        g_hi = g;
      }
      if (std::isfinite(lo) && std::isfinite(hi)) {
        // Illinois variant: halve the stale end's value so both ends move.
        if (last_side == (g < 0.0 ? -1 : 1)) {
          if (g < 0.0) g_hi *= 0.5; else g_lo *= 0.5;
        }
        lambda = hi - g_hi * (hi - lo) / (g_hi - g_lo);
        if (!(lambda > lo && lambda < hi)) lambda = 0.5 * (lo + hi);
      } else {
        // The paper's update, lengthened while g keeps its sign.
        step = (last_side == (g < 0.0 ? -1 : 1)) ? 2.0 * step : 1.0;
        lambda -= step * mu * g;
      }
      last_side = g < 0.0 ? -1 : 1;
    }
    a = x;
  }
  project_onto_feasible(a, y, u, c);
  return report;
}

}  // namespace budgetsvm::exact
