// The budgeted solvers' settings the C++ tests start from: the Gaussian
// kernel, C = 10, a budget, a number of epochs and a seed fixed per test file.
#pragma once

#include <cstdint>

#include "budgetsvm/budget/params.hpp"

namespace budgetsvm::test {

/// `solver` with at most `budget` support vectors, the RBF kernel of width
/// gamma, C = 10, `epochs` passes and the visiting order of `seed`.
inline budget::Params rbf_budget_params(budget::Solver solver, Index budget, double gamma, int epochs,
                                        std::uint64_t seed) {
  budget::Params p;
  p.solver = solver;
  p.budget = budget;
  p.C = 10.0;
  p.kernel = Kernel{KernelType::rbf, gamma, 0.0, 3};
  p.epochs = epochs;
  p.seed = seed;
  return p;
}

}  // namespace budgetsvm::test
