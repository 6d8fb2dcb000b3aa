// Budgeted stochastic coordinate ascent (BSCA).
//
// Problem: the C-SVM dual, with per-point boxes C_i = C w_i (sample and
// class weights) and, with fit_intercept, a constant feature of value 1
// (the offset b = sum_i alpha_i y_i, regularised with w: Q_ii = k_ii + 1),
//   max_alpha  sum_i alpha_i - 1/2 sum_{i,j} alpha_i alpha_j y_i y_j Q_ij,
//   0 <= alpha_i <= C_i,
// with w = sum_i alpha_i y_i phi(x_i) approximated by a budget model of at
// most B support vectors. docs/budgeted.md states the math in full.
//
// Algorithm: Qaadan, Schuler & Glasmachers, "Dual SVM Training on a Budget"
// (ICPRAM 2019), Algorithm 2: per step pick i (a fresh random permutation
// per epoch), f = sum_M beta k(x_i, z) + b,
//   delta = clip(alpha_i + (1 - y_i f) / Q_ii, 0, C_i) - alpha_i,
// and if delta != 0: alpha_i += delta and add (y_i delta, x_i) to the model
// (the paper's pseudo-code drops the label y_i), then budget maintenance
// when |M| > B. Merge partners are chosen by the sign of beta. A fixed
// number of epochs; no KKT stopping (not meaningful under a budget).
//
// In-place steps: the model remembers which support vector is still an
// unmerged copy of which training point (an O(n) map). A step on such a
// point changes that coefficient in place: exact, and no maintenance.
//
// Regression (epsilon-SVR, regression.hpp): the same machine with real
// targets in place of the labels and the signed coefficient beta_i in
// [-C_i, C_i] as the dual variable; its step is the exact soft-threshold
// step of svr_coordinate_step. The first pass, averaging and the rule for
// merged copies below carry over (docs/budgeted.md, "Regression").
//
// Multi-class: one-vs-rest, each class an independent binary machine with
// its own random stream (results do not depend on n_jobs); classes run in
// parallel threads, epoch by epoch, so that the callback sees every epoch.
//
// Where we differ from the paper, and why. Each departure answers a failure
// at scale or on noisy data; docs/budgeted.md gives the measurements.
//
// The first pass. Plain coordinate steps from alpha = 0 are, in a single
// pass, a passive-aggressive online learner: nothing is ever shrunk, so on
// noisy data every mislabelled point adds its full C and the iterate
// oscillates; the regularisation only acts through revisits, which a
// single pass over millions of rows does not make. In the first epoch we
// therefore solve, at step t, the problem on the t points seen so far with
// the same lambda = 1/(C n) (SDCA's "modified SGD" start, Shalev-Shwartz &
// Zhang, JMLR 14, 2013): the model shrinks by (t - 1)/t (one scale factor,
// O(1)), the box of the step is C_i n / t, and the coordinate step is the
// exact dual step for that problem. A point visited at t with step delta
// ends the epoch with alpha_i = delta t / n <= C_i, so later epochs continue
// plain BSCA from a feasible alpha. (Against BSGD this is Pegasos with the
// step length optimised per point instead of the full eta_t.)
//
// Averaging. The output is the average of the iterates over a window: the
// last epoch, or the second half of a single pass (SDCA's averaged output:
// for the hinge loss the duality-gap bound holds for an average of
// iterates, not for the last one; with a bias-free model at large C the
// last iterate's offset jitters from step to step). The average is a
// second budget model that takes each step with its weight; over the last
// epoch (T - t + 1) / T, over the growing pass (t / W) sum_{u=t..T} 1/u
// (the shrinking makes w_u = sum_{s<=u} (s/u) Delta_s). The window is
// capped at the last 100 B steps: the averaged model never sees the data,
// so its own merges are not corrected by later steps and their errors add
// up with the window's length. After the last epoch, a single pass
// included, the average is kept only if its primal objective, estimated on
// an even sample of <= 10,000 rows, is not above the last iterate's: the
// averaged model's merges can outweigh what averaging gains (at large C
// after several epochs; in one pass, on some seeds of noisy problems, where
// the pass itself went as well as on the others). The test looks at a
// quarter and then half of the sample first and stops where the difference
// is already 4 standard errors from 0 (settle_difference). After the growing
// pass both models are candidates for the whole problem, of n points (the
// caller's n for partial_fit and shards): the sample's mean loss is scaled
// to n points.
//
// Dual variables after a merge: kept (the paper's rule). When maintenance
// merges or removes x_i's copy, alpha_i keeps counting x_i's weight against
// its box, though the merged vector carries it elsewhere and with less mass.
// Restarting alpha_i at 0 instead (alpha consistent with the model) lets each
// mislabelled point add C again in every epoch, into a merged remainder
// that no dual variable can take back, so the effective C grows with the
// epochs. The price of keeping: negative steps add opposite-sign copies,
// hence more insertions and merges per epoch.
//
// The intercept (fit_intercept, off by default): in the constant-feature
// form single coordinate steps keep every constraint (an unregularised b
// would add sum_i alpha_i y_i = 0). b is a scalar kept exactly, outside the
// budget; in a single pass it takes every early step's full weight.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "../core/control.hpp"
#include "../core/parallel.hpp"
#include "../core/random.hpp"
#include "block.hpp"
#include "bsgd.hpp"
#include "maintenance.hpp"
#include "model.hpp"
#include "params.hpp"
#include "start.hpp"

namespace budgetsvm::budget {

/// The exact coordinate step of the epsilon-SVR dual (docs/budgeted.md,
/// "The BSCA step for regression"): the b in [-C, C] that maximises
/// -q/2 (b - beta)^2 + r (b - beta) - epsilon |b|, where r = z_i - f(x_i) is
/// the residual at the current coefficient beta and q = Q_ii > 0. The
/// unconstrained maximiser is the soft threshold of the Newton point
/// u = beta + r / q at epsilon / q; the function is concave, so clipping it
/// to the box is the constrained maximiser.
inline double svr_coordinate_step(double beta, double r, double q, double epsilon, double C) {
  const double u = beta + r / q;
  const double shrunk = std::max(0.0, std::fabs(u) - epsilon / q);
  return std::clamp(u < 0.0 ? -shrunk : shrunk, -C, C);
}

/// One binary BSCA machine: labels +1 for the class `positive`, -1 else.
/// `weight` (nullable) scales each point's box: 0 <= alpha_i <= C w_i.
/// `start` (start.hpp): the model to continue (its column `column`, or all
/// for -1), coefficients times `factor`; the growing pass then continues at
/// step start.steps + 1 of a problem of `n` points (0: this call's points).
/// `later_held`: support vectors a model loaded later (replace_model) may
/// bring, beyond the start's.
template <class Maintenance>
class BscaMachine {
 public:
  template <class MakeMaintenance>
  BscaMachine(const Rows& X, const int* y, const double* weight, int positive, const Params& params,
              std::uint64_t seed, MakeMaintenance& make_maintenance, const Start& start = Start{}, int column = -1,
              double factor = 1.0, Index later_held = 0)
      : X_(X),
        weight_(weight),
        params_(params),
        model_(X.cols(), reachable_budget(params, X.rows(), start_size(start, column) + later_held), 1,
               params.kernel, simd::active_kernels(), X.rows()),
        maintenance_(make_maintenance(model_)),
        rng_(seed),
        alpha_(static_cast<std::size_t>(X.rows()), 0.0),
        label_(static_cast<std::size_t>(X.rows())),
        order_(static_cast<std::size_t>(X.rows())),
        t0_(start.steps),
        n_problem_(start.n) {
    if (y)
      for (Index i = 0; i < X.rows(); ++i) label_[static_cast<std::size_t>(i)] = y[i] == positive ? 1.0 : -1.0;
    std::iota(order_.begin(), order_.end(), Index{0});
    Counters loading;
    load_start(model_, maintenance_, loading, start, X.centre(), column, factor, params.budget);
    if (params.fit_intercept) bias_ = start_intercept(start, column < 0 ? 0 : column, factor);
  }

  /// The regression machine (epsilon-SVR, docs/budgeted.md "Regression"):
  /// targets z, tube half-width epsilon >= 0; its dual variable per point is
  /// the signed coefficient beta_i in [-C_i, C_i] itself.
  template <class MakeMaintenance>
  BscaMachine(const Rows& X, const double* target, double epsilon, const double* weight, const Params& params,
              std::uint64_t seed, MakeMaintenance& make_maintenance, const Start& start = Start{}, double factor = 1.0)
      : BscaMachine(X, static_cast<const int*>(nullptr), weight, 1, params, seed, make_maintenance, start, -1, factor) {
    regression_ = true;
    epsilon_ = epsilon;
    std::copy(target, target + X.rows(), label_.begin());
  }

  /// The steps a later run continues from: the start's plus this run's
  /// first epoch (the points of the problem; see start.hpp).
  long long steps_total() const { return t0_ + first_epoch_steps_; }

  /// One epoch, polling `control` (parallel.hpp: the caller's on the
  /// calling thread, a stop flag elsewhere). `average`: return the average of the
  /// iterates over the whole epoch (Window::epoch) or its second half.
  /// `first_pass`: the growing-problem first epoch (see "The first pass").
  enum class Window { none, epoch, second_half };
  /// One step of the averaged model: row r of its block (training point
  /// i) with coefficient beta (the step times its averaging weight).
  struct AverageEvent {
    Index i, r;
    double beta, kself;
  };

  /// The averaging window is at most the last kAverageWindow * B steps
  /// (see "Averaging").
  static constexpr Index kAverageWindow = 100;
  /// The epoch runs in blocks (block.hpp) whose kernel tiles take up to
  /// `tile_jobs` threads.
  void run_epoch(Counters& counters, RunControl& control,
                 Window average = Window::none, bool first_pass = false, int tile_jobs = 1) {
    rng_.shuffle(order_);
    const bool unit_diagonal = params_.kernel.type == KernelType::rbf;
    const double bias_q = params_.fit_intercept ? 1.0 : 0.0;
    Index n_steps = 0;  // the points in the problem (weight > 0)
    for (const Index i : order_) n_steps += (weight_ ? weight_[i] > 0.0 : true) ? 1 : 0;
    if (!counted_) first_epoch_steps_ = n_steps, counted_ = true;
    // The growing pass counts steps from the start's (t0); its problem has
    // n_problem_ points when the caller says so (partial_fit, shards).
    const double n_total = n_problem_ > 0.0 ? n_problem_ : static_cast<double>(t0_ + n_steps);
    const double t0 = first_pass ? static_cast<double>(t0_) : 0.0;
    // The window: the epoch (second half of a single pass), at most the last
    // kAverageWindow * B steps (see "Averaging").
    Index average_from = average == Window::none ? -1 : average == Window::epoch ? 0 : n_steps / 2;
    if (average_from >= 0) {
      // kAverageWindow * B saturates at n_steps (B may be near Index's limit)
      const Index per_budget = kAverageWindow;
      Index longest = params_.budget > n_steps / per_budget ? n_steps : per_budget * params_.budget;
      if (window_share_ < 1.0)
        longest = std::max<Index>(1, static_cast<Index>(static_cast<double>(longest) * window_share_));
      average_from = std::max(average_from, n_steps - longest);
    }
    const Index window_start = std::max<Index>(average_from, 0);
    const double window = static_cast<double>(n_steps - window_start);
    // First pass: sum_{t=s..T} 1/t for the averaging weights, kept as we go.
    double harmonic_tail = 0.0;
    if (first_pass && average_from >= 0)
      for (Index t = window_start + 1; t <= n_steps; ++t) harmonic_tail += 1.0 / (t0 + static_cast<double>(t));
    Index step_no = 0;
    loss_ = 0.0;
    const Index n_order = static_cast<Index>(order_.size());
    const Index block_size = block_rows_for(model_.capacity() - 1, params_.block_rows);
    // The tiles listen to their models for this epoch only.
    struct Detach {
      BscaMachine& m;
      ~Detach() {
        m.tile_.detach();
        m.avg_tile_.detach();
      }
    } detach_at_end{*this};
    // Blocks of up to block_size rows of the problem (C_i > 0).
    Index at = 0;
    auto load_block = [&](int k) {
      std::vector<Index>& out = ids_[k];
      out.clear();
      while (at < n_order && static_cast<Index>(out.size()) < block_size) {
        const Index i = order_[static_cast<std::size_t>(at++)];
        if (box(i) > 0.0) out.push_back(i);  // weight 0: the point is not part of the problem
      }
      blocks_[k].assign(X_, out.data(), static_cast<Index>(out.size()));
    };
    // The averaged model takes each block's steps one block later (the
    // block's events), beside the iterate's next block: see "Averaging".
    for (auto& events : avg_events_) events.clear();
    load_block(0);
    blocks_[0].load_rows(X_, 0, blocks_[0].size());
    tile_.compute(blocks_[0], 0, model_, tile_jobs, control);
    int cur = 0;
    for (; blocks_[cur].size() > 0; cur = (cur + 1) % 3) {
      const int next_k = (cur + 1) % 3, prev_k = (cur + 2) % 3;
      const RowBlock& block = blocks_[cur];
      std::vector<AverageEvent>& events = avg_events_[cur];
      events.clear();
      auto steps = [&](RunControl& ctl) {
        for (Index r = 0; r < block.size(); ++r) {
          ctl.poll();
          if (r + 2 < block.size()) {
            // the per-point values of a step two ahead: random visits miss the cache
            const Index ahead = block.id(r + 2);
            BUDGETSVM_PREFETCH(label_.data() + ahead);
            BUDGETSVM_PREFETCH(alpha_.data() + ahead);
            model_.prefetch_slot_of(ahead);
          }
          const Index i = block.id(r);
          const SampleRow& row = block.row(r);
          const double Ci = box(i);
          if (step_no == average_from) {
            // First pass: the state at the window's start enters the average
            // with weight (T0 / W) sum_{t>T0} 1/t (see "The first pass").
            begin_average(first_pass ? (t0 + static_cast<double>(window_start)) / window * harmonic_tail : 1.0);
          }
          ++step_no;
          ++counters.steps;
          const double t = t0 + static_cast<double>(step_no);  // the growing pass's step (global)
          if (first_pass && average_from >= 0 && step_no > window_start) harmonic_tail -= 1.0 / t;
          // The box of this step, and the factor from its units to the final ones.
          double C = Ci, to_final = 1.0;
          if (first_pass) {
            // The problem on the first t points with the same lambda: the model
            // shrinks by (t - 1) / t (t = 1 clears it) and the box is C n / t.
            if (t == 1.0) {
              model_.clear();
              maintenance_.on_clear();
            } else {
              model_.shrink((t - 1.0) / t);
            }
            bias_ *= (t - 1.0) / t;
            C = Ci * n_total / t;
            to_final = t / n_total;
          }
          const double* krow = tile_.row(r);
          const double f = model_.margin(krow) + bias_;
          const double yi = label_[static_cast<std::size_t>(i)];
          loss_ += Ci * point_loss(yi, f);
          const double qii = (unit_diagonal ? 1.0 : model_.self_kernel(row.sqnorm)) + bias_q;
          if (!(qii > 0.0)) continue;  // a zero row under a linear/poly kernel, no intercept
          double& ai = alpha_[static_cast<std::size_t>(i)];
          // delta: the step of the dual variable; dbeta: of the point's
          // coefficient (y_i delta for classification, delta for regression).
          double delta, dbeta;
          if (regression_) {
            // The exact coordinate step (docs/budgeted.md, "The BSCA step for
            // regression"): maximise -q/2 (b - beta_i)^2 + (z_i - f)(b - beta_i)
            // - epsilon |b| over b in [-C, C]: the soft threshold of the
            // Newton point u at epsilon / q, clipped to the box.
            const double beta_i = ai / to_final;
            delta = svr_coordinate_step(beta_i, yi - f, qii, epsilon_, C) - beta_i;
            dbeta = delta;
          } else {
            delta = std::clamp(ai / to_final + (1.0 - yi * f) / qii, 0.0, C) - ai / to_final;
            dbeta = yi * delta;
          }
          if (delta == 0.0) continue;
          ai += delta * to_final;
          bias_ += bias_q * dbeta;
          if (avg_) {
            const double w = first_pass ? t / window * (harmonic_tail + 1.0 / t)
                                        : static_cast<double>(n_steps - step_no + 1) / window;
            events.push_back({i, r, dbeta * w, qii - bias_q});
          }
          const Index slot = model_.slot_of(i);
          if (slot >= 0) {
            double& coef = model_.coef()[slot];
            coef += dbeta / model_.scale();
            if (std::fabs(coef) * std::fabs(model_.scale()) <= 1e-12 * Ci) {
              // The copy's coefficient returned to 0: drop it exactly.
              maintenance_.remove(model_, slot);
            }
            continue;
          }
          const double beta = dbeta;
          model_.add(row, &beta, i);
          ++counters.sv_added;
          if (maintenance_.on_add(model_, krow, qii - bias_q)) {
            // x_i lay in the span of the budget and was projected onto it
            // exactly: the model still carries beta_i x_i, so alpha_i stays.
            ++counters.projections;
            continue;
          }
          if (model_.size() > params_.budget) {
            maintenance_.reduce(model_, counters, nullptr, krow);  // krow: the new SV's row
          }
        }
      };
      load_block(next_k);
      RowBlock& next = blocks_[next_k];
      // The previous block's steps of the average, the next block's rows
      // and tile beside this block's steps (block.hpp).
      auto average = [&](RunControl& ctl) { average_block(blocks_[prev_k], avg_events_[prev_k], ctl); };
      const bool averaging = !avg_events_[prev_k].empty();
      if (next.size() > 0) tile_.snapshot(model_);
      steps_beside_next(steps, averaging ? AverageTask(average) : AverageTask(), X_, next,
                        next.size() > 0 ? &tile_ : nullptr, tile_jobs,
                        tile_work(next, model_) + (averaging ? tile_work(block, *avg_) : 0.0), control);
      if (next.size() > 0) tile_.adopt(next);
    }
    // The last block's steps of the average.
    average_block(blocks_[(cur + 2) % 3], avg_events_[(cur + 2) % 3], control);
    if (first_pass) model_.fold_scale();  // later epochs step in true units
    // The settle's scale of the mean per-row loss: the rows of X, or after
    // the growing pass its problem's n_total points (X's rows are n_steps
    // of them, zero-weight rows counted as loss 0).
    settle_rows_ = first_pass && n_steps > 0 ? n_total * static_cast<double>(n_order) / static_cast<double>(n_steps)
                                             : static_cast<double>(n_order);
    // The averaged model's maintenance counts in maintenance_seconds (its
    // merges do not count in `merges`, which are the iterate's).
    counters.maintenance_seconds += avg_counters_.maintenance_seconds;
    avg_counters_.maintenance_seconds = 0.0;
  }

  const std::vector<double>& alpha() const { return alpha_; }

  /// Caps the averaging window at this share of its 100 B steps (shards
  /// trained apart, shards.hpp: together they then average as many steps
  /// as one machine, at a quarter less time and the same accuracy).
  void set_window_share(double share) { window_share_ = std::clamp(share, 0.0, 1.0); }

  /// Restores the dual variables a previous run of this machine's problem
  /// ended with (sharded rounds whose caller keeps them: shards.hpp), one
  /// per row, each in [0, C_i] (C_i = C w_i).
  void set_alpha(const double* alpha) {
    for (Index i = 0; i < static_cast<Index>(alpha_.size()); ++i) {
      const double Ci = box(i);
      const double a = alpha[i];
      if (!(std::isfinite(a) && a >= 0.0 && a <= Ci * (1.0 + 1e-9)))  // the message only when it fails
        require(false, "dual variable " + std::to_string(i) + " is " + std::to_string(a) + ", outside its box [0, " +
                           std::to_string(Ci) + "]");
      alpha_[static_cast<std::size_t>(i)] = a;
    }
  }

  /// Continues from another model of the same problem (the shards' mix,
  /// shards.hpp): model and offset replaced, dual variables, random stream
  /// and step count kept. The mix holds no point ids, so a step on a point
  /// whose copy came back in the mix adds it anew (maintenance merges the
  /// two exactly: they are one point).
  void replace_model(const Start& start, Counters& counters) {
    model_.clear();
    maintenance_.on_clear();
    avg_.reset();
    avg_maintenance_.reset();
    load_start(model_, maintenance_, counters, start, X_.centre(), -1, 1.0, params_.budget);
    bias_ = params_.fit_intercept ? start_intercept(start, 0, 1.0) : 0.0;
  }

  BudgetModel& model() { return model_; }

  /// The sum of C_i max(0, 1 - y_i f(x_i)) over the last epoch's steps,
  /// each taken with the model at that step.
  double progressive_loss() const { return loss_; }

  /// The model to export: the average when one was taken.
  BudgetModel& final_model() { return avg_ ? *avg_ : model_; }
  double final_bias() const { return avg_ ? avg_bias_ : bias_; }

  /// After the last epoch (a single pass included): keeps the average only if
  /// its primal objective, estimated on an even sample of at most 10,000
  /// rows, is not above the last iterate's (see "Averaging": the averaged
  /// model's merges are never corrected by the data, and their errors can
  /// outweigh what averaging gains). Returns true when the average is kept.
  /// The rows settle_average samples by default (sharded runs split them).
  static constexpr Index kSettleSample = 10000;
  bool settle_average(Index sample = kSettleSample) {
    if (!avg_) return false;
    const Index m = std::max<Index>(1, std::min<Index>(X_.rows(), sample));
    if (settle_difference(m) <= 0.0) return true;
    avg_.reset();
    return false;
  }

  bool has_average() const { return static_cast<bool>(avg_); }

  /// Instruments: how many alpha_i are 0, at their bound, in between.
  void count_alpha(EpochStats& s) const {
    if (s.alpha_zero < 0) s.alpha_zero = s.alpha_bound = s.alpha_free = 0;
    for (Index i = 0; i < static_cast<Index>(alpha_.size()); ++i) {
      const double C = box(i);
      const double a = regression_ ? std::fabs(alpha_[static_cast<std::size_t>(i)]) : alpha_[static_cast<std::size_t>(i)];
      if (a <= 0.0) ++s.alpha_zero;
      else if (a >= C) ++s.alpha_bound;
      else ++s.alpha_free;
    }
  }

  /// Instruments: 1/2 ||w||^2 (the intercept's constant feature included)
  /// and the summed hinge loss of the model to export, by one pass.
  std::pair<double, double> primal() {
    BudgetModel& M = final_model();
    const double b = final_bias();
    std::vector<double> k(static_cast<std::size_t>(M.capacity()));
    SampleRow r;
    double loss = 0.0;
    for (Index i = 0; i < X_.rows(); ++i) {
      const double C = box(i);
      if (!(C > 0.0)) continue;
      X_.load(i, r);
      loss += C * hinge(M, b, i, r, k.data());
    }
    return {M.squared_norm() + (params_.fit_intercept ? b * b : 0.0), loss};
  }


 private:
  /// The loss (point_loss) at f(x_i) + b of model M with offset b for row i, loaded
  /// in r (k: scratch for its kernel row).
  double hinge(BudgetModel& M, double b, Index i, const SampleRow& r, double* k) const {
    M.kernel_row(r, k);
    return point_loss(label_[static_cast<std::size_t>(i)], M.margin(k) + b);
  }

  /// The loss of a point with label (classification) or target
  /// (regression) y at f: the hinge, or the epsilon-insensitive loss.
  double point_loss(double y, double f) const {
    return regression_ ? std::max(0.0, std::fabs(y - f) - epsilon_) : std::max(0.0, 1.0 - y * f);
  }

  /// C_i, or 0 for a row of weight 0 (not part of the problem).
  double box(Index i) const { return weight_ ? params_.C * weight_[i] : params_.C; }

  /// The settle's test (see "Averaging"): the primal objective of the average
  /// minus the last iterate's, with the hinge losses summed over m evenly
  /// spaced rows and scaled by n / m. Sequential: every kSettleFirstStride-th
  /// row of the sample first, then every second, then all. After each look
  /// but the last, a difference more than kSettleSigmas of its standard error
  /// away from 0 decides (the error from the spread of the per-row loss
  /// differences; both models meet the same rows) and the other rows are
  /// not evaluated; otherwise the whole sample decides. Samples below
  /// kSettleFirstStride * kSettleFirstRows rows get the one look at all of them.
  static constexpr Index kSettleFirstStride = 4, kSettleFirstRows = 500;
  static constexpr double kSettleSigmas = 4.0;
  double settle_difference(Index m) {
    const Index n = X_.rows();
    const double stride = static_cast<double>(n) / static_cast<double>(m);
    const double scale = settle_rows_ > 0.0 ? settle_rows_ : static_cast<double>(n);  // rows the mean loss stands for
    const double b2 = params_.fit_intercept ? avg_bias_ * avg_bias_ - bias_ * bias_ : 0.0;
    const double norms = 0.5 * (avg_->squared_norm() - model_.squared_norm() + b2);
    std::vector<double> ka(static_cast<std::size_t>(avg_->capacity())), kt(static_cast<std::size_t>(model_.capacity()));
    SampleRow r;
    double sum = 0.0, sum2 = 0.0;
    Index seen = 0;
    const Index top = m >= kSettleFirstStride * kSettleFirstRows ? kSettleFirstStride : 1;
    for (Index step = top; step >= 1; step /= 2) {
      // the first look: every step-th row; later ones: the odd multiples of step
      const Index first = step == top ? 0 : step, by = step == top ? step : 2 * step;
      for (Index q = first; q < m; q += by, ++seen) {
        const Index i = static_cast<Index>(static_cast<double>(q) * stride);
        const double C = box(i);
        if (!(C > 0.0)) continue;  // counted in `seen`: a difference of 0
        X_.load(i, r);
        const double dq = C * (hinge(*avg_, avg_bias_, i, r, ka.data()) - hinge(model_, bias_, i, r, kt.data()));
        sum += dq;
        sum2 += dq * dq;
      }
      if (step == 1) break;
      const double f = static_cast<double>(seen), mean = sum / f;
      const double variance = std::max(0.0, (sum2 - sum * mean) / (f - 1.0));
      const double estimate = norms + scale * mean;
      if (std::fabs(estimate) > kSettleSigmas * scale * std::sqrt(variance / f)) return estimate;
    }
    return norms + sum * (scale / static_cast<double>(m));
  }

  /// Starts the average of the iterates (see "Averaging" above): a second
  /// budget model, a copy of the current one, with its own maintenance.
  void begin_average(double weight) {
    avg_tile_.detach();  // from the average it replaces
    avg_ = std::make_unique<BudgetModel>(model_);
    avg_->shrink(weight);
    // A copy of the maintenance state too: projection keeps the inverse
    // kernel matrix of exactly these support vectors.
    avg_maintenance_ = std::make_unique<Maintenance>(maintenance_);
    avg_bias_ = bias_ * weight;
  }

  /// The averaged model's steps of one block, in order, on its own tile of
  /// the block's rows from the first step's on (one thread: the tile of the
  /// average depends on the rows and the steps only).
  void average_block(const RowBlock& block, std::vector<AverageEvent>& events, RunControl& control) {
    if (events.empty()) return;
    avg_tile_.compute(block, events.front().r, *avg_, 1, control);
    for (const AverageEvent& e : events) average_step(block, e.i, e.r, e.beta, e.kself);
    events.clear();
  }

  /// Adds beta x_i (row r of the block) to the averaged model (in place on
  /// x_i's copy there).
  void average_step(const RowBlock& block, Index i, Index r, double beta, double kself) {
    // (called by average_block only)
    BudgetModel& A = *avg_;
    if (params_.fit_intercept) avg_bias_ += beta;
    const Index slot = A.slot_of(i);
    if (slot >= 0) {
      A.coef()[slot] += beta / A.scale();
      return;
    }
    A.add(block.row(r), &beta, i);
    // The new point's kernel row against the average's other support
    // vectors: projection borders its inverse with it, a merge of the new
    // point (nearly always the one with the least weight) reads it.
    const double* krow = avg_tile_.row(r);
    if (avg_maintenance_->on_add(A, krow, kself)) return;
    if (A.size() > params_.budget) avg_maintenance_->reduce(A, avg_counters_, nullptr, krow);
  }

  const Rows& X_;
  const double* weight_;
  const Params& params_;
  BudgetModel model_;
  Maintenance maintenance_;
  Random rng_;
  std::vector<double> alpha_, label_;
  std::vector<Index> order_;
  // The epoch's block of rows and the kernel tiles of the iterate and of
  // the average against it (block.hpp).
  std::vector<Index> ids_[3];
  RowBlock blocks_[3];
  KernelTile tile_, avg_tile_;
  std::vector<AverageEvent> avg_events_[3];  // per block buffer
  long long t0_ = 0, first_epoch_steps_ = 0;
  bool counted_ = false;
  double n_problem_ = 0.0;
  double window_share_ = 1.0;
  double bias_ = 0.0, loss_ = 0.0;
  double settle_rows_ = 0.0;  // see run_epoch's end
  std::unique_ptr<BudgetModel> avg_;
  std::unique_ptr<Maintenance> avg_maintenance_;
  double avg_bias_ = 0.0;
  Counters avg_counters_;
  // Regression (epsilon-SVR): label_ holds the targets, alpha_ the signed beta_i.
  bool regression_ = false;
  double epsilon_ = 0.0;
};

/// The epochs of BSCA's machines (one binary or regression machine, or the
/// one-vs-rest machines of every class, in parallel), then the export:
/// one machine -> its model; one-vs-rest -> every class's SVs stacked,
/// coefficients in that class's column only.
template <class Machine>
Result run_bsca_machines(std::vector<std::unique_ptr<Machine>>& machines, Index d, const Params& params,
                         const EpochCallback& callback, RunControl& control) {
  const int n_machines = static_cast<int>(machines.size());
  std::vector<Counters> counters(static_cast<std::size_t>(n_machines));
  Result result;
  result.n_outputs = n_machines;
  const Stopwatch timer;
  const int n_threads = std::max(1, std::min(params.n_jobs, n_machines));
  // The threads go to the machines, or to the one machine's kernel tiles.
  const int tile_jobs = n_threads > 1 ? 1 : params.n_jobs;

  for (int epoch = 1; epoch <= params.epochs; ++epoch) {
    // The averaging window: the last epoch; the second half of a single pass.
    using Window = typename Machine::Window;
    const bool first_pass = epoch == 1;
    Window average = Window::none;
    if (epoch == params.epochs) average = params.epochs == 1 ? Window::second_half : Window::epoch;
    // Each machine is touched by exactly one thread per epoch.
    parallel_tasks(n_machines, n_threads, control, [&](Index c, RunControl& ctl) {
      machines[static_cast<std::size_t>(c)]->run_epoch(counters[static_cast<std::size_t>(c)], ctl, average,
                                                       first_pass, tile_jobs);
    });
    // The last epoch's average against its last iterate (see "Averaging").
    if (epoch == params.epochs)
      for (auto& m : machines) {
        control.poll_now();
        result.averaged += m->settle_average() ? 1 : 0;
      }

    EpochStats stats;
    stats.epoch = epoch;
    for (int c = 0; c < n_machines; ++c) {
      auto& m = *machines[static_cast<std::size_t>(c)];
      stats.totals += counters[static_cast<std::size_t>(c)];
      stats.n_support += m.model().size();
      stats.progressive_loss += m.progressive_loss();
    }
    if (params.instruments) {
      stats.objective = stats.sq_norm = 0.0;
      for (auto& m : machines) {
        control.poll_now();
        const auto [sq, loss] = m->primal();
        stats.sq_norm += sq;
        stats.objective += 0.5 * sq + loss;
        m->count_alpha(stats);
      }
    }
    stats.seconds = timer.seconds();
    if (end_epoch(result, stats, callback, control)) break;
  }

  Index total = 0;
  for (auto& m : machines) total += m->final_model().size();
  result.support_vectors.setZero(total, d);
  result.dual_coef.setZero(total, result.n_outputs);
  result.intercept.assign(static_cast<std::size_t>(result.n_outputs), 0.0);
  Index r = 0;
  for (int c = 0; c < n_machines; ++c) {
    MatrixXd sv, coef;
    auto& m = *machines[static_cast<std::size_t>(c)];
    m.final_model().export_to(sv, coef);
    result.support_vectors.middleRows(r, sv.rows()) = sv;
    result.dual_coef.block(r, n_machines == 1 ? 0 : c, sv.rows(), 1) = coef;
    result.intercept[static_cast<std::size_t>(c)] = m.final_bias();
    r += sv.rows();
  }
  for (auto& cnt : counters) result.totals += cnt;
  result.seconds = timer.seconds();
  result.steps_total = machines.front()->steps_total();
  return result;
}

/// Trains BSCA: binary for n_classes == 2 (class 1 positive), else
/// one-vs-rest with n_jobs threads. `weight` (nullable): per-point factors
/// of C. `start`: the model to continue (one-vs-rest: each machine its
/// class column), coefficients times `factor` (start.hpp).
template <class MakeMaintenance>
Result train_bsca(const Rows& X, const int* y, const double* weight, int n_classes, const Params& params,
                  MakeMaintenance make_maintenance, const EpochCallback& callback,
                  RunControl& control, const Start& start = Start{}, double factor = 1.0) {
  using Maintenance = decltype(make_maintenance(std::declval<BudgetModel&>()));
  const int n_machines = n_classes == 2 ? 1 : n_classes;
  std::vector<std::unique_ptr<BscaMachine<Maintenance>>> machines;
  Random seeder(params.seed);
  for (int c = 0; c < n_machines; ++c) {
    const int positive = n_classes == 2 ? 1 : c;
    machines.push_back(std::make_unique<BscaMachine<Maintenance>>(
        X, y, weight, positive, params, seeder.next(), make_maintenance, start, n_classes == 2 ? -1 : c, factor));
  }
  return run_bsca_machines(machines, X.cols(), params, callback, control);
}

/// Trains BSCA for epsilon-SVR (docs/budgeted.md, "Regression"): one
/// machine on real targets z with tube half-width epsilon; the rest as
/// train_bsca (first pass, averaging, maintenance).
template <class MakeMaintenance>
Result train_bsca_regression(const Rows& X, const double* z, double epsilon, const double* weight,
                             const Params& params, MakeMaintenance make_maintenance, const EpochCallback& callback,
                             RunControl& control, const Start& start = Start{}, double factor = 1.0) {
  using Maintenance = decltype(make_maintenance(std::declval<BudgetModel&>()));
  std::vector<std::unique_ptr<BscaMachine<Maintenance>>> machines;
  Random seeder(params.seed);
  machines.push_back(std::make_unique<BscaMachine<Maintenance>>(X, z, epsilon, weight, params, seeder.next(),
                                                                make_maintenance, start, factor));
  return run_bsca_machines(machines, X.cols(), params, callback, control);
}

}  // namespace budgetsvm::budget
