// One entry point for the budgeted solvers: checks the arguments, then
// trains on all rows in one sequence (sequential.hpp) or, for one machine's
// problem with params.shards > 1, on data shards with model mixing
// (shards.hpp).
#pragma once

#include "params.hpp"
#include "rows.hpp"
#include "sequential.hpp"
#include "shards.hpp"
#include "start.hpp"

namespace budgetsvm::budget {

/// Trains a budgeted SVM on the rows of X with class indices y in
/// [0, n_classes). `weight` (nullable, n entries >= 0): per-sample factors
/// of C (scikit-learn's sample_weight times class_weight); weight 0 leaves
/// a row out. `start` (start.hpp): the model, step count and n to continue
/// from (warm_start, partial_fit, rounds of sharded training).
inline Result fit(const Rows& X, const int* y, const double* weight, int n_classes, const Params& params,
                  const EpochCallback& callback, RunControl& control, const Start& start = Start{}) {
  detail::check_fit(X, y, weight, n_classes, params, start);
  // One machine's problem on several shards (shards.hpp); one-vs-rest BSCA
  // spreads its classes over the threads instead.
  if (params.shards > 1 && X.rows() > 1 && (n_classes == 2 || params.solver == Solver::bsgd))
    return detail::fit_sharded(X, y, weight, n_classes, params, callback, control, start);
  return detail::fit_sequential(X, y, weight, n_classes, params, callback, control, start);
}

/// Unweighted training (every row's box is C).
inline Result fit(const Rows& X, const int* y, int n_classes, const Params& params,
                  const EpochCallback& callback, RunControl& control) {
  return fit(X, y, nullptr, n_classes, params, callback, control);
}

}  // namespace budgetsvm::budget
