// Multi-core training of one problem: data shards with model mixing
// (docs/scale.md).
//
// Problem: one binary machine (or BSGD's multi-class model) is a sequence of
// steps, each reading the model the previous step wrote; threads cannot
// share that sequence without locking the model at every step.
//
// Algorithm (iterative parameter mixing): the rows are split once, by the
// seed, into `shards` parts of near-equal size. Every epoch is one round:
// each shard runs one epoch of the solver on its own rows, continuing the
// common model (start.hpp: the same model, step count and n = all rows),
// the shards in parallel threads; then mix.hpp averages the shard models,
// weighted by their rows, pairwise up a tree (mix_tree: the tree Dask
// mixes too), each mix merging the union of two back to B. The common model
// advances by the shards' mean step count per round, so one round of K
// shards counts as n / K steps of the sequential run: Pegasos' and the
// growing pass's iterate then keep their scale (each shard's model is the
// iterate for its n / K rows with the lambda of n rows, and their average
// is the mixture of K such iterates).
//
// BSCA (binary, cold start) keeps its dual variables across rounds: shard k
// of n_k of the n points runs BSCA on its rows with the box C n / n_k and
// keeps its alpha; the mix weights it n_k / n. This is CoCoA+'s adding
// combination (Ma et al., ICML 2015) written as an average: a shard's step
// on its copy of the model is n / n_k times the common model's, so the mix
// stays the expansion of the shards' alphas scaled by n_k / n, each in
// [0, C], and the rounds ascend the one dual. Round 1 is the growing pass,
// later rounds plain epochs, as sequentially. After the last of several
// rounds each shard settles its average on its share of the 10,000 rows the
// sequential run samples (bsca.hpp, "Averaging"), so that the shards together
// do the sequential run's work. bsca_shard_round runs one shard's part of
// a round for a caller that keeps the shard's dual variables itself
// (budgetsvm.dask, on the worker holding the partition). Warm starts and
// one-vs-rest BSCA run rounds of continued growing passes whose dual
// variables live for one round (docs/scale.md says what
// that cost).
//
// shard_mix = union: the shards train apart for all their epochs (BSCA with
// its box C n / n_k and kept dual variables, the other solvers each
// continuing its own model with n = all rows) and are combined once, at the
// end (or where the callback stops), by their average with every support
// vector kept: up to shards x B of them, no merge. Mixing every epoch loses
// accuracy in the merges back to B (docs/scale.md, "Why shards lose
// accuracy"); the union of models trained apart does not, at K times the
// prediction cost.
//
// The split follows `shards` as given, never the machine: the model depends
// on (seed, shards) only; `n_jobs` threads run the shards. A shard's
// classes may be one only; its solver handles that. The callback and
// Ctrl-C are served between rounds (Ctrl-C also inside them).
// Departure: the instruments' objective and alpha counts are not recorded
// for sharded runs.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

#include "../core/parallel.hpp"
#include "../core/random.hpp"
#include "../core/stopwatch.hpp"
#include "bsca.hpp"
#include "maintenance.hpp"
#include "mix.hpp"
#include "params.hpp"
#include "rows.hpp"
#include "sequential.hpp"
#include "start.hpp"

namespace budgetsvm::budget {

/// The rows `index` of another Rows (shifted by its centre, if any).
class SubsetRows final : public Rows {
 public:
  SubsetRows(const Rows& base, std::vector<Index> index) : base_(base), index_(std::move(index)) {
    rows_ = static_cast<Index>(index_.size());
    cols_ = base.cols();
    sparse_ = base.sparse();
    sqnorms_.resize(index_.size());
    for (std::size_t t = 0; t < index_.size(); ++t) sqnorms_[t] = base.sqnorm(index_[t]);
    centre_ = base.centre();
  }
  void load(Index i, SampleRow& out) const override { base_.load(index_[static_cast<std::size_t>(i)], out); }
  void prefetch(Index i, int ahead) const override {
    if (ahead >= 3)
      BUDGETSVM_PREFETCH(index_.data() + i);
    else
      base_.prefetch(index_[static_cast<std::size_t>(i)], ahead);
  }

 private:
  const Rows& base_;
  std::vector<Index> index_;
};

namespace detail {

/// The rows of one shard, its class indices and weights.
struct Shard {
  std::unique_ptr<SubsetRows> rows;
  std::vector<int> y;
  std::vector<double> weight;  // empty: all 1
};

inline std::vector<Shard> split_shards(const Rows& X, const int* y, const double* weight, Index shards,
                                       std::uint64_t seed) {
  std::vector<Index> order(static_cast<std::size_t>(X.rows()));
  std::iota(order.begin(), order.end(), Index{0});
  Random rng(seed);
  rng.shuffle(order);
  // Shard k takes the rows at positions [n k / K, n (k + 1) / K) of the
  // shuffled order, each shard's rows in memory order: the shard of every
  // row is marked, then one pass in row order deals them out (no sort).
  const Index n = X.rows();
  std::vector<Index> owner(static_cast<std::size_t>(n));
  std::vector<std::vector<Index>> index(static_cast<std::size_t>(shards));
  std::vector<Shard> out(static_cast<std::size_t>(shards));
  for (Index k = 0; k < shards; ++k) {
    const Index lo = n * k / shards, hi = n * (k + 1) / shards;
    for (Index t = lo; t < hi; ++t) owner[static_cast<std::size_t>(order[static_cast<std::size_t>(t)])] = k;
    const std::size_t m = static_cast<std::size_t>(hi - lo);
    index[static_cast<std::size_t>(k)].reserve(m);
    out[static_cast<std::size_t>(k)].y.reserve(m);
    if (weight) out[static_cast<std::size_t>(k)].weight.reserve(m);
  }
  for (Index i = 0; i < n; ++i) {
    const std::size_t k = static_cast<std::size_t>(owner[static_cast<std::size_t>(i)]);
    index[k].push_back(i);
    out[k].y.push_back(y[i]);
    if (weight) out[k].weight.push_back(weight[i]);
  }
  for (Index k = 0; k < shards; ++k)
    out[static_cast<std::size_t>(k)].rows =
        std::make_unique<SubsetRows>(X, std::move(index[static_cast<std::size_t>(k)]));
  return out;
}

/// Points of a shard in the problem (weight > 0).
inline double points_in_problem(Index rows, const double* weight) {
  double points = 0.0;
  for (Index i = 0; i < rows; ++i) points += !weight || weight[i] > 0.0 ? 1.0 : 0.0;
  return points;
}

/// A shard's parameters in sharded binary BSCA (see "BSCA" above): one
/// thread, no instruments, box C n / n_k for its n_k of the n points.
inline Params bsca_shard_params(const Params& params, double points, double n) {
  Params p = params;
  p.shards = 1, p.n_jobs = 1, p.instruments = false;
  p.C = points > 0.0 ? params.C * n / points : params.C;
  return p;
}

/// Epoch `epoch` of `epochs` of one shard's machine: the growing pass first,
/// the average over the last epoch (the second half of a single pass), and
/// after the last epoch the average settled on the shard's share of the
/// sequential run's sample.
template <class Machine>
void bsca_shard_epoch(Machine& m, Counters& counters, RunControl& control, int epoch,
                      int epochs, double points, double n) {
  using Window = typename Machine::Window;
  Window average = Window::none;
  if (epoch == epochs) average = epochs == 1 ? Window::second_half : Window::epoch;
  m.run_epoch(counters, control, average, epoch == 1);
  if (epoch == epochs)
    m.settle_average(static_cast<Index>(std::ceil(static_cast<double>(Machine::kSettleSample) * points / n)));
}

/// The shard models' average with every support vector kept (shard_mix =
/// union): one mix whose budget is the union's size, so nothing is merged
/// and no guard runs; equal points are combined exactly.
inline Result mix_union(const std::vector<MixPart>& parts, const Params& params, MixBuffers* buffers) {
  Index rows = 0;
  for (const MixPart& p : parts) rows += p.support_vectors->rows();
  Params all = params;
  all.budget = std::max<Index>(2, rows);
  return mix(parts, all, false, GuardPath::automatic, buffers);
}

/// The shards' combination: merged back to the budget up the tree, or
/// their union (see "shard_mix" in the header comment).
inline Result combine_shards(const std::vector<MixPart>& parts, const Params& params, MixBuffers* buffers) {
  return params.shard_mix == ShardMix::union_ ? mix_union(parts, params, buffers)
                                               : mix_tree(parts, params, false, buffers);
}

/// Binary BSCA from a cold start, on shards that keep their dual variables
/// from round to round (see "BSCA" in the header comment). Shard k of n_k
/// (weighted) points out of n trains with box C n / n_k; the mix weights it
/// n_k / n.
template <class MakeMaintenance>
Result fit_sharded_bsca(const Rows& X, std::vector<Shard>& shards, const Params& params,
                        MakeMaintenance make_maintenance, std::uint64_t seed, const EpochCallback& callback,
                        RunControl& control) {
  using Maintenance = decltype(make_maintenance(std::declval<BudgetModel&>()));
  using Machine = BscaMachine<Maintenance>;
  const Index n_shards = static_cast<Index>(shards.size());
  std::vector<double> points(shards.size(), 0.0);  // n_k: a shard's points in the problem (weight > 0)
  double n = 0.0;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    const Shard& s = shards[k];
    points[k] = points_in_problem(s.rows->rows(), s.weight.empty() ? nullptr : s.weight.data());
    n += points[k];
  }
  require(n > 0.0, "every sample weight is 0");
  std::vector<Params> local(shards.size(), params);
  std::vector<std::unique_ptr<Machine>> machines(shards.size());
  Random seeder(seed);
  const Index held = std::min<Index>(params.budget, X.rows() * static_cast<Index>(params.epochs));
  for (std::size_t k = 0; k < shards.size(); ++k) {
    Params& p = local[k];
    p = bsca_shard_params(params, points[k], n);
    const Shard& s = shards[k];
    machines[k] = std::make_unique<Machine>(*s.rows, s.y.data(), s.weight.empty() ? nullptr : s.weight.data(), 1, p,
                                            seeder.next(), make_maintenance, Start{}, -1, 1.0, held);
    // Apart, the shards average as many steps together as one machine would.
    if (params.shard_mix == ShardMix::union_) machines[k]->set_window_share(points[k] / n);
  }
  Result result;
  result.n_outputs = 1;
  const Stopwatch timer;
  Counters totals;
  std::vector<Counters> counters(shards.size());
  MatrixXd sv, coef;
  Start mixed;
  MixBuffers buffers;  // one set for every round's mix
  const int threads = static_cast<int>(std::max<Index>(1, std::min<Index>(params.n_jobs, n_shards)));
  const bool apart = params.shard_mix == ShardMix::union_;  // no mix until the end
  // The shards' models in the data's coordinates, combined.
  auto combine = [&] {
    std::vector<MatrixXd> part_sv(shards.size()), part_coef(shards.size());
    std::vector<MixPart> parts;
    for (std::size_t k = 0; k < shards.size(); ++k) {
      Machine& m = *machines[k];
      m.final_model().export_to(part_sv[k], part_coef[k]);
      X.centre().unshift_rows(part_sv[k]);
      parts.push_back({&part_sv[k], &part_coef[k], {m.final_bias()}, points[k], 0});
    }
    Result r = combine_shards(parts, params, &buffers);
    totals += r.totals;
    result.mix_fallbacks += r.mix_fallbacks;
    sv = std::move(r.support_vectors);
    coef = std::move(r.dual_coef);
    mixed.support_vectors = &sv, mixed.dual_coef = &coef, mixed.intercept = r.intercept;
  };
  for (int epoch = 1; epoch <= params.epochs; ++epoch) {
    parallel_tasks(n_shards, threads, control, [&](Index k, RunControl& ctl) {
      Machine& m = *machines[static_cast<std::size_t>(k)];
      Counters& c = counters[static_cast<std::size_t>(k)];
      if (epoch > 1 && !apart) m.replace_model(mixed, c);
      bsca_shard_epoch(m, c, ctl, epoch, params.epochs, points[static_cast<std::size_t>(k)], n);
    });
    control.poll_now();
    EpochStats stats;
    stats.epoch = epoch;
    Index shard_svs = 0;  // the shards' support vectors (before an end's union combines equal ones)
    for (std::size_t k = 0; k < shards.size(); ++k) {
      Machine& m = *machines[k];
      stats.progressive_loss += m.progressive_loss() * points[k] / n;  // in units of the box C
      shard_svs += m.final_model().size();
      totals += counters[k];
      counters[k] = Counters{};
    }
    const bool combined = !apart || epoch == params.epochs;
    if (combined) combine();
    stats.totals = totals;
    stats.n_support = combined ? sv.rows() : shard_svs;
    stats.seconds = timer.seconds();
    if (end_epoch(result, stats, callback, control)) {
      if (!combined) combine();  // stopped early: the union of the shards as they are
      break;
    }
  }
  for (auto& m : machines) result.averaged += m->has_average() ? 1 : 0;
  result.support_vectors = sv;
  result.dual_coef = coef;
  result.intercept = mixed.intercept;
  result.intercept.resize(1, 0.0);
  result.totals = totals;
  result.seconds = timer.seconds();
  result.steps_total = static_cast<long long>(n);  // the growing pass covered the whole problem
  result.n_ref = n;
  return result;
}

/// Sharded training (see the header comment); `fit` (fit.hpp) calls it when
/// params.shards > 1 and the problem is one machine's. Each shard's part of
/// a round is fit's run without shards (sequential.hpp).
inline Result fit_sharded(const Rows& X, const int* y, const double* weight, int n_classes, const Params& params,
                          const EpochCallback& callback, RunControl& control, const Start& start) {
  const Index n_shards = std::min<Index>(params.shards, X.rows());
  Random seeder(params.seed);
  std::vector<Shard> shards = split_shards(X, y, weight, n_shards, seeder.next());
  if (params.solver == Solver::bsca && n_classes == 2 && !start.warm() &&
      !(start.n > 0.0))
    return with_maintenance(params, [&](auto make) {
      return fit_sharded_bsca(X, shards, params, make, seeder.next(), callback, control);
    });
  const double n = start.n > 0.0 ? start.n : static_cast<double>(X.rows());
  Params one = params;
  one.shards = 1;
  one.n_jobs = 1;
  one.epochs = 1;
  one.instruments = false;
  MatrixXd sv, coef;
  Start cur = start;
  if (cur.warm()) sv = *cur.support_vectors, coef = *cur.dual_coef;
  cur.n = n;
  Result result;
  result.n_outputs = n_classes == 2 ? 1 : n_classes;
  const Stopwatch timer;
  Counters totals;
  std::vector<Result> parts(static_cast<std::size_t>(n_shards));
  MixBuffers buffers;  // one set for every round's mix
  const int threads = static_cast<int>(std::max<Index>(1, std::min<Index>(params.n_jobs, n_shards)));
  const bool apart = params.shard_mix == ShardMix::union_;  // each shard continues its own model
  std::vector<Result> before;                               // apart: the shards' models of the epoch before
  // The shards' models, combined into the next common model.
  auto combine = [&] {
    std::vector<MixPart> mixing;
    for (Index k = 0; k < n_shards; ++k) {
      const Result& r = parts[static_cast<std::size_t>(k)];
      mixing.push_back({&r.support_vectors, &r.dual_coef, r.intercept,
                        static_cast<double>(shards[static_cast<std::size_t>(k)].rows->rows()), r.steps_total});
    }
    Result mixed = combine_shards(mixing, params, &buffers);
    totals += mixed.totals;
    sv = std::move(mixed.support_vectors);
    coef = std::move(mixed.dual_coef);
    cur.intercept = mixed.intercept;
    cur.steps = mixed.steps_total;
    cur.n_ref = n;
  };
  for (int epoch = 1; epoch <= params.epochs; ++epoch) {
    if (!apart && (epoch > 1 || start.warm())) cur.support_vectors = &sv, cur.dual_coef = &coef;
    if (apart && epoch > 1) before = std::move(parts), parts.assign(static_cast<std::size_t>(n_shards), Result{});
    std::vector<std::uint64_t> seeds(static_cast<std::size_t>(n_shards));
    for (auto& s : seeds) s = seeder.next() >> 1;  // the registry holds seeds in [0, 2^63)
    parallel_tasks(n_shards, threads, control, [&](Index k, RunControl& ctl) {
      const Shard& s = shards[static_cast<std::size_t>(k)];
      Params p = one;
      p.seed = seeds[static_cast<std::size_t>(k)];
      const double* w = s.weight.empty() ? nullptr : s.weight.data();
      Start from = cur;
      if (apart && epoch > 1) {
        const Result& own = before[static_cast<std::size_t>(k)];
        from.support_vectors = &own.support_vectors, from.dual_coef = &own.dual_coef;
        from.intercept = own.intercept, from.steps = own.steps_total, from.n_ref = n;
      }
      check_fit(*s.rows, s.y.data(), w, n_classes, p, from);
      parts[static_cast<std::size_t>(k)] =
          fit_sequential(*s.rows, s.y.data(), w, n_classes, p, EpochCallback{}, ctl, from);
    });
    EpochStats stats;
    stats.epoch = epoch;
    Index shard_svs = 0;  // the shards' support vectors (apart, before the end's union)
    for (Index k = 0; k < n_shards; ++k) {
      const Result& r = parts[static_cast<std::size_t>(k)];
      totals += r.totals;
      stats.progressive_loss += r.history.empty() ? 0.0 : r.history.back().progressive_loss;
      shard_svs += r.support_vectors.rows();
    }
    control.poll_now();
    const bool combined = !apart || epoch == params.epochs;
    if (combined) combine();
    stats.totals = totals;
    stats.n_support = combined ? sv.rows() : shard_svs;
    stats.seconds = timer.seconds();
    if (end_epoch(result, stats, callback, control)) {
      if (!combined) combine();  // stopped early: the union of the shards as they are
      break;
    }
  }
  result.support_vectors = sv;
  result.dual_coef = coef;
  result.intercept = cur.intercept;
  result.intercept.resize(static_cast<std::size_t>(result.n_outputs), 0.0);
  result.totals = totals;
  result.seconds = timer.seconds();
  result.steps_total = cur.steps;
  result.n_ref = n;
  for (const Result& r : parts) result.averaged += r.averaged;
  return result;
}

}  // namespace detail

/// Where one call of bsca_shard_round sits in a sharded binary BSCA run.
struct ShardRound {
  double n = 0.0;        // the points of the whole problem (weight > 0), all shards
  int first_epoch = 1;   // the run's epoch the call starts at (1: the growing pass)
  int total_epochs = 1;  // the run's epochs (the last averages and settles)
};

/// One shard's part of a round of sharded binary BSCA (see "BSCA" in the
/// header comment) for a caller that keeps the shard's dual variables
/// between rounds itself, next to the shard's rows (budgetsvm.dask: a
/// partition on its worker): params.epochs epochs of the run, starting at
/// round.first_epoch, from a cold start at epoch 1 and from the common
/// model `start` after it; `alpha` (one per row of X, the values the
/// previous round returned; zeros at epoch 1) is updated in place. y holds
/// class indices 0 / 1 (1 positive). The model returned is in the data's
/// coordinates, to be mixed with the other shards' weighted by their points
/// (Result::n_ref); its history holds the last epoch's progressive loss in
/// units of the box C, weighted n_k / n like the in-process shards'. The
/// same epochs as fit_sharded_bsca's shards; the random stream is params.seed's.
inline Result bsca_shard_round(const Rows& X, const int* y, const double* weight, const Params& params,
                               const Start& start, const ShardRound& round, double* alpha, RunControl& control) {
  params.validate();
  require(params.solver == Solver::bsca, "shard rounds with kept dual variables are BSCA's");
  require(X.rows() >= 1, "no training data");
  require(round.first_epoch >= 1 && round.first_epoch + params.epochs - 1 <= round.total_epochs,
          "the round's epochs lie outside the run's");
  require(round.first_epoch == 1 ? !start.warm() : start.warm(),
          "the first epoch starts cold; later rounds continue the common model");
  for (Index i = 0; i < X.rows(); ++i) require(y[i] == 0 || y[i] == 1, "class indices must be 0 or 1");
  if (weight)
    for (Index i = 0; i < X.rows(); ++i)
      require(std::isfinite(weight[i]) && weight[i] >= 0.0, "sample weights must be finite and >= 0");
  const double points = detail::points_in_problem(X.rows(), weight);
  require(points > 0.0, "every sample weight of the shard is 0");
  require(std::isfinite(round.n) && round.n >= points, "the problem's n must be at least the shard's points");
  const Params p = detail::bsca_shard_params(params, points, round.n);
  return detail::with_maintenance(p, [&](auto make) -> Result {
    using Maintenance = decltype(make(std::declval<BudgetModel&>()));
    BscaMachine<Maintenance> m(X, y, weight, 1, p, p.seed, make, Start{}, -1, 1.0, start_size(start));
    m.set_alpha(alpha);
    if (p.shard_mix == ShardMix::union_) m.set_window_share(points / round.n);  // as fit_sharded_bsca's
    Result result;
    result.n_outputs = 1;
    const Stopwatch timer;
    Counters counters;
    if (start.warm()) m.replace_model(start, counters);
    const int last = round.first_epoch + p.epochs - 1;
    for (int epoch = round.first_epoch; epoch <= last; ++epoch) {
      control.poll_now();
      detail::bsca_shard_epoch(m, counters, control, epoch, round.total_epochs, points, round.n);
    }
    const std::vector<double>& a = m.alpha();
    std::copy(a.begin(), a.end(), alpha);
    m.final_model().export_to(result.support_vectors, result.dual_coef);
    X.centre().unshift_rows(result.support_vectors);
    result.intercept = {m.final_bias()};
    result.averaged = m.has_average() ? 1 : 0;
    EpochStats stats;
    stats.epoch = last;
    stats.totals = counters;
    stats.n_support = result.support_vectors.rows();
    stats.progressive_loss = m.progressive_loss() * points / round.n;
    stats.seconds = timer.seconds();
    result.history.push_back(stats);
    result.epochs_run = last;
    result.totals = counters;
    result.seconds = stats.seconds;
    result.steps_total = static_cast<long long>(round.n);
    result.n_ref = points;
    return result;
  });
}

}  // namespace budgetsvm::budget
