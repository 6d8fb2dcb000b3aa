// State shared by the exact kernel SVM solvers (SMO and ALFPGM):
//
//   min_a  1/2 a^T Q a + p^T a   s.t.  y^T a = Delta,  0 <= a_t <= C_t,
//   Q_ts = y_t y_s k(x_t, x_s)
//
// C-SVC (reset): p = -e, a starts at 0 (Delta = 0). The general form
// (reset_problem: LIBSVM's form, which epsilon-SVR, one-class and the nu
// formulations use) takes p and a feasible starting point a0; Delta is
// y^T a0, which every pair step keeps. The C-SVC path keeps no p (it reads
// -1 where the general one reads p_t, the same arithmetic) and starts at
// G = -e without a kernel column.
//
// with the gradient G = Q a + p kept for the active positions, LIBSVM's
// G_bar_t = sum_{s: a_s = C_s} C_s Q_ts (so that the gradient of shrunk
// positions can be rebuilt from the free variables only), LIBSVM's shrinking
// rules (Fan, Chen, Lin 2005, section 5; Joachims 1999) and the bias as
// LIBSVM's calculate_rho computes it.
//
// Notation: q_t = -y_t G_t; I_up = {t: y_t = +1, a_t < C_t or y_t = -1, a_t > 0},
// I_low = {t: y_t = +1, a_t > 0 or y_t = -1, a_t < C_t}; the maximal
// violation is max_{I_up} q - min_{I_low} q (optimal when < tol).
//
// As LIBSVM, the active positions are a prefix of an order of the positions
// (the kernel cache's, kernel_cache.hpp), columns are fetched for the
// active prefix only and shrinking swaps dropped positions behind it; a
// column is read at place where(t) for position t.
// Where we differ from LIBSVM: the training data and the per-position
// vectors (alpha, G, ...) are not permuted (only the order and the cached
// columns are); kernel columns hold k, not Q. LIBSVM updates G_bar over all
// n at every change of an upper-bound status, extending the column to the
// shrunk places; we update it at the active places only and keep the
// change, so that the shrunk places get their share, summed per variable
// (a bound reached and left again cancels), in blocks of columns when they
// return (unshrink), the only time their G_bar is read.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "../core/control.hpp"
#include "../core/parallel.hpp"
#include "kernel_cache.hpp"
#include "simd_exact.hpp"

namespace budgetsvm::exact {

inline constexpr double kTau = 1e-12;  // curvature floor for a_ts <= 0 (LIBSVM's TAU)

/// Curvature K_ii + K_tt - 2 K_it of a pair's direction, floored at kTau
/// (non-PSD kernels, duplicate points), as LIBSVM does.
inline double pair_curvature(double Kii, double Ktt, double Kit) {
  const double a = Kii + Ktt - 2.0 * Kit;
  return a > 0.0 ? a : kTau;
}

/// Membership of a variable with label y, value a and bound C in I_up and
/// I_low (the notation above).
inline bool in_up_set(double y, double a, double C) { return y > 0 ? a < C : a > 0.0; }
inline bool in_low_set(double y, double a, double C) { return y > 0 ? a > 0.0 : a < C; }

struct Violation {
  double up_max = -std::numeric_limits<double>::infinity();   // max_{I_up} q
  double low_min = std::numeric_limits<double>::infinity();   // min_{I_low} q
  double gap() const { return up_max - low_min; }
};

/// Reads each range of the new gradient while DualState::move still holds
/// it in cache, on the thread that made it: ALFPGM's scan of the next
/// round's candidates (wss.hpp, NextScan) costs no pass and no loop of its
/// own. begin(ranges) comes first, then read(r, positions, count) once per
/// range r, the positions of its active places in order.
/// The work of scanning one candidate (wss.hpp), in multiply-adds for
/// threads_for.
inline constexpr double kScanWork = 4.0;

class GradientReader {
 public:
  virtual void begin(Index ranges) = 0;
  virtual void read(Index range, const Index* positions, Index count) = 0;

 protected:
  ~GradientReader() = default;
};

class DualState {
 public:
  /// Columns are fetched for the active prefix only; G_bar needs a
  /// complete column whenever a variable's upper-bound status changes.
  /// sample_weight (optional, one per position, >= 0) scales each upper
  /// bound: C_t = C_class(t) * sample_weight[t]; a weight of 0 pins alpha_t at 0.
  DualState(KernelCache& cache, const std::vector<double>& y, double C_pos, double C_neg,
            int jobs = 1, const std::vector<double>* sample_weight = nullptr)
      : cache_(cache), diag_(cache.diagonal()), jobs_(std::max(1, jobs)) {
    reset(y, C_pos, C_neg, sample_weight);
  }

  /// Starts again at alpha = 0 for the cache's current positions (a cache
  /// reset for another problem: one-vs-one training solves pair after pair
  /// in one state), keeping the allocations.
  void reset(const std::vector<double>& y, double C_pos, double C_neg,
             const std::vector<double>* sample_weight = nullptr) {
    n_ = cache_.size();
    require(static_cast<Index>(y.size()) == n_, "y must have one label per training row");
    y_ = y;
    upper_.resize(y.size());
    for (std::size_t t = 0; t < y.size(); ++t) upper_[t] = y[t] > 0 ? C_pos : C_neg;
    if (sample_weight && !sample_weight->empty()) {
      require(sample_weight->size() == y.size(), "sample_weight must have one weight per training row");
      for (std::size_t t = 0; t < y.size(); ++t) upper_[t] *= (*sample_weight)[t];
    }
    alpha_.assign(y.size(), 0.0);
    G_.assign(y.size(), -1.0);
    G_bar_.assign(y.size(), 0.0);
    p_.clear();
    delta_ = 0.0;
    active_ = cache_.order();
    unshrunk_once_ = false;
    pending_bar_.clear();
  }

  /// Starts the general problem (header comment) for the cache's current
  /// positions: labels y (+1 / -1), bounds C_t = upper, linear term p and a
  /// feasible start alpha0 (0 <= alpha0_t <= C_t; empty: 0). The gradient
  /// starts at p + Q alpha0 and G_bar from the variables at their bound,
  /// each from kernel columns computed for the non-zero alpha0 only (none
  /// when alpha0 = 0).
  void reset_problem(const std::vector<double>& labels, const std::vector<double>& bounds,
                     const std::vector<double>& p, const std::vector<double>& alpha0, RunControl& control) {
    n_ = cache_.size();
    const auto n = static_cast<std::size_t>(n_);
    require(labels.size() == n && bounds.size() == n && p.size() == n,
            "y, the bounds and p need one value per position");
    require(alpha0.empty() || alpha0.size() == n, "the starting alpha needs one value per position");
    for (std::size_t t = 0; t < n; ++t) {
      require(labels[t] == 1.0 || labels[t] == -1.0, "labels must be +1 or -1");
      require(std::isfinite(bounds[t]) && bounds[t] >= 0.0, "bounds must be non-negative finite numbers");
      require(std::isfinite(p[t]), "the linear term must be finite");
      if (!alpha0.empty())
        require(alpha0[t] >= 0.0 && alpha0[t] <= bounds[t], "the starting alpha must lie within its bounds");
    }
    y_ = labels;
    upper_ = bounds;
    p_ = p;
    if (alpha0.empty()) alpha_.assign(n, 0.0); else alpha_ = alpha0;
    delta_ = 0.0;
    for (Index t = 0; t < n_; ++t) delta_ += y(t) * alpha(t);
    G_ = p;
    G_bar_.assign(n, 0.0);
    active_ = cache_.order();
    unshrunk_once_ = false;
    pending_bar_.clear();
    std::vector<Index> cols, bound_cols;
    std::vector<double> coefs, bound_coefs;
    for (Index t = 0; t < n_; ++t) {
      if (alpha(t) <= 0.0) continue;
      cols.push_back(t);
      coefs.push_back(y(t) * alpha(t));
      if (at_upper(t)) {
        bound_cols.push_back(t);
        bound_coefs.push_back(y(t) * upper(t));
      }
    }
    add_uncached(cols, coefs, 0, G_, control);
    add_uncached(bound_cols, bound_coefs, 0, G_bar_, control);
  }

  /// Delta = y^T a, fixed by the start (0 on the C-SVC path).
  double delta() const { return delta_; }

  /// The linear term p_t (-1 on the C-SVC path, which keeps no p).
  double linear(Index t) const { return p_.empty() ? -1.0 : p_[static_cast<std::size_t>(t)]; }

  Index n() const { return n_; }
  int jobs() const { return jobs_; }  // threads for the solvers' parallel loops
  double y(Index t) const { return y_[static_cast<std::size_t>(t)]; }
  double upper(Index t) const { return upper_[static_cast<std::size_t>(t)]; }
  double alpha(Index t) const { return alpha_[static_cast<std::size_t>(t)]; }
  double G(Index t) const { return G_[static_cast<std::size_t>(t)]; }
  double q(Index t) const { return -y(t) * G(t); }
  double diag(Index t) const { return diag_[t]; }
  const std::vector<double>& alpha() const { return alpha_; }
  const std::vector<Index>& active() const { return active_; }
  bool shrunk() const { return static_cast<Index>(active_.size()) < n_; }
  /// Place of position t in fetched columns (col[where(t)] = k(x_t, x_j)).
  Index where(Index t) const { return cache_.where(t); }
  KernelCache& cache() { return cache_; }

  /// The per-position arrays, for selection loops that read them directly
  /// (wss.hpp): y, C_t, alpha, G, k(x_t, x_t) and the place where(t).
  struct Arrays {
    const double *y, *upper, *alpha, *G, *diag;
    const Index* where;
  };
  Arrays arrays() const {
    return {y_.data(), upper_.data(), alpha_.data(), G_.data(), diag_.data(), cache_.where_data()};
  }

  bool at_upper(Index t) const { return alpha(t) >= upper(t); }
  bool at_lower(Index t) const { return alpha(t) <= 0.0; }
  bool in_up(Index t) const { return in_up_set(y(t), alpha(t), upper(t)); }
  bool in_low(Index t) const { return in_low_set(y(t), alpha(t), upper(t)); }

  /// Columns valid at the active positions (read at where(t)); complete
  /// ones when the whole set is active.
  void fetch_active(const std::vector<Index>& cols, std::vector<const float*>& out) {
    cache_.fetch(cols, static_cast<Index>(active_.size()), out);
  }

  /// Moves a_B to new values: G over the active set from the columns of B
  /// (valid on the active set), G_bar from complete columns of the
  /// variables whose upper-bound status changed. `reader` (nullable) reads
  /// the active set's new G range by range (GradientReader).
  void move(const std::vector<Index>& B, const std::vector<double>& new_alpha,
            const std::vector<const float*>& columns, GradientReader* reader = nullptr) {
    coef_.clear();
    coef_cols_.clear();
    status_changed_.clear();
    status_sign_.clear();
    status_cols_.clear();
    for (std::size_t b = 0; b < B.size(); ++b) {
      const Index t = B[b];
      const double old = alpha(t);
      const double now = new_alpha[b];
      if (now == old) continue;
      const bool was_upper = at_upper(t);
      alpha_[static_cast<std::size_t>(t)] = now;
      coef_.push_back(y(t) * (now - old));
      coef_cols_.push_back(columns[b]);
      if (was_upper != at_upper(t)) {
        status_changed_.push_back(t);
        status_sign_.push_back(was_upper ? -1.0 : 1.0);
        status_cols_.push_back(columns[b]);
      }
    }
    add_columns(active_.data(), 0, static_cast<Index>(active_.size()), coef_, coef_cols_, G_, reader);
    if (!status_changed_.empty()) {
      coef_.clear();
      for (std::size_t k = 0; k < status_changed_.size(); ++k) {
        const Index t = status_changed_[k];
        coef_.push_back(status_sign_[k] * upper(t) * y(t));
      }
      // G_bar at the active places from the columns given; the shrunk
      // places' share waits until they return (unshrink: "G_bar of the
      // shrunk places" in docs/exact.md).
      const Index n_active = static_cast<Index>(active_.size());
      add_columns(active_.data(), 0, n_active, coef_, status_cols_, G_bar_);
      if (shrunk())
        for (std::size_t k = 0; k < status_changed_.size(); ++k)
          pending_bar_.push_back({n_active, status_changed_[k], coef_[k]});
    }
  }

  /// Max violating pair over every position.
  Violation violation_all() const {
    Violation v;
    for (Index t = 0; t < n_; ++t) {
      const double qt = q(t);
      if (in_up(t)) v.up_max = std::max(v.up_max, qt);
      if (in_low(t)) v.low_min = std::min(v.low_min, qt);
    }
    return v;
  }

  /// Max violating pair over the given positions.
  template <class Positions>
  Violation violation(const Positions& positions) const {
    Violation v;
    for (Index t : positions) {
      const double qt = q(t);
      if (in_up(t)) v.up_max = std::max(v.up_max, qt);
      if (in_low(t)) v.low_min = std::min(v.low_min, qt);
    }
    return v;
  }

  /// LIBSVM's shrinking: drops bound variables that cannot be part of a
  /// violating pair; the first time the gap falls below 10 tol, un-shrinks
  /// everything once (the gradient is rebuilt) before shrinking again.
  /// per_label (the nu path, general.hpp): each label's violation apart,
  /// the larger gap for the un-shrink and each variable against its own
  /// label's (LIBSVM's shrinking of Solver_NU).
  void shrink(double tol, RunControl& control, bool per_label = false) {
    Violation v[2];
    const auto scan = [&] {
      if (!per_label) {
        v[0] = violation(active_);
        return;
      }
      v[0] = v[1] = Violation{};
      for (Index t : active_) {
        Violation& L = v[y(t) > 0 ? 0 : 1];
        const double qt = q(t);
        if (in_up(t)) L.up_max = std::max(L.up_max, qt);
        if (in_low(t)) L.low_min = std::min(L.low_min, qt);
      }
    };
    scan();
    const auto gap = [&] { return per_label ? std::max(v[0].gap(), v[1].gap()) : v[0].gap(); };
    if (!unshrunk_once_ && gap() <= 10.0 * tol) {
      unshrunk_once_ = true;
      unshrink(control);
      scan();
    }
    const auto drop = [&](Index t) {
      const bool up = in_up(t), low = in_low(t);
      const double qt = q(t);
      const Violation& L = v[per_label && y(t) < 0 ? 1 : 0];
      return (up && !low && qt < L.low_min) || (low && !up && qt > L.up_max);
    };
    // LIBSVM's do_shrinking: a dropped place takes the last kept one.
    swaps_.clear();
    Index size = static_cast<Index>(active_.size());
    for (Index k = 0; k < size; ++k) {
      if (!drop(active_[static_cast<std::size_t>(k)])) continue;
      --size;
      while (size > k && drop(active_[static_cast<std::size_t>(size)])) --size;
      if (size > k) {
        swaps_.emplace_back(k, size);
        std::swap(active_[static_cast<std::size_t>(k)], active_[static_cast<std::size_t>(size)]);
      }
    }
    cache_.swap_places(swaps_, jobs_);
    active_.resize(static_cast<std::size_t>(size));
  }

  /// Makes every position active again, rebuilding the gradient of the
  /// shrunk ones: G_t = G_bar_t + p_t + sum_{s free} a_s Q_ts.
  void unshrink(RunControl& control) {
    if (!shrunk()) return;
    apply_pending_bar(control);
    const std::vector<Index>& order = cache_.order();
    const Index first = static_cast<Index>(active_.size());  // inactive: places first..n-1
    for (Index k = first; k < n_; ++k) {
      const Index t = order[static_cast<std::size_t>(k)];
      G_[static_cast<std::size_t>(t)] = G_bar_[static_cast<std::size_t>(t)] + linear(t);
    }
    // Free variables whose complete column is cached contribute from the
    // cache; the others from columns computed at the inactive places.
    std::vector<Index> free;
    std::vector<double> free_coef;
    coef_.clear();
    coef_cols_.clear();
    for (Index t = 0; t < n_; ++t) {
      if (at_upper(t) || at_lower(t)) continue;
      if (const float* col = cache_.peek(t, n_)) {
        coef_.push_back(y(t) * alpha(t));
        coef_cols_.push_back(col);
      } else {
        free.push_back(t);
        free_coef.push_back(y(t) * alpha(t));
      }
    }
    add_columns(order.data(), first, n_, coef_, coef_cols_, G_);
    add_uncached(free, free_coef, first, G_, control);
    active_ = order;
  }

  /// G_bar_t = sum over the variables at their upper bound of C_s Q_ts
  /// (nothing shrunk: the shrunk places' share is added when they return).
  double G_bar(Index t) const {
    require(pending_bar_.empty(), "G_bar read while shrunk places wait for their share");
    return G_bar_[static_cast<std::size_t>(t)];
  }
  const std::vector<double>& gradient() const { return G_; }

  /// Sets the free variables F (every variable strictly between its
  /// bounds, before and after) to `values` and rebuilds G over all n from
  /// G_bar and their complete columns: G_t = G_bar_t + p_t + sum_{s in F} a_s Q_ts.
  /// Nothing may be shrunk; bound statuses (hence G_bar) do not change.
  void assign_free(const std::vector<Index>& F, const std::vector<double>& values,
                   const std::vector<const float*>& full_columns) {
    require(!shrunk() && pending_bar_.empty(), "assign_free needs every position active");
    coef_.clear();
    coef_cols_.assign(full_columns.begin(), full_columns.end());
    for (std::size_t k = 0; k < F.size(); ++k) {
      const Index t = F[k];
      require(values[k] > 0.0 && values[k] < upper(t), "assign_free: a value leaves the open box");
      alpha_[static_cast<std::size_t>(t)] = values[k];
      coef_.push_back(y(t) * values[k]);
    }
    for (Index t = 0; t < n_; ++t) G_[static_cast<std::size_t>(t)] = G_bar_[static_cast<std::size_t>(t)] + linear(t);
    add_columns(cache_.order().data(), 0, n_, coef_, coef_cols_, G_);
  }

  /// Puts back alpha and G saved before assign_free (same bound statuses).
  void restore(const std::vector<double>& alpha, const std::vector<double>& G) {
    alpha_ = alpha;
    G_ = G;
  }

  /// LIBSVM's rho (b = -rho): the mean of y_t G_t over free variables, or
  /// the middle of the feasible interval when none is free. All positions
  /// must be active.
  double rho() const {
    double ub = std::numeric_limits<double>::infinity();
    double lb = -std::numeric_limits<double>::infinity();
    double sum_free = 0.0;
    Index n_free = 0;
    for (Index t = 0; t < n_; ++t) {
      const double yG = y(t) * G(t);
      if (at_upper(t)) {
        if (y(t) < 0) ub = std::min(ub, yG); else lb = std::max(lb, yG);
      } else if (at_lower(t)) {
        if (y(t) > 0) ub = std::min(ub, yG); else lb = std::max(lb, yG);
      } else {
        ++n_free;
        sum_free += yG;
      }
    }
    return n_free > 0 ? sum_free / static_cast<double>(n_free) : 0.5 * (ub + lb);
  }

  /// 1/2 a^T Q a + p^T a = sum_t a_t (G_t + p_t) / 2 (all positions active).
  double objective() const {
    double v = 0.0;
    for (Index t = 0; t < n_; ++t) v += alpha(t) * (G(t) + linear(t));
    return 0.5 * v;
  }

 private:
  /// A change of upper-bound status while places were shrunk: G_bar at the
  /// places from..n-1 still needs coef * y_t k(x_t, x_s).
  struct PendingBar {
    Index from, s;
    double coef;
  };

  /// Adds the shrunk places' share of G_bar (move) before they return:
  /// per first place, each position's changes summed (a variable that
  /// reached its bound and left it again cancels exactly), their columns
  /// computed at those places only, 64 at a time.
  void apply_pending_bar(RunControl& control) {
    if (pending_bar_.empty()) return;
    std::sort(pending_bar_.begin(), pending_bar_.end(),
              [](const PendingBar& a, const PendingBar& b) { return a.from != b.from ? a.from < b.from : a.s < b.s; });
    std::vector<Index> cols;
    std::vector<double> coefs;
    for (std::size_t g = 0; g < pending_bar_.size();) {
      const Index from = pending_bar_[g].from;
      cols.clear();
      coefs.clear();
      for (; g < pending_bar_.size() && pending_bar_[g].from == from; ++g) {
        const PendingBar& e = pending_bar_[g];
        if (!cols.empty() && cols.back() == e.s) {
          coefs.back() += e.coef;
        } else {
          cols.push_back(e.s);
          coefs.push_back(e.coef);
        }
      }
      std::size_t kept = 0;  // the changes that did not cancel
      for (std::size_t c = 0; c < cols.size(); ++c)
        if (coefs[c] != 0.0) cols[kept] = cols[c], coefs[kept++] = coefs[c];
      cols.resize(kept);
      coefs.resize(kept);
      add_uncached(cols, coefs, from, G_bar_, control);
    }
    pending_bar_.clear();
  }

  /// target[t] += y_t sum_c coef[c] k(x_t, x_{cols[c]}) at the places
  /// first..n-1 (t = order()[place]), the columns computed there outside
  /// the cache, up to 64 at a time (fewer when 64 would take more than
  /// kScratchBytes).
  void add_uncached(const std::vector<Index>& cols, const std::vector<double>& coefs, Index first,
                    std::vector<double>& target, RunControl& control) {
    if (cols.empty() || first >= n_) return;
    const Index* places = cache_.order().data() + first;  // the places first..n-1, from 0
    const Index length = n_ - first;
    constexpr double kScratchBytes = 32e6;
    const std::size_t block = static_cast<std::size_t>(
        std::clamp(kScratchBytes / (sizeof(float) * static_cast<double>(length)), 8.0, 64.0));
    std::vector<std::vector<float>> storage(std::min(block, cols.size()),
                                            std::vector<float>(static_cast<std::size_t>(length)));
    std::vector<float*> out(storage.size());
    for (std::size_t k = 0; k < storage.size(); ++k) out[k] = storage[k].data();
    std::vector<Index> part;
    std::vector<double> part_coef;
    std::vector<const float*> part_cols;
    for (std::size_t start = 0; start < cols.size(); start += block) {
      control.poll_now();
      const std::size_t stop = std::min(cols.size(), start + block);
      part.assign(cols.begin() + static_cast<std::ptrdiff_t>(start), cols.begin() + static_cast<std::ptrdiff_t>(stop));
      part_coef.assign(coefs.begin() + static_cast<std::ptrdiff_t>(start),
                       coefs.begin() + static_cast<std::ptrdiff_t>(stop));
      cache_.compute_uncached(part, places, length, out.data());
      part_cols.clear();
      for (std::size_t c = 0; c < part.size(); ++c) part_cols.push_back(storage[c].data());
      add_columns(places, 0, length, part_coef, part_cols, target);
    }
  }

  // target[t] += y_t sum_c coef[c] col_c[k] for the places k in [begin, end),
  // t = places[k], in threads (disjoint ranges of places) when the work is
  // large; then `reader` (nullable) reads each range's positions.
  void add_columns(const Index* places, Index begin, Index end, const std::vector<double>& coef,
                   const std::vector<const float*>& cols, std::vector<double>& target,
                   GradientReader* reader = nullptr) const {
    if ((coef.empty() && !reader) || end <= begin) return;
    const std::size_t m = coef.size();
    const double work = (static_cast<double>(m) + (reader ? kScanWork : 0.0)) * static_cast<double>(end - begin);
    const int threads = threads_for(jobs_, work);
    if (reader) reader->begin(RangeCut(end - begin, threads).tasks);
    RunControl unpolled;  // short: the solvers poll between calls
    parallel_ranges_indexed(end - begin, threads, unpolled, [&](Index range, Index lo, Index hi, RunControl&) {
      lo += begin;
      hi += begin;
      double* out = target.data();
      const double* yv = y_.data();
      // Per block of places: the sum over the columns into a contiguous
      // buffer (simd_exact.hpp), then one scatter into target (positions
      // are not contiguous in place order).
      constexpr Index block = 1024;
      double sum[block];
      for (Index k0 = lo; m > 0 && k0 < hi; k0 += block) {
        const Index len = std::min(block, hi - k0);
        std::fill(sum, sum + len, 0.0);
        add_scaled_(cols.data(), coef.data(), m, k0, len, sum);
        for (Index k = 0; k < len; ++k) {
          const Index t = places[k0 + k];
          out[t] += yv[t] * sum[k];
        }
      }
      if (reader) reader->read(range, places + lo, hi - lo);
    });
  }

  KernelCache& cache_;
  Index n_;
  std::vector<double> y_, upper_, alpha_, G_, G_bar_;
  std::vector<double> p_;  // the linear term; empty on the C-SVC path (p = -1)
  double delta_ = 0.0;     // y^T a, kept by every step
  const VectorXd& diag_;
  std::vector<Index> active_;
  bool unshrunk_once_ = false;
  std::vector<double> coef_, status_sign_;
  int jobs_ = 1;
  simd::AddScaledColumns add_scaled_ = simd::active_add_scaled_columns();
  std::vector<const float*> coef_cols_, status_cols_;
  std::vector<PendingBar> pending_bar_;  // G_bar's share of the shrunk places, added by unshrink
  std::vector<Index> status_changed_;
  std::vector<std::pair<Index, Index>> swaps_;
};

}  // namespace budgetsvm::exact
