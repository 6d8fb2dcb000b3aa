// What a user sets for the exact kernel SVM, described once
// (core/options.hpp): the kernel and the solver's settings (ExactSettings:
// C, tol, the cache, the solver and ALFPGM's settings, the threads), their
// registry (params_options(), which the bindings read) and validation. The
// entry point that takes them is fit.hpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "../core/errors.hpp"
#include "../core/kernel_function.hpp"
#include "../core/kernel_options.hpp"
#include "../core/options.hpp"

namespace budgetsvm::exact {

/// How each working set's sub-problem is solved: SMO steps on the dense
/// Q_BB (subproblem_smo.hpp, our default) or the paper's augmented
/// Lagrangian with FPGM (alfpgm_subproblem.hpp).
enum class Subproblem { smo, fpgm };

struct AlfpgmSettings {
  int pairs = 32;  // the paper: 50-100 (docs/exact.md: why 32)
  double delta_alpha = 1e-6;
  int min_alpha_opt = 5;
  int max_alpha_opt = 20;
  Index min_alpha_check = 0;  // 0: search all I_low candidates for j
  double mu = 0.1;
  Subproblem subproblem = Subproblem::smo;
  bool scan_in_move = true;  // the next round's candidate scan made by the gradient update (false: its own pass)
};

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
  double nu = 0.0;  // > 0: one-vs-one pairs are nu-SVC problems with this nu (general.hpp); set by the caller

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

}  // namespace budgetsvm::exact
