// Entry point of the exact kernel SVM (binary C-SVC dual, see
// dual_state.hpp): validates the settings (params.hpp), builds the kernel
// cache over a column source (kernel_cache.hpp), runs ALFPGM (alfpgm.hpp)
// or SMO (smo.hpp), polishes a converged ALFPGM solution (polish.hpp) and
// returns alpha, the bias b = -rho (LIBSVM), the dual objective 1/2 a^T Q a - e^T a
// and the counters.
//
// solver = auto (the default) picks per binary problem: SMO below
// kAutoAlfpgmFrom rows and on rows too sparse to gather (the kernel
// source's sparse_rows()), ALFPGM on the others. ALFPGM's rounds (pWSS over
// many pairs, an iterative sub-problem, the polish) cost more than SMO's
// analytic pair steps and pay off only on problems large enough for its
// fewer rounds; and it computes two to three times the kernel columns SMO
// does, which loses where each kernel value is a sparse product rather than
// a lane of the dense tiles (docs/guide_exact.md gives the rule and the
// comparison behind it).
//
// Memory: the cache (cache_size MB, at least one working set of columns)
// plus O(n) vectors; never an n x n matrix.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "alfpgm.hpp"
#include "dual_state.hpp"
#include "params.hpp"
#include "polish.hpp"
#include "smo.hpp"

namespace budgetsvm::exact {

/// What a solve reports besides its alpha (one-vs-one keeps one per pair, PairReport).
struct ExactReport {
  ExactSolver solver = ExactSolver::alfpgm;  // the one that ran (auto resolved)
  double intercept = 0.0;
  double objective = 0.0;
  std::int64_t iterations = 0;
  bool converged = false;
  double max_violation = 0.0;
  KernelCacheStats cache;
  double seconds = 0.0;
  std::int64_t inner_iterations = 0;
  std::int64_t smo_fallbacks = 0;
  bool smo_handoff = false;  // ALFPGM's sub-problems stopped converging; SMO finished
  std::int64_t readmissions = 0;  // ALFPGM: MinMaxLimiter / shrinking re-checks over all n
  bool polished = false;          // ALFPGM: the free variables' system was solved (polish.hpp)

  /// The field table: f(name, value) for every field, in this order, with
  /// `self` const or not. Results cross to Python through these tables
  /// (python/bindings/fields.hpp), so a new field is a member and a line
  /// here (and in PairReports' table, ovo.hpp, which reports the same per
  /// pair). Derived values (names, kernel_columns) are read before any
  /// field is handed on: the bindings move the arrays out.
  template <class Self, class F>
  static void for_each_field(Self& self, F&& f) {
    const auto n = static_cast<std::int64_t>(self.alpha.size());
    const std::int64_t columns = kernel_columns(self.cache.kernel_evaluations, n);
    f("solver", solver_name(self.solver));
    f("alpha", self.alpha);
    f("intercept", self.intercept);
    f("objective", self.objective);
    f("iterations", self.iterations);
    f("status", self.converged ? "converged" : "max_iter_reached");
    f("max_violation", self.max_violation);
    f("cache_hits", self.cache.hits);
    f("cache_misses", self.cache.misses);
    f("kernel_columns_computed", columns);
    last_fields(self, f);
  }

  /// The fields that close the table, shared with PairReports' (members
  /// of the same names there).
  template <class Self, class F>
  static void last_fields(Self& self, F& f) {
    f("seconds", self.seconds);
    f("inner_iterations", self.inner_iterations);
    f("smo_fallbacks", self.smo_fallbacks);
    f("smo_handoff", self.smo_handoff);
    f("readmissions", self.readmissions);
    f("polished", self.polished);
  }

  /// Kernel values computed over n rows as a count of kernel columns
  /// (kernel values / n, rounded).
  static std::int64_t kernel_columns(double kernel_evaluations, std::int64_t n) {
    const auto rows = static_cast<double>(std::max<std::int64_t>(n, 1));
    return static_cast<std::int64_t>(std::llround(kernel_evaluations / rows));
  }
};

struct ExactResult : ExactReport {
  std::vector<double> alpha;
};

/// Labels must be +1 / -1 with both classes present.
inline void validate_labels(const std::vector<double>& y, Index n) {
  if (static_cast<Index>(y.size()) != n)  // the message built only when needed (one-vs-one checks many problems)
    throw std::invalid_argument("y has " + std::to_string(y.size()) + " labels for " + std::to_string(n) + " rows");
  bool pos = false, neg = false;
  for (double v : y) {
    require(v == 1.0 || v == -1.0, "labels must be +1 or -1");
    pos = pos || v > 0;
    neg = neg || v < 0;
  }
  require(pos && neg, "only one class present; need both +1 and -1 labels");
}

namespace detail {

/// The cache's size for a solver: at least its working set and two more.
inline Index cache_columns(ExactSolver solver, const ExactSettings& settings) {
  return (solver == ExactSolver::smo ? 2 : 2 * static_cast<Index>(settings.alfpgm.pairs)) + 2;
}

/// Runs `solver` on the state (at alpha = 0, its cache empty) and fills
/// the result but alpha (state.alpha()).
inline void run_solver(ExactSolver solver, DualState& state, const ExactSettings& settings, RunControl& control,
                       SmoBuffers& smo, ExactResult& result, std::chrono::steady_clock::time_point start) {
  result.solver = solver;
  if (solver == ExactSolver::smo) {
    const SolveReport r = solve_smo(state, settings.tol, settings.max_iter, settings.shrinking, control, smo);
    result.iterations = r.iterations;
    result.converged = r.converged;
  } else {
    const AlfpgmReport r = solve_alfpgm(state, settings.tol, settings.max_iter, settings.shrinking,
                                        settings.alfpgm, control);
    result.iterations = r.iterations;
    result.converged = r.converged;
    result.inner_iterations = r.inner_iterations;
    result.smo_fallbacks = r.smo_fallbacks;
    result.smo_handoff = r.smo_handoff;
    result.readmissions = r.readmissions;
    // SMO's analytic steps need no polish; ALFPGM's iterative sub-problems do.
    if (r.converged) result.polished = polish_free_variables(state);
  }
  result.max_violation = std::max(0.0, state.violation_all().gap());
  result.intercept = -state.rho();
  result.objective = state.objective();
  result.cache = state.cache().stats();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// fit_exact on settings already validated.
inline ExactResult solve_exact(const KernelColumnSource& source, const std::vector<double>& y,
                               const ExactSettings& settings, RunControl& control,
                               std::chrono::steady_clock::time_point start) {
  validate_labels(y, source.size());
  const ExactSolver solver = resolve_solver(settings.solver, source.size(), source.sparse_rows());
  KernelCache cache(source, settings.cache_mb * 1024.0 * 1024.0, cache_columns(solver, settings));
  // Both solvers fetch columns of the active prefix while shrunk (as LIBSVM).
  DualState state(cache, y, settings.C * settings.weight_pos, settings.C * settings.weight_neg,
                  settings.n_jobs, &settings.sample_weight);
  ExactResult result;
  SmoBuffers smo;
  run_solver(solver, state, settings, control, smo, result, start);
  result.alpha = state.alpha();
  return result;
}

}  // namespace detail

inline ExactResult fit_exact(const KernelColumnSource& source, const std::vector<double>& y,
                             const ExactSettings& settings, RunControl& control) {
  const auto start = std::chrono::steady_clock::now();
  settings.validate();
  return detail::solve_exact(source, y, settings, control, start);
}

/// fit_exact for problem after problem on rows of one training set (the
/// pairs of one-vs-one training): one source (its rows changed by
/// set_rows), one kernel cache and one dual state serve every problem, so
/// that a problem of a few rows costs a few rows' work, not the set-up of
/// new objects. Source: ViewKernelSource or PrecomputedKernelSource. The
/// settings are not validated here (validate them once).
template <class Source>
class ExactWorkspace {
 public:
  /// all_rows: the source is over all rows of its data now (constructed
  /// with an empty subset), so that a first problem on all rows needs no
  /// set_rows (the binary problem of a two-class fit).
  explicit ExactWorkspace(Source& source, bool all_rows = false) : source_(source), all_rows_(all_rows) {}

  /// Solves the problem on `rows` of the source's data (empty: all rows)
  /// with labels y; the result holds no alpha (alpha()).
  ExactResult solve(const std::vector<Index>& rows, const std::vector<double>& y, const ExactSettings& settings,
                    RunControl& control) {
    const auto start = std::chrono::steady_clock::now();
    if (!(rows.empty() && all_rows_)) source_.set_rows(rows);
    all_rows_ = rows.empty();
    validate_labels(y, source_.size());
    const ExactSolver solver = resolve_solver(settings.solver, source_.size(), source_.sparse_rows());
    const double bytes = settings.cache_mb * 1024.0 * 1024.0;
    const double C_pos = settings.C * settings.weight_pos, C_neg = settings.C * settings.weight_neg;
    if (cache_)
      cache_->reset(bytes, detail::cache_columns(solver, settings));
    else
      cache_.emplace(source_, bytes, detail::cache_columns(solver, settings));
    if (state_)
      state_->reset(y, C_pos, C_neg, &settings.sample_weight);
    else
      state_.emplace(*cache_, y, C_pos, C_neg, settings.n_jobs, &settings.sample_weight);
    ExactResult result;
    detail::run_solver(solver, *state_, settings, control, smo_, result, start);
    return result;
  }

  /// The last problem's alpha (valid until the next solve).
  const std::vector<double>& alpha() const { return state_->alpha(); }

 private:
  Source& source_;
  bool all_rows_;
  std::optional<KernelCache> cache_;
  std::optional<DualState> state_;
  SmoBuffers smo_;
};

}  // namespace budgetsvm::exact
