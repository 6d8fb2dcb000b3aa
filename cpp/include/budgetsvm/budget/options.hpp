// Parameters, statistics and results shared by the budgeted solvers.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "../core/errors.hpp"
#include "../core/kernel.hpp"
#include "merge.hpp"

namespace budgetsvm::budget {

enum class Solver { bsgd, bsca };
enum class Maintenance { merge, remove, project };
enum class LearningRate { pegasos, norma, perceptron };

/// BSCA's output (see bsca.hpp, "Averaging"): the average of the iterates
/// over the averaging window (the last epoch; the second half of a single
/// pass), or the last iterate.
enum class Averaging { tail, none };

/// BSCA's dual variable of a point whose copy left the model by a merge or
/// removal (see bsca.hpp, "Dual variables after a merge"): kept (the
/// paper's rule and our default) or restarted at 0 (the earlier default,
/// kept as an instrument).
enum class AfterMerge { keep, reset };

/// BSCA's first epoch (see bsca.hpp, "The first pass"): the growing
/// problem of the points seen so far (SDCA's modified-SGD start; our
/// default) or plain coordinate steps from alpha = 0 (the paper's).
enum class FirstPass { growing, plain };

inline Solver solver_from_name(const std::string& name) {
  if (name == "bsgd") return Solver::bsgd;
  if (name == "bsca") return Solver::bsca;
  throw std::invalid_argument("unknown solver '" + name + "'; expected 'bsgd' or 'bsca'");
}

inline Maintenance maintenance_from_name(const std::string& name) {
  if (name == "merge") return Maintenance::merge;
  if (name == "remove") return Maintenance::remove;
  if (name == "project") return Maintenance::project;
  throw std::invalid_argument("unknown maintenance '" + name +
                              "'; expected one of 'merge', 'remove', 'project'");
}

inline LearningRate learning_rate_from_name(const std::string& name) {
  if (name == "pegasos") return LearningRate::pegasos;
  if (name == "norma") return LearningRate::norma;
  if (name == "perceptron") return LearningRate::perceptron;
  throw std::invalid_argument("unknown learning_rate '" + name +
                              "'; expected one of 'pegasos', 'norma', 'perceptron'");
}

struct Params {
  Solver solver = Solver::bsca;
  Index budget = 500;
  double C = 1.0;
  Kernel kernel{};
  Maintenance maintenance = Maintenance::merge;
  merge::Method merge_method = merge::Method::lookup_wd;
  double gss_eps = 0.01;
  int lookup_grid = 400;
  int epochs = 5;
  LearningRate learning_rate = LearningRate::pegasos;
  double eta0 = 1.0;
  double radius = std::numeric_limits<double>::infinity();
  std::uint64_t seed = 0;
  int n_jobs = 1;
  /// Adds an offset b to f(x) = sum_j beta_j k(z_j, x) + b, in the
  /// constant-feature form (a feature of value 1 in every row, regularised
  /// with the rest: Q_ii = k(x_i, x_i) + 1).
  bool fit_intercept = false;
  Averaging averaging = Averaging::tail;
  AfterMerge after_merge = AfterMerge::keep;
  FirstPass first_pass = FirstPass::growing;
  /// BSCA's averaging window: at most the last average_window * B steps.
  int average_window = 100;
  /// Per-epoch instruments that cost a pass over the data or O(B^2 d): the
  /// primal objective of the returned model and its norm; the alpha
  /// distribution (BSCA). Off: those statistics are NaN / -1.
  bool instruments = false;

  void validate() const {
    require(budget >= 2, "budget must be at least 2");
    require(std::isfinite(C) && C > 0.0, "C must be a positive finite number");
    kernel.validate();
    require(kernel.type == KernelType::linear || kernel.gamma > 0.0, "gamma must be positive");
    require(maintenance != Maintenance::merge || kernel.type == KernelType::rbf,
            "maintenance='merge' needs the Gaussian ('rbf') kernel; use 'remove' or 'project'");
    require(gss_eps >= merge::kMinGssEps && gss_eps < 1.0,
            "gss_eps must lie in [1e-12, 1): a smaller tolerance is below what float64 resolves on [0, 1]");
    require(lookup_grid >= 2 && lookup_grid % 2 == 0 && lookup_grid <= 100000,
            "lookup_grid must be an even number in [2, 100000]");
    require(epochs >= 1, "epochs must be at least 1");
    require(std::isfinite(eta0) && eta0 > 0.0, "eta0 must be a positive finite number");
    require(radius > 0.0, "radius must be positive (inf for no projection)");
    require(n_jobs >= 1, "n_jobs must be at least 1");
    require(average_window >= 1, "average_window must be at least 1");
  }
};

/// Counters of one training run (totals so far).
struct Counters {
  long long steps = 0;
  long long sv_added = 0;
  long long merges = 0;
  long long removals = 0;
  long long projections = 0;
  double maintenance_seconds = 0.0;
  /// Sum over merges of the weight degradation ||Delta||^2 (the squared
  /// distance in feature space between the model before and after the
  /// merge), and of the partners' |beta| (binary models; multi-class: the
  /// norm of the coefficient vector).
  double merge_degradation = 0.0;
  double merge_partner_weight = 0.0;

  Counters& operator+=(const Counters& o) {
    steps += o.steps;
    sv_added += o.sv_added;
    merges += o.merges;
    removals += o.removals;
    projections += o.projections;
    maintenance_seconds += o.maintenance_seconds;
    merge_degradation += o.merge_degradation;
    merge_partner_weight += o.merge_partner_weight;
    return *this;
  }
};

struct EpochStats {
  int epoch = 0;
  Counters totals;
  Index n_support = 0;
  double seconds = 0.0;
  /// The primal objective 1/2 ||w||^2 + sum_i C_i max(0, 1 - y_i f(x_i))
  /// of the model at the end of the epoch, the loss summed over one pass
  /// with that model (instruments only; else NaN). One-vs-rest: the sum
  /// over the machines. BSGD reports it in the same units (C form).
  double objective = std::numeric_limits<double>::quiet_NaN();
  /// ||w||^2 of the model at the end of the epoch (instruments only).
  double sq_norm = std::numeric_limits<double>::quiet_NaN();
  /// Sum of the hinge losses sum_i C_i max(0, 1 - y_i f(x_i)) taken at
  /// each point's visit during the epoch (always; the progressive loss).
  double progressive_loss = 0.0;
  /// BSCA's dual variables (instruments only; else -1): how many are 0,
  /// at their bound C_i, strictly in between.
  long long alpha_zero = -1, alpha_bound = -1, alpha_free = -1;
};

/// Called after every epoch; returning true stops training after it.
using EpochCallback = std::function<bool(const EpochStats&)>;

struct Result {
  MatrixXd support_vectors;  // n_sv x d
  MatrixXd dual_coef;        // n_sv x n_outputs
  std::vector<double> intercept;  // n_outputs (zeros without fit_intercept)
  /// BSCA: how many machines return the average of their iterates (the
  /// rest return the last iterate; see bsca.hpp, "Averaging").
  int averaged = 0;
  int n_outputs = 1;
  int epochs_run = 0;
  bool stopped_early = false;
  std::vector<EpochStats> history;
  Counters totals;
  double seconds = 0.0;
};

}  // namespace budgetsvm::budget
