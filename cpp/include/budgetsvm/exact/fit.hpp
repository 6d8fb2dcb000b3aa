// Entry point of the exact kernel SVM (binary C-SVC dual, see
// dual_state.hpp): validates the settings, builds the kernel cache over a
// column source (kernel_cache.hpp), runs ALFPGM (alfpgm.hpp) or SMO
// (smo.hpp) and returns alpha, the bias b = -rho (LIBSVM), the dual
// objective 1/2 a^T Q a - e^T a and the counters.
//
// Memory: the cache (cache_size MB, at least one working set of columns)
// plus O(n) vectors; never an n x n matrix.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "alfpgm.hpp"
#include "dual_state.hpp"
#include "smo.hpp"

namespace budgetsvm::exact {

enum class ExactSolver { alfpgm, smo };

inline ExactSolver exact_solver_from_name(const std::string& name) {
  if (name == "alfpgm") return ExactSolver::alfpgm;
  if (name == "smo") return ExactSolver::smo;
  throw std::invalid_argument("unknown solver '" + name + "'; expected 'alfpgm' or 'smo'");
}

struct ExactSettings {
  double C = 1.0;
  double weight_pos = 1.0, weight_neg = 1.0;  // C_t = C * weight of y_t's class
  std::vector<double> sample_weight;           // empty, or C_t *= sample_weight[t] (>= 0)
  double tol = 1e-3;
  double cache_mb = 200.0;
  ExactSolver solver = ExactSolver::alfpgm;
  AlfpgmSettings alfpgm;
  std::int64_t max_iter = -1;  // -1: max(10^7, 100 n)
  bool shrinking = true;
  int n_jobs = 1;  // threads for gradient updates (the column source has its own)

  void validate() const {
    require(std::isfinite(C) && C > 0.0, "C must be a positive finite number");
    require(std::isfinite(weight_pos) && weight_pos > 0.0 && std::isfinite(weight_neg) &&
                weight_neg > 0.0,
            "class weights must be positive finite numbers");
    for (double w : sample_weight)
      require(std::isfinite(w) && w >= 0.0, "sample weights must be non-negative finite numbers");
    require(std::isfinite(tol) && tol > 0.0, "tol must be a positive finite number");
    require(std::isfinite(cache_mb) && cache_mb > 0.0, "cache_size must be a positive number");
    require(alfpgm.pairs >= 1, "pairs must be at least 1");
    require(alfpgm.delta_alpha >= 0.0, "delta_alpha must be non-negative");
    require(alfpgm.min_alpha_opt >= 1 && alfpgm.max_alpha_opt >= alfpgm.min_alpha_opt,
            "need 1 <= min_alpha_opt <= max_alpha_opt");
    require(alfpgm.min_alpha_check >= 0, "min_alpha_check must be non-negative (0 = no limit)");
    require(max_iter >= -1, "max_iter must be -1 (no limit) or non-negative");
    require(n_jobs >= 1, "n_jobs must be at least 1");
  }
};

struct ExactResult {
  std::vector<double> alpha;
  double intercept = 0.0;
  double objective = 0.0;
  std::int64_t iterations = 0;
  bool converged = false;
  double max_violation = 0.0;
  KernelCacheStats cache;
  double seconds = 0.0;
  std::int64_t inner_iterations = 0;
  std::int64_t smo_fallbacks = 0;
  std::int64_t readmissions = 0;  // ALFPGM: MinMaxLimiter / shrinking re-checks over all n
};

/// Labels must be +1 / -1 with both classes present.
inline void validate_labels(const std::vector<double>& y, Index n) {
  require(static_cast<Index>(y.size()) == n,
          "y has " + std::to_string(y.size()) + " labels for " + std::to_string(n) + " rows");
  bool pos = false, neg = false;
  for (double v : y) {
    require(v == 1.0 || v == -1.0, "labels must be +1 or -1");
    pos = pos || v > 0;
    neg = neg || v < 0;
  }
  require(pos && neg, "only one class present; need both +1 and -1 labels");
}

inline ExactResult fit_exact(const KernelColumnSource& source, const std::vector<double>& y,
                             const ExactSettings& settings, RunControl& control) {
  const auto start = std::chrono::steady_clock::now();
  settings.validate();
  const Index n = source.size();
  validate_labels(y, n);
  const Index working_set =
      settings.solver == ExactSolver::smo ? 2 : 2 * static_cast<Index>(settings.alfpgm.pairs);
  KernelCache cache(source, settings.cache_mb * 1024.0 * 1024.0, working_set + 2);
  // Both solvers fetch columns of the active prefix while shrunk (as LIBSVM).
  DualState state(cache, y, settings.C * settings.weight_pos, settings.C * settings.weight_neg,
                  settings.n_jobs, &settings.sample_weight);
  ExactResult result;
  if (settings.solver == ExactSolver::smo) {
    const SolveReport r = solve_smo(state, settings.tol, settings.max_iter, settings.shrinking, control);
    result.iterations = r.iterations;
    result.converged = r.converged;
  } else {
    const AlfpgmReport r = solve_alfpgm(state, settings.tol, settings.max_iter, settings.shrinking,
                                        settings.alfpgm, control);
    result.iterations = r.iterations;
    result.converged = r.converged;
    result.inner_iterations = r.inner_iterations;
    result.smo_fallbacks = r.smo_fallbacks;
    result.readmissions = r.readmissions;
  }
  std::vector<Index> all(static_cast<std::size_t>(n));
  for (Index t = 0; t < n; ++t) all[static_cast<std::size_t>(t)] = t;
  result.max_violation = std::max(0.0, state.violation(all).gap());
  result.alpha = state.alpha();
  result.intercept = -state.rho();
  result.objective = state.objective();
  result.cache = cache.stats();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace budgetsvm::exact
