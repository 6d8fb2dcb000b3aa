// Training of one problem as one sequence of steps (no shards): the
// checks of fit's arguments and the run of the solver, learning rate and
// maintenance policy that the run-time parameters pick, once, outside the
// loops. fit.hpp's entry point runs this, or shards.hpp's rounds, which run
// it on every shard.
#pragma once

#include <cmath>
#include <stdexcept>

#include "bsca.hpp"
#include "bsgd.hpp"
#include "maintenance.hpp"
#include "merge.hpp"
#include "params.hpp"
#include "rows.hpp"
#include "start.hpp"

namespace budgetsvm::budget::detail {

/// Checks fit's arguments (std::invalid_argument naming the problem).
inline void check_fit(const Rows& X, const int* y, const double* weight, int n_classes, const Params& params,
                      const Start& start) {
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
}

/// fit without shards, on arguments check_fit accepted.
inline Result fit_sequential(const Rows& X, const int* y, const double* weight, int n_classes, const Params& params,
                             const EpochCallback& callback, RunControl& control, const Start& start) {
  const double n = start.n > 0.0 ? start.n : static_cast<double>(X.rows());
  const double lambda = 1.0 / (params.C * n);
  const double factor = start_factor(params, start, n);
  Result result = with_maintenance(params, [&](auto make) -> Result {
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

}  // namespace budgetsvm::budget::detail
