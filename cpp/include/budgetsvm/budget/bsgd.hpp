// Budgeted stochastic gradient descent (BSGD).
//
// Problem: the primal SVM without bias,
//   min_w  lambda/2 ||w||^2 + 1/n sum_i max(0, 1 - y_i <w, phi(x_i)>),
// lambda = 1 / (C n) (scikit-learn's C, converted here at the boundary), and
// its Crammer-Singer multi-class form with loss
//   max(0, 1 + max_{c != y_i} f_c(x_i) - f_{y_i}(x_i)).
//
// Algorithm: Wang, Crammer & Vucetic, "Breaking the curse of kernelization:
// budgeted stochastic gradient descent for large-scale SVM training", JMLR
// 13 (2012), Algorithm 1, as stated in docs/budgeted.md: per step t (a fresh random
// permutation of the data per epoch) compute the margin with the current
// model, shrink all beta by (1 - eta_t lambda) (one scale factor, O(1);
// Pegasos' factor 0 at t = 1 clears the model), add (eta_t y_i, x_i) on a
// margin violation (multi-class: +eta_t in row y, -eta_t in row r = the
// best wrong class), run budget maintenance when |M| > B.
// Learning rates (policy types): Pegasos eta_t = 1/(lambda t); Norma
// eta_t = eta0/sqrt(t); margin perceptron lambda = 0, eta_t = eta0, then
// projection onto the ball ||w|| <= radius (||w||^2 kept exactly through
// every add, shrink and maintenance event, recomputed each epoch).
//
// Sample weights w_i scale a point's loss (its step: eta_t w_i), so that
// C_i = C w_i as in the dual. The intercept (fit_intercept, off by default)
// is a constant feature of value 1: b shrinks with the model and takes every
// update's coefficient; its step sum is a random walk over all points, which
// costs accuracy at large C, so it is off by default (docs/budgeted.md).
//
// Regression and novelty detection (regression.hpp) run the same loop with
// another single-output loss (EpsilonLoss, OneClassLoss below): the loss
// gives the step's coefficient, and the one-class loss moves its offset -rho
// at every step.
//
// Where we differ from the paper: merging uses the correct m (the papers'
// pseudo-code puts h on the wrong point), multi-class merging maximises
// sum_c beta_z^c^2 exactly instead of eq. (17).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "../core/control.hpp"
#include "../core/random.hpp"
#include "block.hpp"
#include "maintenance.hpp"
#include "model.hpp"
#include "params.hpp"
#include "start.hpp"

namespace budgetsvm::budget {

struct PegasosRate {
  static constexpr bool projects = false;
  double lambda;
  double eta(long long t) const { return 1.0 / (lambda * static_cast<double>(t)); }
  double shrink(double eta) const { return 1.0 - eta * lambda; }
};

struct NormaRate {
  static constexpr bool projects = false;
  double lambda, eta0;
  double eta(long long t) const { return eta0 / std::sqrt(static_cast<double>(t)); }
  double shrink(double eta) const { return 1.0 - eta * lambda; }
};

struct PerceptronRate {
  static constexpr bool projects = true;
  double eta0, radius;
  double eta(long long) const { return eta0; }
  double shrink(double) const { return 1.0; }
};

/// The losses of a single-output BSGD machine (policies of train_bsgd_loss;
/// docs/budgeted.md, "Regression" and "Novelty detection"). at(i, f) gives
/// the loss of row i at f = f(x_i) + b and the coefficient g of the step's
/// subgradient: the step adds eta w_i g phi(x_i), nothing when g = 0.
/// offset_drift(eta): the offset's change at every step besides the
/// constant-feature update b += eta w_i g; offset_shrinks: whether b is a
/// regularised constant feature (shrinks with the model).
///
/// The hinge: labels y_i = +1 for class index 1, -1 else.
struct HingeLoss {
  static constexpr bool offset_shrinks = true;
  const int* y;
  std::pair<double, double> at(Index i, double f) const {
    const double yi = y[i] == 1 ? 1.0 : -1.0;
    const double h = 1.0 - yi * f;
    return {std::max(0.0, h), h > 0.0 ? yi : 0.0};
  }
  double offset_drift(double) const { return 0.0; }
  const void* prefetch(Index i) const { return y + i; }
};

/// The epsilon-insensitive loss max(0, |z_i - f| - epsilon): its
/// subgradient -sign(z_i - f) outside the tube, 0 inside.
struct EpsilonLoss {
  static constexpr bool offset_shrinks = true;
  const double* z;
  double epsilon;
  std::pair<double, double> at(Index i, double f) const {
    const double r = z[i] - f;
    const double over = std::fabs(r) - epsilon;
    return {std::max(0.0, over), over > 0.0 ? (r > 0.0 ? 1.0 : -1.0) : 0.0};
  }
  double offset_drift(double) const { return 0.0; }
  const void* prefetch(Index i) const { return z + i; }
};

/// The one-class loss max(0, rho - <w, phi(x_i)>) with the offset b = -rho
/// (f = <w, phi(x)> - rho): violated when f < 0. In lambda form the
/// objective is nu/2 ||w||^2 - nu rho + 1/n sum_i w_i max(0, rho - <w, phi(x_i)>)
/// (lambda = nu), so rho is not regularised and takes the step
/// eta (nu - w_i [violated]) at every point: b drifts by -eta nu and takes
/// +eta w_i on a violation.
struct OneClassLoss {
  static constexpr bool offset_shrinks = false;
  double nu;
  std::pair<double, double> at(Index, double f) const { return {std::max(0.0, -f), f < 0.0 ? 1.0 : 0.0}; }
  double offset_drift(double eta) const { return -eta * nu; }
  const void* prefetch(Index) const { return nullptr; }
};

/// sum_i C w_i loss_i of a model with intercepts `bias` over all rows
/// (one output: `loss`'s; more outputs: the multi-class hinge with class
/// indices y). One pass: an instrument, not part of training.
template <class Loss>
double primal_loss(const Rows& X, const Loss& loss_fn, const int* y, const double* weight, double C,
                   const BudgetModel& model, const std::vector<double>& bias) {
  const int n_out = model.n_outputs();
  std::vector<double> k(static_cast<std::size_t>(model.capacity())), f(static_cast<std::size_t>(n_out));
  SampleRow row;
  double loss = 0.0;
  for (Index i = 0; i < X.rows(); ++i) {
    const double wi = weight ? weight[i] : 1.0;
    if (!(wi > 0.0)) continue;
    X.load(i, row);
    model.kernel_row(row, k.data());
    for (int c = 0; c < n_out; ++c)
      f[static_cast<std::size_t>(c)] = model.margin(k.data(), c) + bias[static_cast<std::size_t>(c)];
    double value;
    if (n_out == 1) {
      value = loss_fn.at(i, f[0]).first;
    } else {
      double best_wrong = -std::numeric_limits<double>::infinity();
      for (int c = 0; c < n_out; ++c)
        if (c != y[i]) best_wrong = std::max(best_wrong, f[static_cast<std::size_t>(c)]);
      value = std::max(0.0, 1.0 + best_wrong - f[static_cast<std::size_t>(y[i])]);
    }
    loss += C * wi * value;
  }
  return loss;
}

/// sum_i C w_i hinge_i (binary: y == 1 positive; more outputs: the
/// multi-class hinge).
inline double primal_loss(const Rows& X, const int* y, const double* weight, double C, const BudgetModel& model,
                          const std::vector<double>& bias) {
  return primal_loss(X, HingeLoss{y}, y, weight, C, model, bias);
}

/// train_bsgd with the loss of a single-output machine given (HingeLoss,
/// EpsilonLoss, OneClassLoss above); Multiclass: the Crammer-Singer hinge
/// with the class indices y (loss_fn unused). The offset is kept when
/// params.fit_intercept is set or the loss drives it itself (one-class).
template <bool Multiclass, class Rate, class MakeMaintenance, class Loss>
Result train_bsgd_loss(const Rows& X, const Loss& loss_fn, const int* y, const double* weight, int n_classes,
                       const Params& params, Rate rate, MakeMaintenance make_maintenance,
                       const EpochCallback& callback, RunControl& control, const Start& start = Start{},
                       double factor = 1.0, int tile_jobs = 0) {
  const int n_outputs = Multiclass ? n_classes : 1;
  BudgetModel model(X.cols(), reachable_budget(params, X.rows(), start_size(start)), n_outputs, params.kernel);
  auto maintenance = make_maintenance(model);
  Counters counters;
  load_start(model, maintenance, counters, start, X.centre(), -1, factor, params.budget);
  counters = Counters{};  // a start larger than the budget: its reduction is not this run's work
  Random rng(params.seed);
  std::vector<Index> order(static_cast<std::size_t>(X.rows()));
  std::iota(order.begin(), order.end(), Index{0});
  std::vector<double> f(static_cast<std::size_t>(n_outputs)), beta(static_cast<std::size_t>(n_outputs));
  // The intercept in constant-feature form: b_c shrinks with the model and
  // takes beta_c on every update (a feature of value 1).
  std::vector<double> bias(static_cast<std::size_t>(n_outputs), 0.0);
  const bool intercept = params.fit_intercept || !Loss::offset_shrinks;
  if (intercept)
    for (int c = 0; c < n_outputs; ++c) bias[static_cast<std::size_t>(c)] = start_intercept(start, c, factor);
  Result result;
  result.n_outputs = n_outputs;
  const Stopwatch timer;
  const double radius2 = params.radius * params.radius;
  double sq_norm = Rate::projects && model.size() > 0 ? model.squared_norm() : 0.0;  // tracked when projecting
  double* tracked = Rate::projects ? &sq_norm : nullptr;

  const Index block_size = block_rows_for(model.capacity() - 1, params.block_rows);
  std::vector<Index> ids[2];
  RowBlock blocks[2];
  KernelTile tile;
  const int n_jobs = tile_jobs >= 1 ? tile_jobs : params.n_jobs;

  for (int epoch = 1; epoch <= params.epochs; ++epoch) {
    rng.shuffle(order);
    double loss = 0.0;
    // Blocks of up to block_size rows of the problem (weight > 0).
    Index at = 0;
    auto load_block = [&](int k) {
      std::vector<Index>& out = ids[k];
      out.clear();
      while (at < static_cast<Index>(order.size()) && static_cast<Index>(out.size()) < block_size) {
        const Index i = order[static_cast<std::size_t>(at++)];
        if (!weight || weight[i] > 0.0) out.push_back(i);  // weight 0: the point is not part of the problem
      }
      blocks[k].assign(X, out.data(), static_cast<Index>(out.size()));
    };
    load_block(0);
    blocks[0].load_rows(X, 0, blocks[0].size());
    tile.compute(blocks[0], 0, model, n_jobs, control);
    for (int cur = 0; blocks[cur].size() > 0; cur ^= 1) {
      const RowBlock& block = blocks[cur];
      auto steps = [&](RunControl& ctl) {
        for (Index r = 0; r < block.size(); ++r) {
          ctl.poll();
          if (r + 2 < block.size()) {  // a random visit misses the cache
            if constexpr (Multiclass) {
              BUDGETSVM_PREFETCH(y + block.id(r + 2));
            } else if (const void* ahead = loss_fn.prefetch(block.id(r + 2))) {
              BUDGETSVM_PREFETCH(ahead);
            }
          }
          const Index i = block.id(r);
          const SampleRow& row = block.row(r);
          const double wi = weight ? weight[i] : 1.0;
          ++counters.steps;
          const long long t = start.steps + counters.steps;
          const double* krow = tile.row(r);
          const double eta = rate.eta(t);
          double factor = rate.shrink(eta);
          if (factor < 0.0) factor = 0.0;
          bool violated;
          if constexpr (Multiclass) {
            for (int c = 0; c < n_outputs; ++c)
              f[static_cast<std::size_t>(c)] = model.margin(krow, c) + bias[static_cast<std::size_t>(c)];
            const int yi = y[i];
            int r_best = yi == 0 ? 1 : 0;
            for (int c = 0; c < n_outputs; ++c)
              if (c != yi && f[static_cast<std::size_t>(c)] > f[static_cast<std::size_t>(r_best)]) r_best = c;
            const double hinge = 1.0 + f[static_cast<std::size_t>(r_best)] - f[static_cast<std::size_t>(yi)];
            violated = hinge > 0.0;
            loss += params.C * wi * std::max(0.0, hinge);
            std::fill(beta.begin(), beta.end(), 0.0);
            beta[static_cast<std::size_t>(yi)] = eta * wi;
            beta[static_cast<std::size_t>(r_best)] = -eta * wi;
          } else {
            f[0] = model.margin(krow) + bias[0];
            const auto [value, g] = loss_fn.at(i, f[0]);
            violated = g != 0.0;
            loss += params.C * wi * value;
            beta[0] = eta * wi * g;
          }
          if (factor != 1.0) {
            model.shrink(factor);
            if (model.size() == 0) maintenance.on_clear();
            sq_norm *= factor * factor;
            if (Loss::offset_shrinks)
              for (double& b : bias) b *= factor;
          }
          if constexpr (!Multiclass) bias[0] += loss_fn.offset_drift(eta);
          if (!violated) continue;
          if (intercept)
            for (int c = 0; c < n_outputs; ++c) bias[static_cast<std::size_t>(c)] += beta[static_cast<std::size_t>(c)];
          const double kself = model.self_kernel(row.sqnorm);
          if constexpr (Rate::projects) {
            // ||w + beta phi(x)||^2 = ||w||^2 + 2 beta . f(x) + |beta|^2 k(x, x)
            for (int c = 0; c < n_outputs; ++c) {
              const double b = beta[static_cast<std::size_t>(c)];
              sq_norm += 2.0 * b * factor * f[static_cast<std::size_t>(c)] + b * b * kself;
            }
          }
          model.add(row, beta.data());
          ++counters.sv_added;
          if (maintenance.on_add(model, krow, kself)) ++counters.projections;
          // krow: the new SV's kernel row against the others (a model the
          // factor 0 cleared has no others)
          if (model.size() > params.budget) maintenance.reduce(model, counters, tracked, krow);
          if constexpr (Rate::projects) {
            if (sq_norm > radius2) {
              const double s = params.radius / std::sqrt(sq_norm);
              model.shrink(s);
              sq_norm = radius2;
            }
          }
        }
      };
      load_block(cur ^ 1);
      if (blocks[cur ^ 1].size() == 0) {
        steps(control);
        continue;
      }
      // the next block's rows and tile beside this block's steps (block.hpp)
      tile.snapshot(model);
      steps_beside_next(steps, AverageTask(), X, blocks[cur ^ 1], &tile, n_jobs, tile_work(blocks[cur ^ 1], model),
                        control);
      tile.adopt(blocks[cur ^ 1]);
    }
    tile.detach();
    if constexpr (Rate::projects) sq_norm = model.squared_norm();  // no drift across epochs
    EpochStats stats;
    stats.epoch = epoch;
    stats.progressive_loss = loss;
    if (params.instruments) {
      control.poll_now();
      stats.sq_norm = model.squared_norm();
      // The constant feature's weight is regularised with w; the one-class
      // offset -rho is not, and enters the objective as -rho (= b).
      if (Loss::offset_shrinks)
        for (double b : bias) stats.sq_norm += intercept ? b * b : 0.0;
      stats.objective = 0.5 * stats.sq_norm + primal_loss(X, loss_fn, y, weight, params.C, model, bias) +
                        (Loss::offset_shrinks ? 0.0 : bias[0]);
    }
    stats.totals = counters;
    stats.n_support = model.size();
    stats.seconds = timer.seconds();
    if (end_epoch(result, stats, callback, control)) break;
  }
  model.export_to(result.support_vectors, result.dual_coef);
  result.intercept = bias;
  result.totals = counters;
  result.seconds = timer.seconds();
  result.steps_total = start.steps + counters.steps;
  return result;
}

/// Trains BSGD. y holds class indices in [0, n_classes); n_classes == 2 is
/// the binary machine (class 1 positive), more classes Crammer-Singer.
/// `start` (start.hpp): the model and step count to continue from, its
/// coefficients times `factor`. The epochs run in blocks (block.hpp) whose
/// kernel tiles take up to `tile_jobs` threads (0: params.n_jobs).
template <bool Multiclass, class Rate, class MakeMaintenance>
Result train_bsgd(const Rows& X, const int* y, const double* weight, int n_classes, const Params& params, Rate rate,
                  MakeMaintenance make_maintenance, const EpochCallback& callback,
                  RunControl& control, const Start& start = Start{}, double factor = 1.0, int tile_jobs = 0) {
  return train_bsgd_loss<Multiclass>(X, HingeLoss{y}, y, weight, n_classes, params, rate, make_maintenance, callback,
                                     control, start, factor, tile_jobs);
}

}  // namespace budgetsvm::budget
