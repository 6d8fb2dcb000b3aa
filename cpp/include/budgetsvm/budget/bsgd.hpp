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
// 13 (2012), Algorithm 1, as stated in SPEC.md: per step t (a fresh random
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
// Where we differ from the paper: merging uses SPEC.md's m (the papers'
// pseudo-code puts h on the wrong point), multi-class merging maximises
// sum_c beta_z^c^2 exactly instead of eq. (17), and there is no bias.
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "../core/control.hpp"
#include "../core/random.hpp"
#include "maintenance.hpp"
#include "model.hpp"
#include "options.hpp"

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

namespace detail {

class EpochTimer {
 public:
  EpochTimer() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace detail

/// Trains BSGD. y holds class indices in [0, n_classes); n_classes == 2 is
/// the binary machine (class 1 positive), more classes Crammer-Singer.
template <bool Multiclass, class Rate, class MakeMaintenance>
Result train_bsgd(const Rows& X, const int* y, int n_classes, const Params& params, Rate rate,
                  MakeMaintenance make_maintenance, const EpochCallback& callback,
                  RunControl& control) {
  const Index n = X.rows();
  const int n_outputs = Multiclass ? n_classes : 1;
  BudgetModel model(X.cols(), params.budget, n_outputs, params.kernel);
  auto maintenance = make_maintenance(model);
  Random rng(params.seed);
  std::vector<Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Index{0});
  SampleRow row;
  std::vector<double> krow(static_cast<std::size_t>(model.capacity()));
  std::vector<double> f(static_cast<std::size_t>(n_outputs)), beta(static_cast<std::size_t>(n_outputs));
  Counters counters;
  Result result;
  result.n_outputs = n_outputs;
  const detail::EpochTimer timer;
  const double radius2 = params.radius * params.radius;
  double sq_norm = 0.0;  // ||w||^2, tracked only when the rate projects
  double* tracked = Rate::projects ? &sq_norm : nullptr;

  for (int epoch = 1; epoch <= params.epochs; ++epoch) {
    rng.shuffle(order);
    for (const Index i : order) {
      control.poll();
      ++counters.steps;
      const long long t = counters.steps;
      X.load(i, row);
      model.kernel_row(row, krow.data());
      const double eta = rate.eta(t);
      double factor = rate.shrink(eta);
      if (factor < 0.0) factor = 0.0;
      bool violated;
      if constexpr (Multiclass) {
        for (int c = 0; c < n_outputs; ++c) f[static_cast<std::size_t>(c)] = model.margin(krow.data(), c);
        const int yi = y[i];
        int r = yi == 0 ? 1 : 0;
        for (int c = 0; c < n_outputs; ++c)
          if (c != yi && f[static_cast<std::size_t>(c)] > f[static_cast<std::size_t>(r)]) r = c;
        violated = 1.0 + f[static_cast<std::size_t>(r)] - f[static_cast<std::size_t>(yi)] > 0.0;
        std::fill(beta.begin(), beta.end(), 0.0);
        beta[static_cast<std::size_t>(yi)] = eta;
        beta[static_cast<std::size_t>(r)] = -eta;
      } else {
        f[0] = model.margin(krow.data());
        const double yi = y[i] == 1 ? 1.0 : -1.0;
        violated = yi * f[0] < 1.0;
        beta[0] = eta * yi;
      }
      if (factor != 1.0) {
        model.shrink(factor);
        if (model.size() == 0) maintenance.on_clear();
        sq_norm *= factor * factor;
      }
      if (!violated) continue;
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
      if (maintenance.on_add(model, krow.data(), kself)) ++counters.projections;
      if (model.size() > params.budget) maintenance.reduce(model, counters, tracked);
      if constexpr (Rate::projects) {
        if (sq_norm > radius2) {
          const double s = params.radius / std::sqrt(sq_norm);
          model.shrink(s);
          sq_norm = radius2;
        }
      }
    }
    if constexpr (Rate::projects) sq_norm = model.squared_norm();  // no drift across epochs
    EpochStats stats;
    stats.epoch = epoch;
    stats.totals = counters;
    stats.n_support = model.size();
    stats.seconds = timer.seconds();
    result.history.push_back(stats);
    result.epochs_run = epoch;
    if (callback && callback(stats)) {
      result.stopped_early = true;
      break;
    }
    control.poll_now();
  }
  model.export_to(result.support_vectors, result.dual_coef);
  result.totals = counters;
  result.seconds = timer.seconds();
  return result;
}

}  // namespace budgetsvm::budget
