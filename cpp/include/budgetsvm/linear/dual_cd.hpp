// Dual coordinate descent for the linear SVM: the state and the single
// coordinate step that every selection policy (selection.hpp) shares.
//
// Problem (binary, y_i in {-1, +1}, per-sample C_i >= 0):
//   min_w 1/2 ||w||^2 + sum_i C_i L(y_i <w, x~_i>)
// with x~_i = (x_i, s) when a bias is fitted (liblinear's -B s, the
// "intercept_scaling" of scikit-learn) and x~_i = x_i otherwise. The bias
// coordinate is handled here, never appended to X: w has d + 1 entries,
// <w, x~_i> = <w[:d], x_i> + s w[d], and Q_ii = ||x_i||^2 + s^2 + D_ii.
// Dual (minimisation form, see loss.hpp):
//   f(alpha) = 1/2 ||w(alpha)||^2 + 1/2 sum_i D_ii alpha_i^2 - sum_i alpha_i,
//   w(alpha) = sum_i alpha_i y_i x~_i,   0 <= alpha_i <= U_i.
// A step on i (Hsieh et al. 2008; Glasmachers & Dogan, "Accelerated linear
// SVM training with adaptive variable selection frequencies", Algorithm 2):
//   G_i  = y_i <w, x~_i> - 1 + D_ii alpha_i        (the partial derivative)
//   alpha_i <- clip(alpha_i - G_i / Q_ii, 0, U_i), w += (change) y_i x~_i.
// The paper writes g_i = -G_i (the maximisation form); we keep liblinear's
// sign so that the shrinking rule reads as in liblinear.
//
// Differences from the paper / liblinear (deliberate):
// - Q_ii = 0 (an all-zero row, hinge loss, no bias): f is linear in alpha_i
//   with slope G_i = -1, so the exact step moves alpha_i to the bound U_i
//   (liblinear gets there through a division by zero; we never divide by 0).
// - Samples with C_i = 0 (zero sample weight) are left out: alpha_i = 0.
// - Equal rows with opposite labels (when the caller names them,
//   set_partners) also take an exact step along alpha_i + alpha_j, the one
//   direction that leaves w unchanged and that coordinate steps can only
//   zig-zag along (flat_step).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "../core/control.hpp"
#include "../core/data_view.hpp"
#include "../core/eigen.hpp"
#include "../core/errors.hpp"
#include "../core/random.hpp"
#include "loss.hpp"

namespace budgetsvm::linear {

/// The flat step of equal rows with opposite labels (CdState::flat_step)
/// is taken only where coordinate steps would need more visits than this --
/// and, where it goes to the box's corner (the hinge loss: f is linear
/// along the pair), more than kFlatVisitsToBound.
inline constexpr double kFlatVisits = 100.0;
inline constexpr double kFlatVisitsToBound = 1000.0;

/// Options shared by every selection policy.
struct Options {
  double tol = 1e-3;                  ///< stopping tolerance on the KKT violation
  std::int64_t max_iter = 0;          ///< outer sweeps; 0 = unlimited
  double bias_scale = 0.0;            ///< s of the constant feature; 0 = no bias
  std::uint64_t seed = 0;             ///< seeds the sweep order / schedule
  /// selection="auto" (selection.hpp): sweeps of Shrinking before it hands
  /// over to Avsf, and the smallest d / n at which it hands over at all.
  std::int64_t auto_switch_sweeps = 50;
  double auto_min_feature_ratio = 0.5;
  /// Solve every group of equal rows with equal labels as one variable
  /// (duplicates.hpp): the same optimum; faster or slower with the data.
  bool merge_duplicates = false;
  /// Without merge_duplicates, with the hinge loss: merge only the groups of
  /// at least this many rows (duplicates.hpp says why); 0 = none (1 and 2 =
  /// every group). The squared hinge merges none unless merge_duplicates.
  std::int64_t merge_min_copies = 20;

  void validate() const {
    require(std::isfinite(tol) && tol > 0, "tol must be a positive finite number");
    require(max_iter >= 0, "max_iter must be non-negative (0 = unlimited)");
    require(std::isfinite(bias_scale) && bias_scale >= 0, "intercept_scaling must be finite and >= 0");
  }
  /// The smallest group of equal rows that is solved as one variable; 0 = none.
  std::int64_t smallest_merged_group(LossType loss) const {
    if (merge_duplicates) return 2;
    return loss == LossType::hinge ? merge_min_copies : 0;
  }
};

enum class Status { converged, max_iter_reached };

inline const char* status_name(Status s) {
  switch (s) {
    case Status::converged:
      return "converged";
    case Status::max_iter_reached:
      return "max_iter_reached";
  }
  return "unknown";
}

/// What a run did: the numbers a user or a benchmark asks for.
struct Stats {
  std::int64_t sweeps = 0;             ///< outer iterations
  std::int64_t steps = 0;              ///< inner iterations (coordinates visited)
  double dual_objective = 0.0;         ///< maximisation form: sum alpha - 1/2||w||^2 - 1/2 sum D alpha^2
  double kkt_violation = 0.0;          ///< max |projected gradient| over the final full sweep
  /// penalty="l1" only (l1_cdn.hpp, which has no dual): ||w||_1 + sum C_i loss_i.
  double primal_objective = std::numeric_limits<double>::quiet_NaN();
  std::int64_t merged_rows = 0;        ///< rows solved as part of an equal row (duplicates.hpp)
  Status status = Status::converged;

  /// The field table: f(name, value) for every field, in this order (the
  /// status by its name); results cross to Python through these tables
  /// (python/bindings/fields.hpp), so a new statistic is a member and a
  /// line here.
  template <class Self, class F>
  static void for_each_field(Self& self, F&& f) {
    f("sweeps", self.sweeps);
    f("steps", self.steps);
    f("dual_objective", self.dual_objective);
    f("kkt_violation", self.kkt_violation);
    f("primal_objective", self.primal_objective);
    f("merged_rows", self.merged_rows);
    f("status", status_name(self.status));
  }
};

struct Result {
  std::vector<double> w;      ///< d + 1 entries; the last one is the bias weight (0 without bias)
  std::vector<double> alpha;  ///< one per sample
  Stats stats;
};

/// The index type of a CSR view (int for dense views, unused).
template <class View, class = void>
struct detail_index {
  using type = int;
};
template <class View>
struct detail_index<View, std::void_t<typename View::StorageIndex>> {
  using type = typename View::StorageIndex;
};

/// State of a run over the data view X (dense or CSR, never copied).
template <class View>
class CdState {
 public:
  /// y: labels +-1 (n); C: per-sample C_i >= 0 (n). Loss: Hinge or SquaredHinge.
  template <class Loss>
  CdState(const View& X, const double* y, const double* C, Loss, const Options& options)
      : X_(X),
        n_(X.rows()),
        d_(X.cols()),
        s_(options.bias_scale),
        w_(static_cast<std::size_t>(X.cols() + 1), 0.0),
        samples_(static_cast<std::size_t>(X.rows())) {
    for (Index i = 0; i < n_; ++i) {
      const auto k = static_cast<std::size_t>(i);
      require(std::isfinite(C[k]) && C[k] >= 0, "per-sample C must be finite and >= 0");
      require(y[k] == 1.0 || y[k] == -1.0, "binary labels must be +1 or -1");
      Sample& u = samples_[k];
      u.y = y[k];
      if (C[k] > 0) {
        u.upper = Loss::upper_bound(C[k]);
        u.diag = Loss::diagonal(C[k]);
        u.q = X.squared_norm(i) + s_ * s_ + u.diag;
        eligible_.push_back(i);
      }
    }
    if constexpr (View::is_sparse) {
      const auto m = X.matrix();
      row_start_ = m.outerIndexPtr();
      row_values_ = m.valuePtr();
      row_indices_ = m.innerIndexPtr();
    } else if constexpr (View::is_row_major) {
      row_values_ = X.matrix().data();
    }
  }

  /// Memory hints for a coordinate a few steps ahead: the steps visit rows
  /// in random order, so without them each step waits on memory (perf:
  /// most of a step's time). prefetch_sample(i) two steps ahead, then
  /// prefetch_row(i) one step ahead (it reads i's row offset).
  void prefetch_sample(Index i) const {
    BUDGETSVM_PREFETCH(&samples_[static_cast<std::size_t>(i)]);
    if constexpr (View::is_sparse) BUDGETSVM_PREFETCH(row_start_ + i);
  }
  void prefetch_row(Index i) const {
    if constexpr (View::is_sparse) {
      const auto k = row_start_[i];
      BUDGETSVM_PREFETCH(row_values_ + k);
      BUDGETSVM_PREFETCH(row_indices_ + k);
    } else if constexpr (View::is_row_major) {
      BUDGETSVM_PREFETCH(row_values_ + i * d_);
    }
  }

  /// One coordinate step; what a selection policy needs to know about it.
  struct Step {
    double G;     ///< partial derivative before the step
    double PG;    ///< projected gradient (0 when the bound blocks the move)
    double mu;    ///< alpha_i change
    double gain;  ///< decrease of f (>= 0), = mu (g - mu/2 Q_ii) with g = -G
  };

  /// Gradient of coordinate i (liblinear's G).
  double gradient(Index i) const {
    const Sample& u = samples_[static_cast<std::size_t>(i)];
    return u.y * (X_.dot(i, w_.data()) + s_ * w_[static_cast<std::size_t>(d_)]) - 1.0 +
           u.diag * u.alpha;
  }

  /// Projected gradient at alpha_i given G.
  double projected(Index i, double G) const {
    const Sample& u = samples_[static_cast<std::size_t>(i)];
    if (u.alpha <= 0.0) return std::min(G, 0.0);
    if (u.alpha >= u.upper) return std::max(G, 0.0);
    return G;
  }

  /// A per-sample slot owned by the selection policy (AVSF's preference),
  /// stored next to the sample's other numbers to save a cache miss.
  double& scratch(Index i) { return samples_[static_cast<std::size_t>(i)].scratch; }

  /// Exact minimisation of f along coordinate i, given its gradient G and
  /// projected gradient PG (computed by the caller, which may have decided
  /// to shrink instead). Steps only when |PG| > 1e-12, as liblinear does.
  /// A sample with a partner (an equal row with the opposite label) then
  /// also takes the flat step of the pair (flat_step).
  Step step(Index i, double G, double PG) {
    Step st = coordinate_step(i, G, PG);
    const Sample& u = samples_[static_cast<std::size_t>(i)];
    if (u.partner >= 0) st.gain += flat_step(i, u.partner, G + u.q * st.mu);
    return st;
  }

  /// Pairs every eligible row that has an equal row with the opposite label
  /// (first[i]: the first row equal to row i, duplicates.hpp) with one such
  /// row, in turn among the group's rows of the other label.
  void set_partners(const std::vector<Index>& first) {
    require(static_cast<Index>(first.size()) == n_, "first copies: one entry per row");
    const auto group = [&](Index i) { return first[static_cast<std::size_t>(i)]; };
    // only rows of groups with two or more eligible rows, in group order
    std::vector<Index> count(static_cast<std::size_t>(n_), 0), members;
    for (Index i : eligible_) ++count[static_cast<std::size_t>(group(i))];
    for (Index i : eligible_)
      if (count[static_cast<std::size_t>(group(i))] >= 2) members.push_back(i);
    std::stable_sort(members.begin(), members.end(), [&](Index p, Index q) { return group(p) < group(q); });
    std::vector<Index> P, N;
    for (std::size_t s = 0; s < members.size();) {
      std::size_t e = s;
      P.clear();
      N.clear();
      for (; e < members.size() && group(members[e]) == group(members[s]); ++e)
        (samples_[static_cast<std::size_t>(members[e])].y > 0 ? P : N).push_back(members[e]);
      s = e;
      if (P.empty() || N.empty()) continue;
      for (std::size_t k = 0; k < P.size(); ++k) samples_[static_cast<std::size_t>(P[k])].partner = N[k % N.size()];
      for (std::size_t k = 0; k < N.size(); ++k) samples_[static_cast<std::size_t>(N[k])].partner = P[k % P.size()];
    }
  }

 private:
  Step coordinate_step(Index i, double G, double PG) {
    Sample& u = samples_[static_cast<std::size_t>(i)];
    Step st{G, PG, 0.0, 0.0};
    if (std::fabs(PG) <= 1e-12) return st;
    const double old = u.alpha;
    double next;
    if (u.q > 0.0) {
      next = std::min(std::max(old - G / u.q, 0.0), u.upper);
    } else {
      next = G < 0.0 ? u.upper : 0.0;  // linear along i: go to the bound
    }
    st.mu = next - old;
    if (st.mu == 0.0) return st;
    u.alpha = next;
    const double a = st.mu * u.y;
    X_.axpy(a, i, w_.data());
    w_[static_cast<std::size_t>(d_)] += a * s_;
    st.gain = -st.mu * G - 0.5 * st.mu * st.mu * u.q;
    sum_alpha_ += st.mu;
    sum_diag_alpha2_ += u.diag * (next * next - old * old);
    return st;
  }

  /// Equal rows i, j with opposite labels: along alpha_i += t, alpha_j += t
  /// w does not move (y_i x~_i + y_j x~_j = 0), so f changes by
  /// g t + h t^2 / 2 with g = G_i + G_j = D_i alpha_i + D_j alpha_j - 2 and
  /// h = D_i + D_j -- no product with X needed (G_i is known, G_j = g - G_i).
  /// Coordinate steps alone can only zig-zag along this direction, by
  /// 2 / Q_ii a step (a stall when ||x||^2 is large: the pair's gradients
  /// stay equal, so liblinear's PGmax - PGmin test even passes with
  /// max |PG| = 2). The exact step, clipped to the box, taken only when
  /// both gradients agree with its sign (a move that one of them opposes is
  /// for the coordinate steps to make) and when the zig-zag would need more
  /// than kFlatVisits visits to cover it (length x Q_ii / |g|). Shorter
  /// flat steps are left to the coordinate steps because taking every one
  /// cost sweeps with the hinge loss (docs/linear.md).
  /// With the hinge loss (h = 0) the step runs to the box's corner, a jump
  /// that later sweeps undo as w moves on: at large C the 100-visit
  /// threshold took more than twice the sweeps of no flat steps at all, so
  /// there it takes kFlatVisitsToBound visits (the squared hinge's step, the
  /// exact minimum along the pair, keeps kFlatVisits: it saves sweeps at
  /// moderate C). Returns the decrease of f.
  double flat_step(Index i, Index j, double Gi) {
    Sample& a = samples_[static_cast<std::size_t>(i)];
    Sample& b = samples_[static_cast<std::size_t>(j)];
    const double g = a.diag * a.alpha + b.diag * b.alpha - 2.0;
    const double h = a.diag + b.diag;
    const double Gj = g - Gi;
    if (std::fabs(g) <= 1e-12 || (g < 0.0 ? (Gi > 0.0 || Gj > 0.0) : (Gi < 0.0 || Gj < 0.0))) return 0.0;
    const double room = g < 0.0 ? std::min(a.upper - a.alpha, b.upper - b.alpha) : std::min(a.alpha, b.alpha);
    const double newton = h > 0.0 ? std::fabs(g) / h : std::numeric_limits<double>::infinity();
    const double len = std::min(room, newton);
    const double visits = h > 0.0 ? kFlatVisits : kFlatVisitsToBound;
    if (!(len > 0.0) || !std::isfinite(len) || len * a.q <= visits * std::fabs(g)) return 0.0;
    const double t = g < 0.0 ? len : -len;
    const auto move = [&](Sample& v, double r) {
      const double old = v.alpha;
      // the blocking variable lands exactly on its bound
      v.alpha = len == r ? (g < 0.0 ? v.upper : 0.0) : std::min(std::max(old + t, 0.0), v.upper);
      sum_alpha_ += v.alpha - old;
      sum_diag_alpha2_ += v.diag * (v.alpha * v.alpha - old * old);
    };
    move(a, g < 0.0 ? a.upper - a.alpha : a.alpha);
    move(b, g < 0.0 ? b.upper - b.alpha : b.alpha);
    return -(g * t + 0.5 * h * t * t);
  }

 public:

  /// Dual objective in the maximisation form (what the paper's W is).
  double dual_objective() const {
    double ww = 0.0;
    for (double v : w_) ww += v * v;
    return sum_alpha_ - 0.5 * ww - 0.5 * sum_diag_alpha2_;
  }

  Index size() const { return n_; }
  Index features() const { return d_; }
  const std::vector<Index>& eligible() const { return eligible_; }
  Result result(Stats stats) && {
    // Recompute the sums exactly (the running sums drift a little).
    sum_alpha_ = 0.0;
    sum_diag_alpha2_ = 0.0;
    std::vector<double> alpha(samples_.size());
    for (std::size_t k = 0; k < samples_.size(); ++k) {
      const Sample& u = samples_[k];
      alpha[k] = u.alpha;
      sum_alpha_ += u.alpha;
      sum_diag_alpha2_ += u.diag * u.alpha * u.alpha;
    }
    stats.dual_objective = dual_objective();
    return Result{std::move(w_), std::move(alpha), stats};
  }

 private:
  // Everything a step reads about sample i, in one cache line.
  struct Sample {
    double alpha = 0.0, q = 0.0, upper = 0.0, diag = 0.0, y = 1.0, scratch = 0.0;
    Index partner = -1;  ///< an equal row with the opposite label (set_partners), -1: none
  };
  const View& X_;
  Index n_, d_;
  double s_;
  std::vector<double> w_;
  std::vector<Sample> samples_;
  // Raw pointers into X for the prefetch hints (CSR; dense row-major).
  const typename View::Scalar* row_values_ = nullptr;
  const std::conditional_t<View::is_sparse, typename detail_index<View>::type, int>* row_start_ = nullptr;
  const std::conditional_t<View::is_sparse, typename detail_index<View>::type, int>* row_indices_ = nullptr;
  std::vector<Index> eligible_;
  double sum_alpha_ = 0.0, sum_diag_alpha2_ = 0.0;
};

/// End-of-sweep bookkeeping shared by the policies: counts the sweep and
/// says whether the limit max_iter ends the run.
inline bool sweep_limit_reached(const Options& options, Stats& stats) {
  ++stats.sweeps;
  if (options.max_iter > 0 && stats.sweeps >= options.max_iter) {
    stats.status = Status::max_iter_reached;
    return true;
  }
  return false;
}

}  // namespace budgetsvm::linear
