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
// - Flat pairs first: where the pair direction a_r += y_r t, a_s -= y_s t
//   has no curvature in Q (coincident points), f is linear along it and
//   improves until a box bound, which FPGM's steps of 1/L approach only in
//   proportion to the distance (a near-hang with a huge C). Every such
//   improving pair is stepped to its bound exactly before FPGM starts
//   (step_flat_pairs), the same rule as the SMO step (smo.hpp).
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

/// Steps every pair (r, s) of the sub-problem along which f has no
/// curvature (Q_rr + Q_ss - 2 y_r y_s Q_rs <= 0) and decreases to the
/// first box bound, keeping y^T a. One pass in order; the gradient
/// Q a + chi is updated after each step. Returns the number of steps.
inline int step_flat_pairs(const MatrixXd& Q, const VectorXd& chi, const VectorXd& y, const VectorXd& u,
                           VectorXd& a) {
  const Index m = a.size();
  VectorXd grad = Q * a + chi;
  int steps = 0;
  for (Index r = 0; r < m; ++r) {
    for (Index s = r + 1; s < m; ++s) {
      if (Q(r, r) + Q(s, s) - 2.0 * y[r] * y[s] * Q(r, s) > 0.0) continue;
      // Along a_r += y_r t, a_s -= y_s t the slope is y_r grad_r - y_s grad_s;
      // the other orientation is t < 0.
      double slope = y[r] * grad[r] - y[s] * grad[s];
      const double sign = slope < 0.0 ? 1.0 : -1.0;
      slope *= sign;
      if (!(slope < 0.0)) continue;
      const double dr = sign * y[r], ds = -sign * y[s];  // a_r += dr t, a_s += ds t
      const double room_r = dr > 0 ? u[r] - a[r] : a[r];
      const double room_s = ds > 0 ? u[s] - a[s] : a[s];
      const double t = std::min(room_r, room_s);
      if (!(t > 0.0)) continue;
      const double new_r = room_r <= room_s ? (dr > 0 ? u[r] : 0.0) : std::clamp(a[r] + dr * t, 0.0, u[r]);
      const double new_s = room_s <= room_r ? (ds > 0 ? u[s] : 0.0) : std::clamp(a[s] + ds * t, 0.0, u[s]);
      grad += Q.col(r) * (new_r - a[r]) + Q.col(s) * (new_s - a[s]);
      a[r] = new_r;
      a[s] = new_s;
      ++steps;
    }
  }
  return steps;
}

namespace detail {

/// The augmented Lagrangian L_mu(a) = f(a) - lambda g(a) + mu/2 g(a)^2 of
/// the sub-problem for a fixed multiplier lambda, and the fast projected
/// gradient method (FISTA with restarts) that minimises it over the box.
class AugmentedLagrangian {
 public:
  AugmentedLagrangian(const MatrixXd& Q, const VectorXd& chi, const VectorXd& y, const VectorXd& u, double c,
                      double mu)
      : Q_(Q), chi_(chi), y_(y), u_(u), c_(c), mu_(mu), m_(chi.size()), gemv_(simd::active_kernels().gemv) {}

  double lambda = 0.0;

  /// Q v, the cost of every FPGM iteration: vectorised (simd.hpp), Q row-major.
  void times_Q(const VectorXd& v, VectorXd& out) const {
    out.resize(m_);
    gemv_(Q_.data(), m_, m_, m_, v.data(), out.data());
  }
  double g(const VectorXd& v) const { return y_.dot(v) - c_; }
  double value(const VectorXd& v, const VectorXd& Qv) const {
    const double gv = g(v);
    return 0.5 * v.dot(Qv) + chi_.dot(v) - lambda * gv + 0.5 * mu_ * gv * gv;
  }
  /// nu: the violation of the inner first-order conditions at v.
  double violation(const VectorXd& v, const VectorXd& Qv) const {
    const double gv = g(v);
    double nu = 0.0;
    for (Index k = 0; k < m_; ++k) {
      const double gk = Qv[k] + chi_[k] + (mu_ * gv - lambda) * y_[k];
      double vk;
      if (v[k] <= 0.0) vk = std::max(0.0, -gk);
      else if (v[k] >= u_[k]) vk = std::max(0.0, gk);
      else vk = std::fabs(gk);
      nu = std::max(nu, vk);
    }
    return nu;
  }

  /// FISTA from x (Qx = Q x) with step 1/L until nu < eps or max_inner
  /// iterations; momentum restarts when L_mu rises, and L doubles when a
  /// plain step fails (L was below the true constant). Returns nu.
  double minimise(VectorXd& x, VectorXd& Qx, double& L, const SubproblemSettings& settings,
                  SubproblemReport& report) {
    double fx = value(x, Qx);
    double t = 1.0;
    z_ = x;
    Qz_ = Qx;
    bool momentum = false;
    double nu = violation(x, Qx);
    for (int inner = 0; inner < settings.max_inner && nu >= settings.eps; ++inner) {
      ++report.inner_iterations;
      const double gz = g(z_);
      grad_ = Qz_ + chi_ + (mu_ * gz - lambda) * y_;
      x_new_ = (z_ - grad_ / L).cwiseMax(0.0).cwiseMin(u_);
      times_Q(x_new_, Qx_new_);
      const double f_new = value(x_new_, Qx_new_);
      if (f_new > fx + 1e-14 * (1.0 + std::fabs(fx))) {
        if (!momentum) {
          L *= 2.0;
          report.lipschitz = L;
        }
        z_ = x;
        Qz_ = Qx;
        t = 1.0;
        momentum = false;
        continue;
      }
      const double t_new = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * t * t));
      const double beta = (t - 1.0) / t_new;
      z_ = x_new_ + beta * (x_new_ - x);
      Qz_ = Qx_new_ + beta * (Qx_new_ - Qx);
      momentum = beta > 0.0;
      x.swap(x_new_);
      Qx.swap(Qx_new_);
      fx = f_new;
      t = t_new;
      nu = violation(x, Qx);
    }
    return nu;
  }

 private:
  const MatrixXd& Q_;
  const VectorXd &chi_, &y_, &u_;
  double c_, mu_;
  Index m_;
  void (*gemv_)(const double*, Index, Index, Index, const double*, double*);
  VectorXd z_, Qz_, x_new_, Qx_new_, grad_;  // scratch of minimise
};

/// The multiplier's search for g(x(lambda)) = 0: g is non-decreasing in
/// lambda (lambda -> min_x L_mu is concave with derivative -g), so the
/// paper's update (lengthened while g keeps its sign) until the root is
/// bracketed, then regula falsi, Illinois variant.
class MultiplierSearch {
 public:
  double next(double lambda, double g, double mu) {
    const int side = g < 0.0 ? -1 : 1;
    if (g < 0.0) {
      lo_ = lambda;
      g_lo_ = g;
    } else {
      hi_ = lambda;
      g_hi_ = g;
    }
    if (std::isfinite(lo_) && std::isfinite(hi_)) {
      if (last_side_ == side) {  // halve the stale end's value so both ends move
        if (g < 0.0) g_hi_ *= 0.5; else g_lo_ *= 0.5;
      }
      lambda = hi_ - g_hi_ * (hi_ - lo_) / (g_hi_ - g_lo_);
      if (!(lambda > lo_ && lambda < hi_)) lambda = 0.5 * (lo_ + hi_);
    } else {
      step_ = last_side_ == side ? 2.0 * step_ : 1.0;
      lambda -= step_ * mu * g;
    }
    last_side_ = side;
    return lambda;
  }

 private:
  double lo_ = -INFINITY, hi_ = INFINITY, g_lo_ = 0.0, g_hi_ = 0.0, step_ = 1.0;
  int last_side_ = 0;
};

/// The multiplier's start: the middle of the violating interval, in which
/// the KKT multiplier lies (for free k, (Qa + chi)_k = lambda y_k, i.e.
/// q_k = -lambda with q_k = -y_k (Qa + chi)_k).
inline double starting_multiplier(const VectorXd& grad_f, const VectorXd& y, const VectorXd& u, const VectorXd& a) {
  double up_max = -INFINITY, low_min = INFINITY;
  for (Index k = 0; k < a.size(); ++k) {
    const double qk = -y[k] * grad_f[k];
    const bool in_up = y[k] > 0 ? a[k] < u[k] : a[k] > 0.0;
    const bool in_low = y[k] > 0 ? a[k] > 0.0 : a[k] < u[k];
    if (in_up) up_max = std::max(up_max, qk);
    if (in_low) low_min = std::min(low_min, qk);
  }
  const double mid = (std::isfinite(up_max) && std::isfinite(low_min)) ? 0.5 * (up_max + low_min)
                     : std::isfinite(up_max)                            ? up_max
                                                                        : low_min;
  return std::isfinite(mid) ? -mid : 0.0;
}

}  // namespace detail

/// Solves the sub-problem from the warm start a (feasible or not); a is
/// overwritten by a feasible point.
inline SubproblemReport solve_subproblem(const MatrixXd& Q, const VectorXd& chi, const VectorXd& y,
                                         const VectorXd& u, double c, VectorXd& a,
                                         const SubproblemSettings& settings) {
  SubproblemReport report;
  const Index m = a.size();
  a = a.cwiseMax(0.0).cwiseMin(u);
  step_flat_pairs(Q, chi, y, u, a);
  detail::AugmentedLagrangian lagrangian(Q, chi, y, u, c, settings.mu);
  double L = lipschitz_bound(Q, settings.power_iterations) + static_cast<double>(m) * settings.mu;
  VectorXd grad_f(m);
  lagrangian.times_Q(a, grad_f);
  grad_f += chi;
  lagrangian.lambda = detail::starting_multiplier(grad_f, y, u, a);
  report.lipschitz = L;
  VectorXd x = a, Qx(m);
  lagrangian.times_Q(x, Qx);
  detail::MultiplierSearch search;
  for (int outer = 0; outer < settings.max_outer; ++outer) {
    ++report.outer_iterations;
    const double nu = lagrangian.minimise(x, Qx, L, settings, report);
    const double g = lagrangian.g(x);
    report.final_violation = std::max(nu, std::fabs(g));
    if (report.final_violation < settings.eps) break;
    lagrangian.lambda = search.next(lagrangian.lambda, g, settings.mu);
  }
  a = x;
  project_onto_feasible(a, y, u, c);
  return report;
}

}  // namespace budgetsvm::exact
