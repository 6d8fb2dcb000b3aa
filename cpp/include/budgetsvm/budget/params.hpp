// Parameters, statistics and results shared by the budgeted solvers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "../core/control.hpp"
#include "../core/errors.hpp"
#include "../core/kernel_function.hpp"
#include "../core/kernel_options.hpp"
#include "../core/options.hpp"
#include "merge.hpp"

namespace budgetsvm::budget {

enum class Solver { bsgd, bsca };
enum class Maintenance { merge, remove, project };
enum class LearningRate { pegasos, norma, perceptron };
/// How shard models combine (shards.hpp): averaged and merged back to the
/// budget after every epoch, or trained apart and averaged once, keeping
/// the union of their support vectors (up to shards x budget).
enum class ShardMix { merge, union_ };

struct Params {
  Solver solver = Solver::bsca;
  Index budget = 500;
  double C = 1.0;
  Kernel kernel{};
  Maintenance maintenance = Maintenance::merge;
  merge::Method merge_method = merge::Method::lookup_wd;
  double gss_eps = 0.01;
  int lookup_grid = merge::kDefaultGrid;
  int epochs = 3;
  LearningRate learning_rate = LearningRate::pegasos;
  double eta0 = 1.0;
  double radius = std::numeric_limits<double>::infinity();
  std::uint64_t seed = 0;
  int n_jobs = 1;
  Index shards = 1;
  ShardMix shard_mix = ShardMix::merge;
  /// Rows per block of a blocked epoch (block.hpp); 0: chosen from the
  /// budget. Not an option of the registry: the steps are the same for
  /// every value (the tests set it).
  Index block_rows = 0;
  /// Adds an offset b to f(x) = sum_j beta_j k(z_j, x) + b, in the
  /// constant-feature form (a feature of value 1 in every row, regularised
  /// with the rest: Q_ii = k(x_i, x_i) + 1).
  bool fit_intercept = false;
  /// Per-epoch instruments that cost a pass over the data or O(B^2 d): the
  /// primal objective of the returned model and its norm; the alpha
  /// distribution (BSCA). Off: those statistics are NaN / -1.
  bool instruments = false;

  /// Ranges from the registry (params_options); the rules that tie two
  /// options together here.
  void validate() const;
};

/// The budgeted solvers' hyperparameters: names, ranges, one-line
/// descriptions; defaults are Params' initialisers (core/options.hpp).
inline const std::vector<Option<Params>>& params_options() {
  static const std::vector<Option<Params>> registry = [] {
    using P = Params;
    std::vector<Option<P>> r;
    r.push_back(choice_option<P>("solver", &P::solver,
                                 NameTable<Solver>{{"bsca", Solver::bsca}, {"bsgd", Solver::bsgd}},
                                 "budgeted stochastic coordinate ascent (dual) or gradient descent (primal)"));
    r.push_back(int_option<P>("budget", &P::budget, 2, "most support vectors the model keeps"));
    r.push_back(real_option<P>("C", &P::C, RealRange::positive(), "regularisation: the bound of the dual variables"));
    add_kernel_options(r, &P::kernel);
    r.push_back(choice_option<P>("maintenance", &P::maintenance,
                                 NameTable<Maintenance>{
                                     {"merge", Maintenance::merge}, {"remove", Maintenance::remove},
                                     {"project", Maintenance::project}},
                                 "how the budget is kept when it overflows"));
    r.push_back(choice_option<P>("merge_method", &P::merge_method,
                                 merge::method_names(),
                                 "how a merge's coefficient h is found (golden section search or tables)"));
    r.push_back(real_option<P>("gss_eps", &P::gss_eps, RealRange{merge::kMinGssEps, 1.0, false, true, false},
                               "tolerance of the golden section search on h in [0, 1]"));
    auto grid = int_option<P>("lookup_grid", &P::lookup_grid, 2, "resolution of the merge tables (even)",
                              merge::kMaxGrid);
    grid.rule = [](const OptionValue& v) {
      return std::get<std::int64_t>(v) % 2 == 0 ? std::string()
                                                 : "lookup_grid must be even (m = 1/2 is a grid node); got " +
                                                       value_text(v) + ".";
    };
    r.push_back(grid);
    r.push_back(int_option<P>("epochs", &P::epochs, 1, "passes over the data"));
    r.push_back(choice_option<P>("learning_rate", &P::learning_rate,
                                 NameTable<LearningRate>{
                                     {"pegasos", LearningRate::pegasos}, {"norma", LearningRate::norma},
                                     {"perceptron", LearningRate::perceptron}},
                                 "BSGD's step size schedule"));
    r.push_back(real_option<P>("eta0", &P::eta0, RealRange::positive(), "BSGD's initial step size (norma)"));
    r.push_back(real_option<P>("radius", &P::radius,
                               RealRange{0.0, std::numeric_limits<double>::infinity(), true, false, true},
                               "BSGD: project the model onto the ball of this radius (inf: never)"));
    r.push_back(int_option<P>("seed", &P::seed, 0, "seed of the visiting order"));
    r.push_back(int_option<P>("n_jobs", &P::n_jobs, 1, "threads (one-vs-rest machines or shards in parallel)"));
    r.push_back(int_option<P>("shards", &P::shards, 1,
                              "data shards trained in parallel, combined by shard_mix (one machine's problem)"));
    r.push_back(choice_option<P>("shard_mix", &P::shard_mix,
                                 NameTable<ShardMix>{{"merge", ShardMix::merge}, {"union", ShardMix::union_}},
                                 "shard models averaged and merged to the budget every epoch, or trained apart "
                                 "and their union kept (up to shards x budget support vectors)"));
    r.push_back(bool_option<P>("fit_intercept", &P::fit_intercept, "add an offset b (a constant feature)"));
    r.push_back(bool_option<P>("instruments", &P::instruments,
                               "per-epoch primal objective, ||w||^2 and BSCA's alpha counts (costs a pass)"));
    return r;
  }();
  return registry;
}

inline void Params::validate() const {
  check_options(params_options(), *this);
  kernel.validate();
  require(maintenance != Maintenance::merge || kernel.type == KernelType::rbf,
          "maintenance='merge' needs the Gaussian kernel (kernel='rbf'); use maintenance='remove' or 'project' "
          "with other kernels");
}

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

  /// The field table: f(name, field) for every field, in this order, with
  /// `self` const or not. Results cross to Python through these tables
  /// (python/bindings/fields.hpp: a field of a struct that has a table of
  /// its own, as totals below, is flattened into the outer dict), so a new
  /// counter is a member, a line here and a line in operator+=.
  template <class Self, class F>
  static void for_each_field(Self& self, F&& f) {
    f("steps", self.steps);
    f("sv_added", self.sv_added);
    f("merges", self.merges);
    f("removals", self.removals);
    f("projections", self.projections);
    f("maintenance_seconds", self.maintenance_seconds);
    f("merge_degradation", self.merge_degradation);
    f("merge_partner_weight", self.merge_partner_weight);
  }

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

  /// The field table (see Counters::for_each_field).
  template <class Self, class F>
  static void for_each_field(Self& self, F&& f) {
    f("epoch", self.epoch);
    f("totals", self.totals);
    f("n_support", self.n_support);
    f("seconds", self.seconds);
    f("objective", self.objective);
    f("sq_norm", self.sq_norm);
    f("progressive_loss", self.progressive_loss);
    f("alpha_zero", self.alpha_zero);
    f("alpha_bound", self.alpha_bound);
    f("alpha_free", self.alpha_free);
  }
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
  /// The state a later run continues from (see Start): steps taken in all
  /// runs so far (one machine's count) and the n of lambda used.
  long long steps_total = 0;
  double n_ref = 0.0;
  /// Sharded runs: rounds whose mixed model lost to a shard's (shards.hpp).
  int mix_fallbacks = 0;

  /// The field table (see Counters::for_each_field).
  template <class Self, class F>
  static void for_each_field(Self& self, F&& f) {
    f("support_vectors", self.support_vectors);
    f("dual_coef", self.dual_coef);
    f("intercept", self.intercept);
    f("n_outputs", self.n_outputs);
    f("epochs_run", self.epochs_run);
    f("stopped_early", self.stopped_early);
    f("averaged", self.averaged);
    f("history", self.history);
    f("totals", self.totals);
    f("seconds", self.seconds);
    f("steps_total", self.steps_total);
    f("n_ref", self.n_ref);
    f("mix_fallbacks", self.mix_fallbacks);
  }
};

/// Where a run starts when it continues a model (warm_start, partial_fit,
/// the rounds of sharded and distributed training; docs/scale.md): the
/// model, the steps taken so far and the n that the model's lambda was set
/// for. A default Start is a cold start.
struct Start {
  const MatrixXd* support_vectors = nullptr;  // m x d, data coordinates (nullptr: no model)
  const MatrixXd* dual_coef = nullptr;        // m x n_outputs (BSCA one-vs-rest: class columns)
  std::vector<double> intercept;              // n_outputs, or empty (zeros)
  /// Training steps taken so far: BSGD's t and BSCA's growing-pass count
  /// continue from here.
  long long steps = 0;
  /// The n of lambda = 1 / (C n) the model was trained for (0: unknown).
  /// Pegasos' iterate and BSCA's growing pass are proportional to C n, so a
  /// model continued with another n is first rescaled by n / n_ref.
  double n_ref = 0.0;
  /// The n of lambda for this run (0: the rows of the call). partial_fit
  /// passes the rows seen so far, a shard the rows of all shards.
  double n = 0.0;

  bool warm() const { return support_vectors != nullptr; }
};

/// The support vectors a model can ever hold: one training step adds at most
/// one, so a run of `epochs` passes over n rows never holds more than
/// n * epochs, and a budget above that is storage no run can use (a budget
/// of 10^7 on 200 rows allocated gigabytes up front).
/// `held`: support vectors a warm start brings along.
inline Index reachable_budget(const Params& params, Index n_rows, Index held = 0) {
  const Index steps = std::max<Index>(n_rows, 1) * static_cast<Index>(params.epochs);
  return std::max<Index>(2, std::min(params.budget, held > params.budget - steps ? params.budget : held + steps));
}

/// The end of an epoch, the same for every solver: its statistics join the
/// history, the callback may stop training (true), Ctrl-C is asked.
inline bool end_epoch(Result& result, const EpochStats& stats, const EpochCallback& callback, RunControl& control) {
  result.history.push_back(stats);
  result.epochs_run = stats.epoch;
  if (callback && callback(stats)) {
    result.stopped_early = true;
    return true;
  }
  control.poll_now();
  return false;
}

}  // namespace budgetsvm::budget
