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

  void validate() const {
    require(budget >= 2, "budget must be at least 2");
    require(std::isfinite(C) && C > 0.0, "C must be a positive finite number");
    kernel.validate();
    require(kernel.type == KernelType::linear || kernel.gamma > 0.0, "gamma must be positive");
    require(maintenance != Maintenance::merge || kernel.type == KernelType::rbf,
            "maintenance='merge' needs the Gaussian ('rbf') kernel; use 'remove' or 'project'");
    require(gss_eps > 0.0 && gss_eps < 1.0, "gss_eps must lie in (0, 1)");
    require(lookup_grid >= 2 && lookup_grid % 2 == 0 && lookup_grid <= 100000,
            "lookup_grid must be an even number in [2, 100000]");
    require(epochs >= 1, "epochs must be at least 1");
    require(std::isfinite(eta0) && eta0 > 0.0, "eta0 must be a positive finite number");
    require(radius > 0.0, "radius must be positive (inf for no projection)");
    require(n_jobs >= 1, "n_jobs must be at least 1");
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

  Counters& operator+=(const Counters& o) {
    steps += o.steps;
    sv_added += o.sv_added;
    merges += o.merges;
    removals += o.removals;
    projections += o.projections;
    maintenance_seconds += o.maintenance_seconds;
    return *this;
  }
};

struct EpochStats {
  int epoch = 0;
  Counters totals;
  Index n_support = 0;
  double seconds = 0.0;
  double objective = std::numeric_limits<double>::quiet_NaN();
};

/// Called after every epoch; returning true stops training after it.
using EpochCallback = std::function<bool(const EpochStats&)>;

struct Result {
  MatrixXd support_vectors;  // n_sv x d
  MatrixXd dual_coef;        // n_sv x n_outputs
  int n_outputs = 1;
  int epochs_run = 0;
  bool stopped_early = false;
  std::vector<EpochStats> history;
  Counters totals;
  double seconds = 0.0;
};

}  // namespace budgetsvm::budget
