// Continuing a model (warm_start, partial_fit, the rounds of sharded and
// distributed training; docs/scale.md): loading a Start into a budget model.
//
// The n of lambda = 1 / (C n). Pegasos' iterate after t steps is
// w_t = 1 / (lambda t) times the sum of its violated points' labelled
// features, and BSCA's growing first pass keeps a model in the same units
// (its box is C n / t), so both are proportional to C n. A model trained for
// n_ref rows and continued for n rows (partial_fit: n grows with every
// chunk) is first rescaled by n / n_ref: it is then the iterate the same
// steps would have given under the new lambda, up to the margins the earlier
// steps saw. NORMA and the perceptron are not proportional to n and are
// continued as they are.
#pragma once

#include <string>
#include <vector>

#include "../core/centre.hpp"
#include "maintenance.hpp"
#include "model.hpp"
#include "params.hpp"

namespace budgetsvm::budget {

/// The factor a start's coefficients are multiplied by (see above).
inline double start_factor(const Params& params, const Start& start, double n) {
  if (!start.warm() || !(start.n_ref > 0.0)) return 1.0;
  const bool proportional = params.solver == Solver::bsca || params.learning_rate == LearningRate::pegasos;
  return proportional ? n / start.n_ref : 1.0;
}

/// The support vectors the start holds for one machine: every one for
/// column < 0, else those with a non-zero coefficient in that column.
inline Index start_size(const Start& start, int column = -1) {
  if (!start.warm()) return 0;
  if (column < 0) return start.support_vectors->rows();
  Index m = 0;
  for (Index j = 0; j < start.dual_coef->rows(); ++j) m += (*start.dual_coef)(j, column) != 0.0 ? 1 : 0;
  return m;
}

/// Appends the start's support vectors to `model` (all columns for
/// column < 0; else that column's into the model's single output), shifted
/// by -centre (into the rows' coordinates), coefficients times `factor`; `maintenance`
/// sees every addition and keeps the budget (a start larger than the budget
/// is reduced as it loads).
template <class Maintenance>
void load_start(BudgetModel& model, Maintenance& maintenance, Counters& counters, const Start& start,
                const Centre& centre, int column, double factor, Index budget) {
  if (!start.warm()) return;
  const MatrixXd& S = *start.support_vectors;
  const MatrixXd& A = *start.dual_coef;
  require(S.cols() == model.dim(), "the model to continue has " + std::to_string(S.cols()) +
                                       " features but the data has " + std::to_string(model.dim()));
  require(A.rows() == S.rows(), "the model to continue has inconsistent sizes");
  require(column < 0 ? A.cols() == model.n_outputs() : column < A.cols(),
          "the model to continue has another number of outputs");
  std::vector<double> z(static_cast<std::size_t>(S.cols())), beta(static_cast<std::size_t>(model.n_outputs()));
  std::vector<double> krow(static_cast<std::size_t>(model.capacity()));
  for (Index j = 0; j < S.rows(); ++j) {
    if (column >= 0 && A(j, column) == 0.0) continue;
    double sq = 0.0;
    for (Index k = 0; k < S.cols(); ++k) z[static_cast<std::size_t>(k)] = S(j, k);
    centre.shift(z.data());
    for (double v : z) sq += v * v;
    for (int c = 0; c < model.n_outputs(); ++c)
      beta[static_cast<std::size_t>(c)] = factor * A(j, column >= 0 ? column : c);
    // Only a maintenance that reads the new point's row (projection) gets
    // one: merging and removal compute the rows they need themselves.
    if constexpr (Maintenance::reads_kernel_row) model.kernel_row_of_point(z.data(), sq, krow.data());
    model.append(z.data(), sq, beta.data());
    if (maintenance.on_add(model, krow.data(), model.self_kernel(sq))) continue;
    if (model.size() > budget) maintenance.reduce(model, counters, nullptr);
  }
}

/// The start's intercept of output c (0 without one), times factor.
inline double start_intercept(const Start& start, int c, double factor) {
  return static_cast<std::size_t>(c) < start.intercept.size() ? factor * start.intercept[static_cast<std::size_t>(c)]
                                                               : 0.0;
}

}  // namespace budgetsvm::budget
