// Entry point of the exact kernel SVM (binary C-SVC dual, see
// dual_state.hpp): validates the settings, builds the kernel cache over a
// column source (kernel_cache.hpp), runs ALFPGM (alfpgm.hpp) or SMO
// (smo.hpp), polishes a converged ALFPGM solution (polish.hpp) and returns
// alpha, the bias b = -rho (LIBSVM), the dual objective 1/2 a^T Q a - e^T a
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

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/kernel_options.hpp"
#include "../core/options.hpp"
#include "alfpgm.hpp"
#include "dual_state.hpp"
#include "polish.hpp"
#include "smo.hpp"

namespace budgetsvm::exact {

enum class ExactSolver { alfpgm, smo, automatic };

/// solver = auto: binary problems with at least this many rows go to ALFPGM
/// (unless their rows are too sparse to gather), smaller ones to SMO.
inline constexpr Index kAutoAlfpgmFrom = 10000;

/// The solver that runs on a problem of n rows (auto resolved; the others
/// as given); sparse_rows: the kernel source's sparse_rows().
inline ExactSolver resolve_solver(ExactSolver solver, Index n, bool sparse_rows = false) {
  if (solver != ExactSolver::automatic) return solver;
  return n >= kAutoAlfpgmFrom && !sparse_rows ? ExactSolver::alfpgm : ExactSolver::smo;
}

inline const char* solver_name(ExactSolver solver) {
  switch (solver) {
    case ExactSolver::alfpgm:
      return "alfpgm";
    case ExactSolver::smo:
      return "smo";
    case ExactSolver::automatic:
      break;
  }
  return "auto";
}

struct ExactSettings {
  double C = 1.0;
  double weight_pos = 1.0, weight_neg = 1.0;  // C_t = C * weight of y_t's class
  std::vector<double> sample_weight;           // empty, or C_t *= sample_weight[t] (>= 0)
  double tol = 1e-3;
  double cache_mb = 200.0;
  ExactSolver solver = ExactSolver::automatic;  // auto: by n and the rows (resolve_solver)
  AlfpgmSettings alfpgm;
  std::int64_t max_iter = -1;  // -1: max(10^7, 100 n)
  bool shrinking = true;
  int n_jobs = 1;  // threads for gradient updates (the column source has its own)

  /// Ranges from the registry (params_options); the per-problem weights and
  /// the rules that tie two options together here.
  void validate() const;
};

/// What a user sets for the exact solvers: the kernel and the solver's
/// settings (per-problem class and sample weights are set by the caller).
struct Params {
  Kernel kernel{};
  ExactSettings settings{};
};

/// The exact solvers' hyperparameters: names, ranges, one-line
/// descriptions; defaults are the structs' initialisers (core/options.hpp).
inline const std::vector<Option<Params>>& params_options() {
  static const std::vector<Option<Params>> registry = [] {
    using P = Params;
    std::vector<Option<P>> r;
    r.push_back(real_option<P>("C", [](auto& p) -> auto& { return p.settings.C; }, RealRange::positive(),
                               "regularisation: the bound of the dual variables"));
    add_kernel_options(r, &P::kernel);
    r.push_back(real_option<P>("tol", [](auto& p) -> auto& { return p.settings.tol; }, RealRange::positive(),
                               "stop when the largest KKT violation (maximal violating pair) is below tol"));
    r.push_back(real_option<P>("cache_size", [](auto& p) -> auto& { return p.settings.cache_mb; },
                               RealRange::positive(), "kernel column cache in MB"));
    r.push_back(choice_option<P>("solver", [](auto& p) -> auto& { return p.settings.solver; },
                                 NameTable<ExactSolver>{{"auto", ExactSolver::automatic},
                                                        {"alfpgm", ExactSolver::alfpgm},
                                                        {"smo", ExactSolver::smo}},
                                 "ALFPGM (working sets of many pairs), SMO (one pair), or auto: SMO below " +
                                     std::to_string(kAutoAlfpgmFrom) +
                                     " rows per binary problem or on rows too sparse to gather (more than 64 "
                                     "features, under a quarter stored), ALFPGM on the others"));
    r.push_back(int_option<P>("pairs", [](auto& p) -> auto& { return p.settings.alfpgm.pairs; }, 1,
                              "ALFPGM: pairs per working set"));
    r.push_back(choice_option<P>("subproblem", [](auto& p) -> auto& { return p.settings.alfpgm.subproblem; },
                                 NameTable<Subproblem>{{"smo", Subproblem::smo}, {"fpgm", Subproblem::fpgm}},
                                 "ALFPGM: each working set's sub-problem solved by SMO steps, or by the paper's "
                                 "augmented Lagrangian with fast projected gradient (FPGM)"));
    r.push_back(real_option<P>("delta_alpha", [](auto& p) -> auto& { return p.settings.alfpgm.delta_alpha; },
                               RealRange::non_negative(), "ALFPGM: smallest change of alpha that counts as progress"));
    r.push_back(int_option<P>("min_alpha_opt", [](auto& p) -> auto& { return p.settings.alfpgm.min_alpha_opt; }, 1,
                              "ALFPGM: fewest sub-problem rounds before the working set is renewed"));
    r.push_back(int_option<P>("max_alpha_opt", [](auto& p) -> auto& { return p.settings.alfpgm.max_alpha_opt; }, 1,
                              "ALFPGM: most sub-problem rounds before the working set is renewed"));
    r.push_back(int_option<P>("min_alpha_check", [](auto& p) -> auto& { return p.settings.alfpgm.min_alpha_check; },
                              0, "ALFPGM: candidates searched for each pair's second index (0: all)"));
    auto max_iter = int_option<P>("max_iter", [](auto& p) -> auto& { return p.settings.max_iter; }, -1,
                                  "most iterations (-1: no limit but max(10^7, 100 n))");
    max_iter.rule = [](const OptionValue& v) {
      return std::get<std::int64_t>(v) != 0 ? std::string() : "max_iter must be -1 (no limit) or >= 1; got 0.";
    };
    r.push_back(max_iter);
    r.push_back(bool_option<P>("shrinking", [](auto& p) -> auto& { return p.settings.shrinking; },
                               "leave out bounded variables that look final (LIBSVM's shrinking)"));
    r.push_back(int_option<P>("n_jobs", [](auto& p) -> auto& { return p.settings.n_jobs; }, 1,
                              "threads for kernel columns and gradient updates"));
    return r;
  }();
  return registry;
}

inline void ExactSettings::validate() const {
  check_options(params_options(), Params{Kernel{}, *this});
  require(std::isfinite(weight_pos) && weight_pos > 0.0 && std::isfinite(weight_neg) && weight_neg > 0.0,
          "class weights must be positive finite numbers");
  for (double w : sample_weight)
    require(std::isfinite(w) && w >= 0.0, "sample weights must be non-negative finite numbers");
  require(alfpgm.max_alpha_opt >= alfpgm.min_alpha_opt, "max_alpha_opt (" + std::to_string(alfpgm.max_alpha_opt) +
                                                            ") must be >= min_alpha_opt (" +
                                                            std::to_string(alfpgm.min_alpha_opt) + ").");
}

struct ExactResult {
  ExactSolver solver = ExactSolver::alfpgm;  // the one that ran (auto resolved)
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
  bool smo_handoff = false;  // ALFPGM's sub-problems stopped converging; SMO finished
  std::int64_t readmissions = 0;  // ALFPGM: MinMaxLimiter / shrinking re-checks over all n
  bool polished = false;          // ALFPGM: the free variables' system was solved (polish.hpp)
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
