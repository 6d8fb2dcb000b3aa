// Regression and novelty detection on a budget (docs/budgeted.md,
// "Regression" and "Novelty detection"): the entry points next to fit.hpp's
// classifier, on the same machinery (budget model, maintenance, blocks).
//
//   fit_regression  epsilon-SVR. BSGD: Pegasos on
//                   lambda/2 ||w||^2 + 1/n sum_i w_i max(0, |z_i - f(x_i)| - eps),
//                   lambda = 1 / (C n) (bsgd.hpp, EpsilonLoss); BSCA: the
//                   dual max z^T beta - eps ||beta||_1 - 1/2 beta^T Q beta,
//                   -C_i <= beta_i <= C_i, with its exact soft-threshold
//                   coordinate step (bsca.hpp).
//   fit_one_class   Schoelkopf's nu one-class primal by BSGD (OneClassLoss):
//                   1/2 ||w||^2 - rho + 1/(nu n) sum_i w_i max(0, rho - <w, phi(x_i)>),
//                   run as lambda = nu (C = 1 / (nu n)); the model's offset
//                   is -rho. There is no BSCA one-class: its dual has the
//                   equality constraint sum_i alpha_i = 1 (in these units),
//                   which single-coordinate steps cannot keep.
//
// The coefficients of both have either sign. Merging only ever pairs two
// support vectors of the same sign (maintenance.hpp's binary partner
// search), which is the classifier's sub-problem for either sign: with
// s = beta_a + beta_b and m = beta_a / s in [0, 1] the merge depends on m
// and kappa only, and s carries the sign.
//
// No shards: sharded training (shards.hpp) is the classifier's.
#pragma once

#include <cmath>
#include <string>

#include "bsca.hpp"
#include "bsgd.hpp"
#include "maintenance.hpp"
#include "params.hpp"
#include "rows.hpp"
#include "start.hpp"

namespace budgetsvm::budget {

namespace detail {

inline void check_single_output(const Rows& X, const double* weight, const Params& params, const Start& start) {
  params.validate();
  require(X.rows() >= 1, "no training data");
  require(params.shards == 1, "shards > 1 is available for classification only; got shards=" +
                                  std::to_string(params.shards) + ".");
  if (weight)
    for (Index i = 0; i < X.rows(); ++i)
      require(std::isfinite(weight[i]) && weight[i] >= 0.0, "sample weights must be finite and >= 0");
  require(std::isfinite(start.n) && start.n >= 0.0, "the n of lambda must be finite and >= 0");
  require(start.steps >= 0, "the step count to continue from must be >= 0");
  require(!start.warm() || start.dual_coef->cols() == 1, "the model to continue must have one output");
}

/// BSGD with a single-output loss under the learning rate params choose.
template <class Loss, class Make>
Result run_bsgd(const Rows& X, const Loss& loss, const double* weight, const Params& params, double lambda,
                Make make, const EpochCallback& callback, RunControl& control, const Start& start, double factor) {
  auto run = [&](auto rate) -> Result {
    return train_bsgd_loss<false>(X, loss, nullptr, weight, 2, params, rate, make, callback, control, start, factor);
  };
  switch (params.learning_rate) {
    case LearningRate::pegasos: return run(PegasosRate{lambda});
    case LearningRate::norma: return run(NormaRate{lambda, params.eta0});
    case LearningRate::perceptron: return run(PerceptronRate{params.eta0, params.radius});
  }
  throw std::invalid_argument("unknown learning rate");
}

}  // namespace detail

/// Trains epsilon-SVR on a budget: targets z (finite), tube half-width
/// epsilon >= 0, `weight` (nullable) per-sample factors of C, `start` the
/// model to continue (warm_start, partial_fit; start.hpp).
inline Result fit_regression(const Rows& X, const double* z, double epsilon, const double* weight,
                             const Params& params, const EpochCallback& callback, RunControl& control,
                             const Start& start = Start{}) {
  detail::check_single_output(X, weight, params, start);
  require(std::isfinite(epsilon) && epsilon >= 0.0, "epsilon must be finite and >= 0");
  for (Index i = 0; i < X.rows(); ++i) require(std::isfinite(z[i]), "targets must be finite");
  const double n = start.n > 0.0 ? start.n : static_cast<double>(X.rows());
  // A continued model is not rescaled by n / n_ref (start.hpp's rule for the
  // classifier): a regression function does not grow with C n, and doubling
  // f doubles every prediction. BSCA's model stays a feasible point of the
  // growing problem under the larger box; BSGD's later steps take the new
  // lambda's step sizes (docs/budgeted.md, "Regression").
  const double factor = 1.0;
  Result result = detail::with_maintenance(params, [&](auto make) -> Result {
    if (params.solver == Solver::bsca)
      return train_bsca_regression(X, z, epsilon, weight, params, make, callback, control, start, factor);
    return detail::run_bsgd(X, EpsilonLoss{z, epsilon}, weight, params, 1.0 / (params.C * n), make, callback,
                            control, start, factor);
  });
  result.n_ref = n;
  X.centre().unshift_rows(result.support_vectors);
  return result;
}

/// Trains the nu one-class machine by BSGD: nu in (0, 1], `weight`
/// (nullable) per-sample factors of the loss (mean 1 keeps nu's meaning).
/// params.C is ignored (set from nu); params.solver must be bsgd. The
/// result's intercept is -rho of the last iterate (the caller may replace
/// rho by its exact minimiser for the returned w, the weighted nu-quantile
/// of the training scores: docs/budgeted.md).
inline Result fit_one_class(const Rows& X, double nu, const double* weight, const Params& params_in,
                            const EpochCallback& callback, RunControl& control, const Start& start = Start{}) {
  require(std::isfinite(nu) && nu > 0.0 && nu <= 1.0, "nu must lie in (0, 1]");
  require(params_in.solver == Solver::bsgd, "the one-class machine is trained by BSGD only (solver='bsgd')");
  Params params = params_in;
  const double n = start.n > 0.0 ? start.n : static_cast<double>(X.rows());
  params.C = 1.0 / (nu * n);  // lambda = 1 / (C n) = nu: the progressive loss in the objective's units
  params.fit_intercept = false;  // the offset -rho is the loss's own (OneClassLoss), not a constant feature
  detail::check_single_output(X, weight, params, start);
  // lambda = nu does not depend on n: a continued model is not rescaled.
  Result result = detail::with_maintenance(params, [&](auto make) -> Result {
    return detail::run_bsgd(X, OneClassLoss{nu}, weight, params, nu, make, callback, control, start, 1.0);
  });
  result.n_ref = n;
  X.centre().unshift_rows(result.support_vectors);
  return result;
}

}  // namespace budgetsvm::budget
