// One entry point for the budgeted solvers: picks the solver, learning rate
// and maintenance policy types from run-time parameters, once, outside the
// loops.
#pragma once

#include <cmath>
#include <string>

#include "bsca.hpp"
#include "bsgd.hpp"
#include "maintenance.hpp"
#include "merge.hpp"
#include "options.hpp"
#include "start.hpp"

namespace budgetsvm::budget {

namespace detail {

Result fit_sharded(const Rows& X, const int* y, const double* weight, int n_classes, const Params& params,
                   const EpochCallback& callback, RunControl& control, const Start& start);

}  // namespace detail

/// Trains a budgeted SVM on the rows of X with class indices y in
/// [0, n_classes). `weight` (nullable, n entries >= 0): per-sample factors
/// of C (scikit-learn's sample_weight times class_weight); weight 0 leaves
/// a row out. `start` (start.hpp): the model, step count and n to continue
/// from (warm_start, partial_fit, rounds of sharded training).
inline Result fit(const Rows& X, const int* y, const double* weight, int n_classes, const Params& params,
                  const EpochCallback& callback, RunControl& control, const Start& start = Start{}) {
  params.validate();
  require(n_classes >= 2, "at least two classes are needed");
  require(X.rows() >= 1, "no training data");
  for (Index i = 0; i < X.rows(); ++i)
    require(y[i] >= 0 && y[i] < n_classes, "class index out of range [0, n_classes)");
  if (weight)
    for (Index i = 0; i < X.rows(); ++i)
      require(std::isfinite(weight[i]) && weight[i] >= 0.0, "sample weights must be finite and >= 0");
  require(std::isfinite(start.n) && start.n >= 0.0, "the n of lambda must be finite and >= 0");
  require(start.steps >= 0, "the step count to continue from must be >= 0");
  const double n = start.n > 0.0 ? start.n : static_cast<double>(X.rows());
  const double lambda = 1.0 / (params.C * n);
  const double factor = start_factor(params, start, n);
  // One machine's problem on several shards (shards.hpp); one-vs-rest BSCA
  // spreads its classes over the threads instead.
  if (params.shards > 1 && X.rows() > 1 && (n_classes == 2 || params.solver == Solver::bsgd))
    return detail::fit_sharded(X, y, weight, n_classes, params, callback, control, start);
  Result result = detail::with_maintenance(params, [&](auto make) -> Result {
    if (params.solver == Solver::bsca)
      return train_bsca(X, y, weight, n_classes, params, make, callback, control, start, factor);
    auto run = [&](auto rate) -> Result {
      if (n_classes == 2)
        return train_bsgd<false>(X, y, weight, n_classes, params, rate, make, callback, control, start, factor);
      return train_bsgd<true>(X, y, weight, n_classes, params, rate, make, callback, control, start, factor);
    };
    switch (params.learning_rate) {
      case LearningRate::pegasos: return run(PegasosRate{lambda});
      case LearningRate::norma: return run(NormaRate{lambda, params.eta0});
      case LearningRate::perceptron: return run(PerceptronRate{params.eta0, params.radius});
    }
    throw std::invalid_argument("unknown learning rate");
  });
  result.n_ref = n;
  // Rows served shifted by a centre: the support vectors back to the data's
  // coordinates.
  X.centre().unshift_rows(result.support_vectors);
  return result;
}

/// Unweighted training (every row's box is C).
inline Result fit(const Rows& X, const int* y, int n_classes, const Params& params,
                  const EpochCallback& callback, RunControl& control) {
  return fit(X, y, nullptr, n_classes, params, callback, control);
}

}  // namespace budgetsvm::budget

#include "shards.hpp"  // defines detail::fit_sharded (it calls fit per shard)
