// Budget maintenance strategies (docs/budgeted.md, "The budget model"; Wang,
// Crammer & Vucetic, JMLR 2012, Section 4): called when the model holds
// B + 1 support vectors, each brings it back to B.
//
//   RemovalMaintenance     drop the SV with the smallest ||beta_j||^2 k(z_j, z_j).
//   ProjectionMaintenance  project that SV onto the span of the others,
//                          Delta beta = beta_p K_{-p}^{-1} k_p. We keep the
//                          inverse A = (K + rho I)^{-1} of the kernel matrix
//                          of all current SVs (rho = 1e-8, for duplicates),
//                          updated by bordering when an SV is added (O(B^2))
//                          and downdated when one leaves (O(B^2)); with it
//                          K_{-p}^{-1} k_p = -A_{-p,p} / A_pp, so an event
//                          costs O(B^2); a from-scratch refresh every B
//                          events (amortised O(B^2)) bounds rounding drift.
//   MergeMaintenance<S>    (Gaussian kernel) fix a = the SV with the smallest
//                          |beta| (multi-class: ||beta||^2), pick the partner
//                          with the smallest ||Delta||^2 (binary: only
//                          partners whose coefficient has a's sign, merge.hpp
//                          solver S ranks them; multi-class: all partners,
//                          exact 1-D search), replace both by (beta_z, z).
//                          No same-sign partner: fall back to removal of a.
//
// Each strategy exposes
//   on_add(model, krow, kself)  after model.add(); krow = kernel values of
//                               the new point against the previous SVs;
//                               returns true if the strategy absorbed the
//                               new SV at once (projection of a point in the
//                               span of the others)
//   on_clear()                  after model.clear()
//   reduce(model, counters, sq_norm, new_row)  the event; when sq_norm is
//                               non-null, ||w||^2 is updated exactly (the
//                               margin perceptron needs it for its ball
//                               projection; this costs one or two extra
//                               kernel rows). new_row (nullable): the
//                               kernel row of the last SV (the one just
//                               added) against the others, which the step's
//                               margin computed. Merging nearly always
//                               merges that SV away (it carries one step's
//                               weight); its row is then taken from there
//                               instead of being computed again.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>

#include "../core/stopwatch.hpp"
#include "merge.hpp"
#include "model.hpp"
#include "params.hpp"

namespace budgetsvm::budget {

namespace detail {

/// argmin_j ||beta_j||^2 k(z_j, z_j) over the stored coefficients.
inline Index smallest_support_vector(const BudgetModel& model) {
  Index best = 0;
  double best_value = std::numeric_limits<double>::infinity();
  const bool unit_diagonal = model.kernel().type == KernelType::rbf;
  for (Index j = 0; j < model.size(); ++j) {
    double v = 0.0;
    for (int c = 0; c < model.n_outputs(); ++c) v += model.coef(c)[j] * model.coef(c)[j];
    if (!unit_diagonal) v *= model.self_kernel_of_sv(j);
    if (v < best_value) best_value = v, best = j;
  }
  return best;
}

/// sum_c beta_p^c f_c(z_p) with the current model (one kernel row).
inline double inner_with_sv(BudgetModel& model, Index p, std::vector<double>& row) {
  model.kernel_row_of_sv(p, row.data());
  double s = 0.0;
  for (int c = 0; c < model.n_outputs(); ++c) s += model.beta(p, c) * model.margin(row.data(), c);
  return s;
}

}  // namespace detail

/// Hears every merge and removal of a MergeMaintenance (mix.hpp records
/// the reduction's steps to replay them on dot products, mix_gram.hpp).
class MergeListener {
 public:
  virtual ~MergeListener() = default;
  /// Support vectors a and b become h z_a + (1 - h) z_b in slot `into`;
  /// slot `gone` is removed (the last slot moves into it).
  virtual void merged(Index a, Index b, double h, Index into, Index gone) = 0;
  /// Support vector `gone` is removed (the last slot moves into it).
  virtual void removed(Index gone) = 0;

 protected:
  MergeListener() = default;
  MergeListener(const MergeListener&) = default;
  MergeListener& operator=(const MergeListener&) = default;
};

class RemovalMaintenance {
 public:
  explicit RemovalMaintenance(const BudgetModel& model)
      : row_(static_cast<std::size_t>(model.capacity())) {}

  static constexpr bool reads_kernel_row = false;  // on_add ignores its kernel row
  bool on_add(BudgetModel&, const double*, double) { return false; }
  void on_clear() {}
  void remove(BudgetModel& model, Index p) { model.remove(p); }

  void reduce(BudgetModel& model, Counters& counters, double* sq_norm, const double* = nullptr) {
    const Stopwatch watch;
    const Index p = detail::smallest_support_vector(model);
    if (sq_norm) {
      // ||w - beta_p phi_p||^2 = ||w||^2 - 2 <w, beta_p phi_p> + |beta_p|^2 k_pp
      double b2 = 0.0;
      for (int c = 0; c < model.n_outputs(); ++c) b2 += model.beta(p, c) * model.beta(p, c);
      *sq_norm += -2.0 * detail::inner_with_sv(model, p, row_) + b2 * model.self_kernel_of_sv(p);
    }
    model.remove(p);
    ++counters.removals;
    counters.maintenance_seconds += watch.seconds();
  }

 private:
  std::vector<double> row_;
};

class ProjectionMaintenance {
 public:
  static constexpr double kRidge = 1e-8;

  explicit ProjectionMaintenance(const BudgetModel& model)
      : cap_(model.capacity()),
        A_(static_cast<std::size_t>(cap_ * cap_), 0.0),
        b_(static_cast<std::size_t>(cap_), 0.0) {}

  static constexpr bool reads_kernel_row = true;  // on_add borders the inverse with it

  /// Bordering: with s = kself + rho - k^T A k and b = A k,
  /// A_new = [[A + b b^T / s, -b / s], [-b^T / s, 1 / s]].
  /// A new point that lies (numerically) in the span of the others
  /// (s tiny: a duplicate, or any point once a linear or
  /// polynomial kernel's budget exceeds its rank) is projected onto them at
  /// once, Delta beta = beta_new A k, and not added: that keeps K
  /// non-singular. Returns true when the new SV was absorbed that way.
  bool on_add(BudgetModel& model, const double* krow, double kself) {
    const Index n = model.size() - 1;  // previous size; the new SV sits in slot n
    for (Index i = 0; i < n; ++i) {
      double s = 0.0;
      const double* Ai = &A(i, 0);
      for (Index j = 0; j < n; ++j) s += Ai[j] * krow[j];
      b_[static_cast<std::size_t>(i)] = s;
    }
    double schur = kself + kRidge, b2 = 0.0;
    for (Index i = 0; i < n; ++i) {
      schur -= krow[i] * b_[static_cast<std::size_t>(i)];
      b2 += b_[static_cast<std::size_t>(i)] * b_[static_cast<std::size_t>(i)];
    }
    // For x exactly in the span, k = K c and the ridge leaves s = rho (1 + |c|^2),
    // b = c: below about twice that (plus a relative 1e-8), x counts as in the span.
    if (n > 0 && schur <= 1e-8 * std::fabs(kself) + 2.0 * kRidge * (1.0 + b2)) {
      for (int c = 0; c < model.n_outputs(); ++c) {
        double* w = model.coef(c);
        const double bn = w[n];
        for (Index i = 0; i < n; ++i) w[i] += bn * b_[static_cast<std::size_t>(i)];
      }
      model.remove(n);
      return true;
    }
    schur = std::max(schur, kRidge);
    const double inv = 1.0 / schur;
    for (Index i = 0; i < n; ++i) {
      const double bi = b_[static_cast<std::size_t>(i)] * inv;
      double* Ai = &A(i, 0);
      for (Index j = 0; j < n; ++j) Ai[j] += bi * b_[static_cast<std::size_t>(j)];
      Ai[n] = -bi;
      A(n, i) = -bi;
    }
    A(n, n) = inv;
    return false;
  }

  void on_clear() {}

  void reduce(BudgetModel& model, Counters& counters, double* sq_norm, const double* = nullptr) {
    const Stopwatch watch;
    const Index n = model.size();
    const Index p = detail::smallest_support_vector(model);
    // Rounding errors of the rank-one updates accumulate when support
    // vectors nearly coincide; refresh the inverse from scratch once every
    // `capacity` events (O(B^3) / B = O(B^2) amortised) or at once if it
    // has visibly broken down.
    if (++events_ >= cap_ || !(A(p, p) > 0.0) || !std::isfinite(A(p, p))) refresh(model);
    const double app = A(p, p);
    // Delta beta_j = -beta_p A_jp / A_pp (stored units: the scale is common).
    for (int c = 0; c < model.n_outputs(); ++c) {
      double* w = model.coef(c);
      const double f = w[p] / app;
      for (Index j = 0; j < n; ++j)
        if (j != p) w[j] -= f * A(j, p);
    }
    if (sq_norm) {
      // w' = w - r with r orthogonal to the remaining span: ||w'||^2 = ||w||^2 - ||r||^2,
      // ||r||^2 = |beta_p|^2 / A_pp (up to the ridge).
      double b2 = 0.0;
      for (int c = 0; c < model.n_outputs(); ++c) b2 += model.beta(p, c) * model.beta(p, c);
      *sq_norm = std::max(0.0, *sq_norm - b2 / app);
    }
    remove(model, p);
    ++counters.projections;
    counters.maintenance_seconds += watch.seconds();
  }

  /// Removes SV p from the model and from the kept inverse: the inverse of
  /// K without p is A_{-p} - A_{-p,p} A_{p,-p} / A_pp (O(B^2)).
  void remove(BudgetModel& model, Index p) {
    const Index n = model.size();
    const double app = A(p, p);
    for (Index i = 0; i < n; ++i) {
      if (i == p) continue;
      const double f = A(i, p) / app;
      double* Ai = &A(i, 0);
      for (Index j = 0; j < n; ++j) Ai[j] -= f * A(p, j);
    }
    // Mirror model.remove(p): the last SV moves into slot p.
    const Index last = n - 1;
    if (p != last) {
      for (Index j = 0; j < n; ++j) A(p, j) = A(last, j);
      for (Index i = 0; i < n; ++i) A(i, p) = A(i, last);
      A(p, p) = A(last, last);
    }
    model.remove(p);
  }

  /// Recomputes A = (K + rho I)^{-1} of the current SVs (O(B^2 d + B^3)).
  void refresh(BudgetModel& model) {
    const Index n = model.size();
    MatrixXd K(n, n);
    std::vector<double> row(static_cast<std::size_t>(cap_));
    for (Index i = 0; i < n; ++i) {
      model.kernel_row_of_sv(i, row.data());
      for (Index j = 0; j < n; ++j) K(i, j) = row[static_cast<std::size_t>(j)];
    }
    K = 0.5 * (K + K.transpose()).eval();
    K.diagonal().array() += kRidge;
    const MatrixXd inv = K.ldlt().solve(MatrixXd::Identity(n, n));
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < n; ++j) A(i, j) = inv(i, j);
    events_ = 0;
  }

  /// The kept inverse (for tests): (K + rho I)^{-1} of the current SVs.
  double inverse(Index i, Index j) const { return A_[static_cast<std::size_t>(i * cap_ + j)]; }

 private:
  double& A(Index i, Index j) { return A_[static_cast<std::size_t>(i * cap_ + j)]; }
  Index cap_;
  std::vector<double> A_, b_;
  Index events_ = 0;
};

template <class HSolver>
class MergeMaintenance {
 public:
  MergeMaintenance(const BudgetModel& model, HSolver solver, double multiclass_eps = 0.01)
      : solver_(solver),
        eps_(multiclass_eps),
        kappa_(static_cast<std::size_t>(model.capacity())),
        row_(static_cast<std::size_t>(model.capacity())),
        z_(static_cast<std::size_t>(model.dim())),
        beta_(static_cast<std::size_t>(model.n_outputs())),
        cand_kappa_(static_cast<std::size_t>(model.capacity())),
        cand_(static_cast<std::size_t>(model.capacity())),
        simd_(model.simd()),
        least_merge_cost_(simd::least_merge_cost_for(model.simd().level)) {}

  static constexpr bool reads_kernel_row = false;  // on_add ignores its kernel row
  bool on_add(BudgetModel&, const double*, double) { return false; }
  void on_clear() {}
  void remove(BudgetModel& model, Index p) {
    if (listener_) listener_->removed(p);
    model.remove(p);
  }
  /// Every merge and removal from here on is told to `listener` (nullptr: none).
  void listen(MergeListener* listener) { listener_ = listener; }

  void reduce(BudgetModel& model, Counters& counters, double* sq_norm, const double* new_row = nullptr) {
    const Stopwatch watch;
    new_row_ = new_row;
    if (model.n_outputs() == 1)
      reduce_binary(model, counters, sq_norm);
    else
      reduce_multiclass(model, counters, sq_norm);
    new_row_ = nullptr;
    counters.maintenance_seconds += watch.seconds();
  }

  /// Binary models: the merge partner reduce would pick for support vector
  /// a, which must carry the least |beta| (reduce's choice: the pruning
  /// bound assumes it), and its cost in stored units (see best_partner;
  /// for tests).
  std::pair<Index, double> partner(BudgetModel& model, Index a) {
    row_of(model, a);
    return best_partner(model, a);
  }

 private:
  void reduce_binary(BudgetModel& model, Counters& counters, double* sq_norm) {
    const Index n = model.size();
    const double* w = model.coef();
    const Index a = simd_.argmin_abs(w, n);  // the first j of least |w_j|
    const double wa = w[a];
    const auto [best, best_cost] = partner(model, a);
    if (best < 0) {  // no partner of the same sign
      if (sq_norm) *sq_norm += remove_delta(model, a);
      if (listener_) listener_->removed(a);
      model.remove(a);
      ++counters.removals;
      return;
    }
    const double s = wa + w[best];
    const double m = wa / s;
    const double kappa = std::clamp(kappa_[static_cast<std::size_t>(best)], 0.0, 1.0);
    const double h = std::clamp(solver_.h(m, kappa), 0.0, 1.0);
    const double g = merge::merge_g(m, merge::safe_log(kappa), h);
    beta_[0] = model.scale() * s * g;
    counters.merge_degradation += best_cost * model.scale() * model.scale();
    counters.merge_partner_weight += std::fabs(model.scale() * w[best]);
    apply_merge(model, a, best, h, kappa, sq_norm);
    ++counters.merges;
  }

  /// The same-sign partner j of a with the smallest s^2 candidate(wa / s,
  /// kappa_j) (the first such j on ties), and that cost; (-1, inf) if none.
  /// With a solver that prunes, the cost of the partner nearest to a
  /// (largest kappa) sets a cut, and candidates the table's bound places
  /// above it are skipped (LookupTable::kappa_cut: a bound on cost / wa^2
  /// by the kappa column alone); a skipped candidate costs strictly more
  /// than the nearest, so the result is the full scan's (up to the last
  /// bits of the vectorised costs, see simd_merge.hpp). Every pass is
  /// vectorised and branch-free (simd.hpp, simd_merge.hpp): the signs of
  /// the coefficients are random, and a branch per candidate mispredicted
  /// half the time; on noisy data every partner is far, nothing is pruned,
  /// and the costs of all ~B/2 candidates are the work.
  std::pair<Index, double> best_partner(const BudgetModel& model, Index a) {
    const Index n = model.size();
    const double* w = model.coef();
    const double wa = w[a];
    auto cost_of = [&](Index j, double kappa) {
      const double s = wa + w[j];
      return s * s * solver_.candidate(wa / s, kappa);
    };
    Index best = -1;
    double best_cost = std::numeric_limits<double>::infinity();
    if constexpr (HSolver::prunes) {
      const merge::LookupTable& table = *solver_.table;
      // cand_kappa_[j]: kappa_j for the same-sign partners, -1 for the rest
      // and for a itself (its own kernel value, kept in kappa_, is 1).
      const double own = kappa_[static_cast<std::size_t>(a)];
      kappa_[static_cast<std::size_t>(a)] = -1.0;
      const double nearest = simd_.sign_mask(w, wa, kappa_.data(), n, cand_kappa_.data());
      kappa_[static_cast<std::size_t>(a)] = own;
      if (nearest < 0.0) return {best, best_cost};
      best = 0;
      while (cand_kappa_[static_cast<std::size_t>(best)] != nearest) ++best;
      best_cost = cost_of(best, std::min(nearest, 1.0));
      const double inv_wa2 = (1.0 + 1e-9) / (wa * wa);
      const double cut = table.kappa_cut(best_cost * inv_wa2);
      // The partners the cut leaves (by LookupTable::kappa_below's
      // expression; the nearest among them), costed in one vectorised pass.
      const Index q = simd_.indices_at_least(cand_kappa_.data(), n, static_cast<double>(table.grid()), cut,
                                             cand_.data());
      double cost = best_cost;
      const Index k = least_merge_cost_(w, wa, cand_kappa_.data(), cand_.data(), q, table.wd_grid(), &cost);
      if (k >= 0) best = cand_[static_cast<std::size_t>(k)], best_cost = cost;
    } else {
      for (Index j = 0; j < n; ++j) {
        if (j == a || !(w[j] * wa > 0.0)) continue;
        const double cost = cost_of(j, std::clamp(kappa_[static_cast<std::size_t>(j)], 0.0, 1.0));
        if (cost < best_cost) best_cost = cost, best = j;
      }
    }
    return {best, best_cost};
  }

  /// kappa_ <- the kernel row of SV a: from new_row_ when a is the SV just
  /// added (the same values up to the order of the dot products' sums).
  void row_of(BudgetModel& model, Index a) {
    const Index last = model.size() - 1;
    if (new_row_ && a == last) {
      std::copy(new_row_, new_row_ + last, kappa_.begin());
      kappa_[static_cast<std::size_t>(last)] = model.self_kernel_of_sv(a);
    } else {
      model.kernel_row_of_sv(a, kappa_.data());
    }
  }

  void reduce_multiclass(BudgetModel& model, Counters& counters, double* sq_norm) {
    const Index n = model.size();
    const int c_out = model.n_outputs();
    auto norm2 = [&](Index j) {
      double v = 0.0;
      for (int c = 0; c < c_out; ++c) v += model.coef(c)[j] * model.coef(c)[j];
      return v;
    };
    Index a = 0;
    double na = norm2(0);
    for (Index j = 1; j < n; ++j) {
      const double v = norm2(j);
      if (v < na) na = v, a = j;
    }
    row_of(model, a);
    // Pruning by a lower bound: F(h) <= (sqrt(A) p + sqrt(D) q)^2, whose
    // maximum over h is the binary problem with m' = sqrt(A) / (sqrt(A) +
    // sqrt(D)): (sqrt(A) + sqrt(D))^2 g*(m', kappa)^2, g*^2 from the WD
    // table. So cost >= A + D + 2 C kappa - that, minus a slack far above
    // the table's interpolation error; only candidates whose bound beats
    // the best exact cost so far get the exact 1-D search.
    const merge::LookupTable& table = merge::lookup_table(merge::kDefaultGrid);
    const double sqrt_a = std::sqrt(na);
    lower_.resize(static_cast<std::size_t>(n));
    Index first = -1;
    // ||beta_j||^2 and <beta_j, beta_a> over the classes.
    auto coef_products = [&](Index j) {
      double D = 0.0, Cab = 0.0;
      for (int c = 0; c < c_out; ++c) {
        const double bj = model.coef(c)[j];
        D += bj * bj;
        Cab += bj * model.coef(c)[a];
      }
      return std::pair<double, double>(D, Cab);
    };
    for (Index j = 0; j < n; ++j) {
      const auto [D, Cab] = coef_products(j);
      const double kappa = std::clamp(kappa_[static_cast<std::size_t>(j)], 0.0, 1.0);
      const double total = sqrt_a + std::sqrt(D);
      double bound = std::numeric_limits<double>::infinity();
      if (j != a && total > 0.0) {
        const double m = sqrt_a / total;
        const double g2 = m * m + (1 - m) * (1 - m) + 2 * m * (1 - m) * kappa - table.wd(m, kappa);
        bound = na + D + 2.0 * Cab * kappa - total * total * (g2 + 1e-4);
      }
      lower_[static_cast<std::size_t>(j)] = bound;
      if (j != a && (first < 0 || bound < lower_[static_cast<std::size_t>(first)])) first = j;
    }
    Index best = -1;
    double best_cost = std::numeric_limits<double>::infinity(), best_h = 0.0;
    auto exact = [&](Index j) {
      const auto [D, Cab] = coef_products(j);
      const double kappa = std::clamp(kappa_[static_cast<std::size_t>(j)], 0.0, 1.0);
      const auto [h, F] = merge::solve_multiclass(na, Cab, D, kappa, eps_);
      const double cost = na + D + 2.0 * Cab * kappa - F;
      if (cost < best_cost) best_cost = cost, best = j, best_h = h;
    };
    exact(first);
    for (Index j = 0; j < n; ++j)
      if (j != a && j != first && lower_[static_cast<std::size_t>(j)] < best_cost) exact(j);
    const double kappa = std::clamp(kappa_[static_cast<std::size_t>(best)], 0.0, 1.0);
    const double lk = merge::safe_log(kappa);
    const double a2 = (1.0 - best_h) * (1.0 - best_h), b2 = best_h * best_h;
    const double p = a2 == 0.0 ? 1.0 : std::exp(a2 * lk), q = b2 == 0.0 ? 1.0 : std::exp(b2 * lk);
    for (int c = 0; c < c_out; ++c) beta_[static_cast<std::size_t>(c)] = model.beta(a, c) * p + model.beta(best, c) * q;
    counters.merge_degradation += best_cost * model.scale() * model.scale();
    counters.merge_partner_weight += std::fabs(model.scale()) * std::sqrt(coef_products(best).first);
    apply_merge(model, a, best, best_h, kappa, sq_norm);
    ++counters.merges;
  }

  /// Change of ||w||^2 when SV p is removed (before removal).
  double remove_delta(BudgetModel& model, Index p) {
    double b2 = 0.0;
    for (int c = 0; c < model.n_outputs(); ++c) b2 += model.beta(p, c) * model.beta(p, c);
    return -2.0 * detail::inner_with_sv(model, p, row_) + b2 * model.self_kernel_of_sv(p);
  }

  /// Replaces a and b by (beta_, z = h z_a + (1 - h) z_b); kappa_ holds the
  /// kernel row of z_a.
  void apply_merge(BudgetModel& model, Index a, Index b, double h, double kappa, double* sq_norm) {
    const Index d = model.dim();
    double zn = 0.0;
    for (Index k = 0; k < d; ++k) {
      const double za = model.feature(a, k), zb = model.feature(b, k);
      const double z = h * za + (1.0 - h) * zb;
      z_[static_cast<std::size_t>(k)] = z;
      zn += z * z;
    }
    if (sq_norm) {
      // ||w'||^2 = ||w||^2 - 2 <w, Delta> + ||Delta||^2,
      // Delta = beta_a phi_a + beta_b phi_b - beta_z phi_z.
      const int c_out = model.n_outputs();
      double inner = 0.0, delta2 = 0.0;
      for (int c = 0; c < c_out; ++c) {
        const double ba = model.beta(a, c), bb = model.beta(b, c), bz = beta_[static_cast<std::size_t>(c)];
        inner += ba * model.margin(kappa_.data(), c);
        delta2 += ba * ba + bb * bb + 2.0 * ba * bb * kappa - bz * bz;
      }
      inner += detail::inner_with_sv(model, b, row_);
      model.kernel_row_of_point(z_.data(), zn, row_.data());
      for (int c = 0; c < c_out; ++c) inner -= beta_[static_cast<std::size_t>(c)] * model.margin(row_.data(), c);
      *sq_norm = std::max(0.0, *sq_norm - 2.0 * inner + std::max(0.0, delta2));
    }
    // The merged vector ends in b's slot when a is the last one (nearly
    // always: the SV just added): the same model as replacing a and moving
    // the last into b, with one pass over the features instead of three.
    const bool last = a == model.size() - 1;
    if (listener_) listener_->merged(a, b, h, last ? b : a, last ? a : b);
    if (last) {
      model.replace(b, z_.data(), zn, beta_.data());
      model.remove(a);
    } else {
      model.replace(a, z_.data(), zn, beta_.data());
      model.remove(b);
    }
  }

  HSolver solver_;
  double eps_;
  std::vector<double> kappa_, row_, z_, beta_, lower_;
  std::vector<double> cand_kappa_;  // best_partner's candidates: kappa
  std::vector<Index> cand_;         // and index
  simd::Kernels simd_;                     // the model's
  simd::LeastMergeCost least_merge_cost_;  // best_partner's cost pass
  const double* new_row_ = nullptr;  // reduce()'s, for its duration
  MergeListener* listener_ = nullptr;  // listen()'s
};

namespace detail {

/// Calls f(make_maintenance) with the factory of the chosen policy.
template <class F>
Result with_maintenance(const Params& p, F&& f) {
  switch (p.maintenance) {
    case Maintenance::remove:
      return f([](const BudgetModel& m) { return RemovalMaintenance(m); });
    case Maintenance::project:
      return f([](const BudgetModel& m) { return ProjectionMaintenance(m); });
    case Maintenance::merge:
      switch (p.merge_method) {
        case merge::Method::gss: {
          const merge::GssSolver s{p.gss_eps};
          return f([s, eps = p.gss_eps](const BudgetModel& m) { return MergeMaintenance<merge::GssSolver>(m, s, eps); });
        }
        case merge::Method::lookup_h: {
          const merge::LookupHSolver s{&merge::lookup_table(p.lookup_grid)};
          return f([s, eps = p.gss_eps](const BudgetModel& m) { return MergeMaintenance<merge::LookupHSolver>(m, s, eps); });
        }
        case merge::Method::lookup_wd: {
          const merge::LookupWdSolver s{&merge::lookup_table(p.lookup_grid)};
          return f([s, eps = p.gss_eps](const BudgetModel& m) { return MergeMaintenance<merge::LookupWdSolver>(m, s, eps); });
        }
      }
  }
  throw std::invalid_argument("unknown maintenance");
}

}  // namespace detail

}  // namespace budgetsvm::budget
